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
    return ps_parse_long(opt, s, min, max, out) ? ps_cli_error("%s", ps_error_detail()) : 0;
}

const char *ps_cli_num(double v, char *buf, size_t n)
{
    return ps_shortest(v, buf, n);
}

int ps_cli_parse_double(const char *opt, const char *s, double *out)
{
    return ps_parse_double(opt, s, out) ? ps_cli_error("%s", ps_error_detail()) : 0;
}

int ps_cli_parse_double_list(const char *opt, const char *s, double *out, int n)
{
    int c = ps_parse_double_list(opt, s, out, n);
    if (c < 0)
        ps_cli_error("%s", ps_error_detail());
    return c;
}

int ps_cli_parse_long_list(const char *opt, const char *s, long min, long *out, int n)
{
    int c = ps_parse_long_list(opt, s, min, out, n);
    if (c < 0)
        ps_cli_error("%s", ps_error_detail());
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
    return ps_parse_size(opt, s, out) ? ps_cli_error("%s", ps_error_detail()) : 0;
}
