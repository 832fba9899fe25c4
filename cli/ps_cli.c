/* Shared helpers of the pstencil program. */
#include "config.h"
#include "ps_cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *ps_cli_cmdline = "pstencil";

int ps_cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("pstencil: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return PS_EXIT_USAGE;
}

int ps_cli_status_error(int status, const char *what)
{
    const char *d = ps_error_detail();
    if (d && *d && strstr(d, what)) /* the detail already names it */
        return ps_cli_error("%s", d);
    if (d && *d)
        return ps_cli_error("%s: %s", what, d);
    return ps_cli_error("%s: %s", what, ps_strerror(status));
}

int ps_cli_write_error(int st, const char *out, int err, long long wrote, long long want)
{
    long long avail = ps_outfile_free_bytes(out);
    if (err == ENOSPC || err == EFBIG || err == EDQUOT || (avail >= 0 && avail < 65536)) {
        char w[64], t[64];
        if (wrote >= 0)
            snprintf(w, sizeof w, "%lld", wrote);
        else
            snprintf(w, sizeof w, "?");
        if (want > 0)
            snprintf(t, sizeof t, " of about %lld bytes", want);
        else
            snprintf(t, sizeof t, " bytes");
        return ps_cli_error("%s: %s (wrote %s%s); nothing was written", out,
                            err == EFBIG ? "file size limit exceeded" : "no space left on device",
                            w, t);
    }
    return ps_cli_status_error(st, out);
}

void ps_cli_warn(const char *fmt, ...)
{
    va_list ap;
    fputs("pstencil: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int ps_cli_parse_long(const char *opt, const char *s, long min, long max, long *out)
{
    char *end = NULL;
    long v;
    if (!s || !*s)
        return ps_cli_error("%s needs a value", opt);
    errno = 0;
    v = strtol(s, &end, 10);
    if (!end || *end || end == s)
        return ps_cli_error("%s: '%s' is not a whole number", opt, s);
    if (errno == ERANGE) {
        /* a whole number, just too large (or too small) for this option */
        if (v > 0 && max >= LONG_MAX / 2)
            return ps_cli_error("%s: %s is too large (must be at most %ld)", opt, s, max);
        if (v > 0)
            return ps_cli_error("%s: %s is too large (%ld..%ld)", opt, s, min, max);
        return ps_cli_error("%s: %s is out of range (must be >= %ld)", opt, s, min);
    }
    if (errno)
        return ps_cli_error("%s: '%s' is not a whole number", opt, s);
    if (v < min || v > max) {
        if (max >= LONG_MAX / 2)
            return ps_cli_error("%s: %ld is out of range (must be >= %ld)", opt, v, min);
        return ps_cli_error("%s: %ld is out of range (%ld..%ld)", opt, v, min, max);
    }
    *out = v;
    return 0;
}

const char *ps_cli_num(double v, char *buf, size_t n)
{
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

int ps_cli_parse_double(const char *opt, const char *s, double *out)
{
    char *end = NULL;
    double v;
    if (!s || !*s)
        return ps_cli_error("%s needs a value", opt);
    errno = 0;
    v = strtod(s, &end);
    if (!end || *end || end == s)
        return ps_cli_error("%s: '%s' is not a number", opt, s);
    if (!isfinite(v) || errno == ERANGE)
        return ps_cli_error("%s: '%s' is not a finite number", opt, s);
    *out = v;
    return 0;
}

int ps_cli_parse_double_list(const char *opt, const char *s, double *out, int n)
{
    char buf[1024], *save = NULL, *tok;
    int c = 0;
    snprintf(buf, sizeof buf, "%s", s ? s : "");
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (c >= n) {
            ps_cli_error("%s: more than %d values", opt, n);
            return -1;
        }
        if (ps_cli_parse_double(opt, tok, &out[c]))
            return -1;
        c++;
    }
    if (c == 0) {
        ps_cli_error("%s needs at least one value", opt);
        return -1;
    }
    return c;
}

int ps_cli_parse_long_list(const char *opt, const char *s, long min, long *out, int n)
{
    char buf[1024], *save = NULL, *tok;
    int c = 0;
    snprintf(buf, sizeof buf, "%s", s ? s : "");
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (c >= n) {
            ps_cli_error("%s: more than %d values", opt, n);
            return -1;
        }
        if (ps_cli_parse_long(opt, tok, min, LONG_MAX, &out[c]))
            return -1;
        c++;
    }
    if (c == 0) {
        ps_cli_error("%s needs at least one value", opt);
        return -1;
    }
    return c;
}

int ps_cli_isatty(void)
{
    return isatty(STDERR_FILENO);
}

int ps_cli_getopt_error(const char *cmd, int c, char **argv, const struct option *opts)
{
    /* a short option's letter is in optopt; a long one is argv[optind - 1] */
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    char shortopt[3] = {'-', (char)optopt, '\0'};
    if (optopt > 0 && optopt < 128 && !(arg[0] == '-' && arg[1] == '-'))
        arg = shortopt;
    if (c == ':')
        return ps_cli_error("%s: option %s needs a value", cmd, arg);
    if (opts && arg[0] == '-' && arg[1] == '-' && arg[2]) {
        /* getopt_long says '?' for a value given to a flag and for an ambiguous prefix too */
        size_t len = strcspn(arg + 2, "=");
        int i, nmatch = 0, exact = -1, first = -1;
        for (i = 0; opts[i].name; i++)
            if (!strncmp(opts[i].name, arg + 2, len)) {
                if (first < 0)
                    first = i;
                nmatch++;
                if (strlen(opts[i].name) == len)
                    exact = i;
            }
        if (exact < 0 && nmatch == 1)
            exact = first;
        if (exact >= 0 && arg[2 + len] == '=' && opts[exact].has_arg == no_argument)
            return ps_cli_error("%s: option --%s takes no value", cmd, opts[exact].name);
        if (exact < 0 && nmatch > 1)
            return ps_cli_error("%s: option '%.*s' is ambiguous (try 'pstencil %s --help')", cmd,
                                (int)(len + 2), arg, cmd);
    }
    return ps_cli_error("%s: unknown option '%s' (try 'pstencil %s --help')", cmd, arg, cmd);
}

int ps_cli_parse_size(const char *opt, const char *s, uint64_t *out)
{
    static const char units[] = "KMGT";
    const char *u;
    char *end = NULL;
    double v, mult = 1;
    if (!s || !*s)
        return ps_cli_error("%s needs a value", opt);
    if (!strcmp(s, "none") || !strcmp(s, "unlimited")) {
        *out = 0;
        return 0;
    }
    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno || !(v > 0) || !isdigit((unsigned char)s[0]))
        return ps_cli_error("%s: '%s' is not a positive size (e.g. 512M, 4G, or none)", opt, s);
    if (*end && (u = strchr(units, toupper((unsigned char)*end)))) {
        int n = (int)(u - units) + 1;
        while (n--)
            mult *= 1024;
        end++;
        if (*end == 'i' && end[1] == 'B')
            end += 2;
        else if (*end == 'B' || *end == 'b')
            end++;
    } else if (*end == 'B' || *end == 'b') {
        end++;
    }
    if (*end)
        return ps_cli_error("%s: '%s': unknown unit '%s' (use K, M, G or T)", opt, s, end);
    v *= mult;
    if (v < 1 || v > 1.8e19)
        return ps_cli_error("%s: '%s' is out of range", opt, s);
    *out = (uint64_t)v;
    return 0;
}
