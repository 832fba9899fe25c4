/*
 * The value rules every front end shares: whole numbers, numbers, sizes and
 * lists, each refused with a message naming the option and what it takes.
 */
#include "config.h"
#include "pstencil_job.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ps_parse_long(const char *opt, const char *s, long min, long max, long *out)
{
    char *end = NULL;
    long v;
    if (!s || !*s)
        return ps_error(PS_EINVAL, "%s needs a value", opt);
    errno = 0;
    v = strtol(s, &end, 10);
    if (!end || *end || end == s)
        return ps_error(PS_EINVAL, "%s: '%s' is not a whole number", opt, s);
    if (errno == ERANGE) {
        /* a whole number, just too large (or too small) for this option */
        if (v > 0 && max >= LONG_MAX / 2)
            return ps_error(PS_EINVAL, "%s: %s is too large (must be at most %ld)", opt, s, max);
        if (v > 0)
            return ps_error(PS_EINVAL, "%s: %s is too large (%ld..%ld)", opt, s, min, max);
        return ps_error(PS_EINVAL, "%s: %s is out of range (must be >= %ld)", opt, s, min);
    }
    if (errno)
        return ps_error(PS_EINVAL, "%s: '%s' is not a whole number", opt, s);
    if (v < min || v > max) {
        if (max >= LONG_MAX / 2)
            return ps_error(PS_EINVAL, "%s: %ld is out of range (must be >= %ld)", opt, v, min);
        return ps_error(PS_EINVAL, "%s: %ld is out of range (%ld..%ld)", opt, v, min, max);
    }
    *out = v;
    return PS_OK;
}

int ps_parse_double(const char *opt, const char *s, double *out)
{
    char *end = NULL;
    double v;
    if (!s || !*s)
        return ps_error(PS_EINVAL, "%s needs a value", opt);
    errno = 0;
    v = strtod(s, &end);
    if (!end || *end || end == s)
        return ps_error(PS_EINVAL, "%s: '%s' is not a number", opt, s);
    if (!isfinite(v) || errno == ERANGE)
        return ps_error(PS_EINVAL, "%s: '%s' is not a finite number", opt, s);
    *out = v;
    return PS_OK;
}

/* Up to @p n comma-separated values, each parsed by @p one into @p out (elements of
 * @p size bytes); the count, or -1 with the detail set. */
static int parse_list(const char *opt, const char *s, int n, void *out, size_t size,
                      int (*one)(const char *opt, const char *tok, void *v, const void *arg),
                      const void *arg)
{
    char buf[1024], *save = NULL, *tok;
    int c = 0;
    snprintf(buf, sizeof buf, "%s", s ? s : "");
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (c >= n) {
            ps_error(PS_EINVAL, "%s: more than %d values", opt, n);
            return -1;
        }
        if (one(opt, tok, (char *)out + (size_t)c * size, arg))
            return -1;
        c++;
    }
    if (c == 0) {
        ps_error(PS_EINVAL, "%s needs at least one value", opt);
        return -1;
    }
    return c;
}

static int one_double(const char *opt, const char *tok, void *v, const void *arg)
{
    (void)arg;
    return ps_parse_double(opt, tok, v);
}

static int one_long(const char *opt, const char *tok, void *v, const void *arg)
{
    return ps_parse_long(opt, tok, *(const long *)arg, LONG_MAX, v);
}

int ps_parse_double_list(const char *opt, const char *s, double *out, int n)
{
    return parse_list(opt, s, n, out, sizeof *out, one_double, NULL);
}

int ps_parse_long_list(const char *opt, const char *s, long min, long *out, int n)
{
    return parse_list(opt, s, n, out, sizeof *out, one_long, &min);
}

int ps_parse_size(const char *opt, const char *s, uint64_t *out)
{
    static const char units[] = "KMGT";
    const char *u;
    char *end = NULL;
    double v, mult = 1;
    if (!s || !*s)
        return ps_error(PS_EINVAL, "%s needs a value", opt);
    if (!strcmp(s, "none") || !strcmp(s, "unlimited")) {
        *out = 0;
        return PS_OK;
    }
    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno || !(v > 0) || !isdigit((unsigned char)s[0]))
        return ps_error(PS_EINVAL, "%s: '%s' is not a positive size (e.g. 512M, 4G, or none)", opt, s);
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
        return ps_error(PS_EINVAL, "%s: '%s': unknown unit '%s' (use K, M, G or T)", opt, s, end);
    v *= mult;
    if (v < 1 || v > 1.8e19)
        return ps_error(PS_EINVAL, "%s: '%s' is out of range", opt, s);
    *out = (uint64_t)v;
    return PS_OK;
}
