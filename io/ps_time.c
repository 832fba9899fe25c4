/*
 * CF time units: the length of "<unit>" in "<unit> since <reference>", and
 * the date of a time value in the CF calendars. Day numbers: the proleptic
 * Gregorian and Julian calendars use H. Hinnant's era arithmetic (400- and
 * 4-year cycles, years starting in March); the standard calendar is Julian
 * up to 1582-10-04 and Gregorian from 1582-10-15; the three model calendars
 * have fixed-length years.
 */
#include "config.h"
#include "ps_time.h"
#include "ps_units.h"
#include "ps_status.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int ps_time_units_parse(const char *units, double *unit_seconds, char *ref, size_t reflen)
{
    char word[32];
    const char *p = units, *q;
    size_t n;
    ps_unit u;
    if (!units)
        return ps_error(PS_EINVAL, "no time units");
    while (isspace((unsigned char)*p))
        p++;
    for (q = p; *q && !isspace((unsigned char)*q); q++)
        ;
    n = (size_t)(q - p);
    if (n == 0 || n >= sizeof word)
        return ps_error(PS_EINVAL, "time units '%s' are not '<unit> since <date>'", units);
    memcpy(word, p, n);
    word[n] = '\0';
    while (isspace((unsigned char)*q))
        q++;
    if (strncasecmp(q, "since", 5) || !isspace((unsigned char)q[5]))
        return ps_error(PS_EINVAL, "time units '%s' are not '<unit> since <date>'", units);
    q += 5;
    while (isspace((unsigned char)*q))
        q++;
    if (!*q)
        return ps_error(PS_EINVAL, "time units '%s' have no reference date", units);
    /* UDUNITS-2's durations (CF 4.4: its month and year lengths too) */
    if (ps_unit_parse(word, &u) == PS_EIO)
        return PS_EIO;
    if (u.kind == PS_UNIT_UNKNOWN)
        return ps_error(PS_EINVAL, "time units '%s': unknown unit '%s'", units, word);
    if (u.kind != PS_UNIT_TIME || !(u.scale > 0) || u.offset != 0)
        return ps_error(PS_EINVAL, "time units '%s': '%s' is not a unit of time", units, word);
    *unit_seconds = u.scale;
    if (ref && reflen) {
        snprintf(ref, reflen, "%s", q);
        n = strlen(ref);
        while (n && isspace((unsigned char)ref[n - 1]))
            ref[--n] = '\0';
    }
    return PS_OK;
}

int ps_calendar_parse(const char *name, ps_calendar *cal)
{
    static const struct {
        const char *name;
        ps_calendar cal;
    } tab[] = {
        {"standard", PS_CAL_STANDARD}, {"gregorian", PS_CAL_STANDARD},
        {"proleptic_gregorian", PS_CAL_PROLEPTIC}, {"julian", PS_CAL_JULIAN},
        {"noleap", PS_CAL_NOLEAP}, {"365_day", PS_CAL_NOLEAP},
        {"all_leap", PS_CAL_ALL_LEAP}, {"366_day", PS_CAL_ALL_LEAP},
        {"360_day", PS_CAL_360_DAY},
    };
    size_t i;
    if (!name || !*name) {
        *cal = PS_CAL_STANDARD;
        return PS_OK;
    }
    for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcasecmp(name, tab[i].name)) {
            *cal = tab[i].cal;
            return PS_OK;
        }
    return ps_error(PS_EINVAL, "unknown or unsupported calendar '%s' (standard, gregorian, "
                               "proleptic_gregorian, julian, noleap, 365_day, all_leap, "
                               "366_day, 360_day)", name);
}

static long floor_div(long a, long b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Day of the year counted from March 1 (0..365) of month m (1..12), day d. */
static long march_doy(long m, long d)
{
    return (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
}

/* Days from 1970-01-01 of a proleptic Gregorian date. */
static long gregorian_days(long y, long m, long d)
{
    long era, yoe, doe;
    y -= m <= 2;
    era = floor_div(y, 400);
    yoe = y - era * 400;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + march_doy(m, d);
    return era * 146097 + doe - 719468;
}

static void gregorian_date(long z, long *y, int *m, int *d)
{
    long era, doe, yoe, doy, mp;
    z += 719468;
    era = floor_div(z, 146097);
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* Julian calendar on the same day count: Julian 1582-10-05 is Gregorian 1582-10-15. */
static long julian_raw(long y, long m, long d)
{
    long era;
    y -= m <= 2;
    era = floor_div(y, 4);
    return era * 1461 + (y - era * 4) * 365 + march_doy(m, d);
}

static long julian_shift(void)
{
    return gregorian_days(1582, 10, 15) - julian_raw(1582, 10, 5);
}

static long julian_days(long y, long m, long d)
{
    return julian_raw(y, m, d) + julian_shift();
}

static void julian_date(long z, long *y, int *m, int *d)
{
    long era, doe, yoe, doy, mp;
    z -= julian_shift();
    era = floor_div(z, 1461);
    doe = z - era * 1461;
    yoe = (doe - doe / 1460) / 365;
    doy = doe - 365 * yoe;
    mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 4 + (*m <= 2);
}

static const int cum_noleap[13] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365};
static const int cum_leap[13] = {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366};
static const int month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

static int is_leap(ps_calendar cal, long y)
{
    switch (cal) {
    case PS_CAL_PROLEPTIC:
        return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    case PS_CAL_JULIAN:
        return y % 4 == 0;
    case PS_CAL_STANDARD:
        return y < 1582 ? y % 4 == 0 : (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    case PS_CAL_ALL_LEAP:
        return 1;
    default:
        return 0;
    }
}

/* Whether y-m-d exists in the calendar. */
static int valid_date(ps_calendar cal, long y, long m, long d)
{
    int len;
    if (m < 1 || m > 12 || d < 1)
        return 0;
    if (cal == PS_CAL_360_DAY)
        return d <= 30;
    len = month_days[m - 1] + (m == 2 && is_leap(cal, y));
    if (d > len)
        return 0;
    /* the ten days the Gregorian reform removed */
    if (cal == PS_CAL_STANDARD && y == 1582 && m == 10 && d > 4 && d < 15)
        return 0;
    return 1;
}

static long days_of(ps_calendar cal, long y, long m, long d)
{
    switch (cal) {
    case PS_CAL_PROLEPTIC:
        return gregorian_days(y, m, d);
    case PS_CAL_JULIAN:
        return julian_days(y, m, d);
    case PS_CAL_STANDARD:
        return (y > 1582 || (y == 1582 && (m > 10 || (m == 10 && d >= 15))))
                   ? gregorian_days(y, m, d) : julian_days(y, m, d);
    case PS_CAL_NOLEAP:
        return y * 365 + cum_noleap[m - 1] + d - 1;
    case PS_CAL_ALL_LEAP:
        return y * 366 + cum_leap[m - 1] + d - 1;
    case PS_CAL_360_DAY:
        return y * 360 + (m - 1) * 30 + d - 1;
    }
    return 0;
}

static void date_of(ps_calendar cal, long z, long *y, int *m, int *d)
{
    long len, r;
    const int *cum;
    switch (cal) {
    case PS_CAL_PROLEPTIC:
        gregorian_date(z, y, m, d);
        return;
    case PS_CAL_JULIAN:
        julian_date(z, y, m, d);
        return;
    case PS_CAL_STANDARD:
        if (z >= gregorian_days(1582, 10, 15))
            gregorian_date(z, y, m, d);
        else
            julian_date(z, y, m, d);
        return;
    case PS_CAL_360_DAY:
        *y = floor_div(z, 360);
        r = z - *y * 360;
        *m = (int)(r / 30 + 1);
        *d = (int)(r % 30 + 1);
        return;
    default:
        len = cal == PS_CAL_NOLEAP ? 365 : 366;
        cum = cal == PS_CAL_NOLEAP ? cum_noleap : cum_leap;
        *y = floor_div(z, len);
        r = z - *y * len;
        for (*m = 1; r >= cum[*m]; (*m)++)
            ;
        *d = (int)(r - cum[*m - 1] + 1);
        return;
    }
}

/* Reads up to `max` digits as a number; NULL if none. */
static const char *read_num(const char *p, int max, long *v)
{
    int n = 0;
    *v = 0;
    while (n < max && isdigit((unsigned char)*p)) {
        *v = *v * 10 + (*p++ - '0');
        n++;
    }
    return n ? p : NULL;
}

/* "Y-M-D[( |T)h[:m[:s[.f]]]][ ][Z|UTC|GMT|(+|-)hh[[:]mm]]": day number and seconds (UTC). */
static int parse_reference(const char *ref, ps_calendar cal, long *days, double *secs)
{
    const char *p = ref, *q;
    long y, mo, d, h = 0, mi = 0, s = 0, tzh = 0, tzm = 0;
    double frac = 0;
    int neg = 0, tzsign = 0;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    if (!(p = read_num(p, 6, &y)) || *p++ != '-' || !(p = read_num(p, 2, &mo)) || *p++ != '-' ||
        !(p = read_num(p, 2, &d)))
        goto bad;
    if (neg)
        y = -y;
    if (*p == 'T' || (*p == ' ' && isdigit((unsigned char)p[strspn(p, " ")]))) {
        p += *p == 'T' ? 1 : strspn(p, " ");
        if (!(p = read_num(p, 2, &h)))
            goto bad;
        if (*p == ':') {
            if (!(p = read_num(p + 1, 2, &mi)))
                goto bad;
            if (*p == ':') {
                if (!(p = read_num(p + 1, 2, &s)))
                    goto bad;
                if (*p == '.') {
                    double scale = 0.1;
                    for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
                        frac += (*p - '0') * scale;
                }
            }
        }
    }
    p += strspn(p, " ");
    if (*p == 'Z')
        p++;
    else if (!strncasecmp(p, "UTC", 3) || !strncasecmp(p, "GMT", 3))
        p += 3;
    else if (*p == '+' || *p == '-') {
        tzsign = *p == '-' ? -1 : 1;
        if (!(q = read_num(p + 1, 2, &tzh)))
            goto bad;
        p = q;
        if (*p == ':')
            p++;
        if (isdigit((unsigned char)*p) && !(p = read_num(p, 2, &tzm)))
            goto bad;
    }
    p += strspn(p, " ");
    if (*p)
        goto bad;
    if (!valid_date(cal, y, mo, d))
        return ps_error(PS_EINVAL, "time reference '%s': no such date in this calendar", ref);
    if (h > 23 || mi > 59 || s > 60 || tzh > 23 || tzm > 59)
        goto bad;
    *days = days_of(cal, y, mo, d);
    *secs = (double)(h * 3600 + mi * 60 + s) + frac - tzsign * (double)(tzh * 3600 + tzm * 60);
    return PS_OK;
bad:
    return ps_error(PS_EINVAL, "time reference '%s' is not a date 'Y-M-D [h:m:s] [zone]'", ref);
}

int ps_time_decode(double value, const char *units, ps_calendar cal, ps_date *date)
{
    char ref[128];
    double unit, off, secs = 0, whole;
    long days = 0;
    int rc;
    if ((rc = ps_time_units_parse(units, &unit, ref, sizeof ref)))
        return rc;
    if ((rc = parse_reference(ref, cal, &days, &secs)))
        return rc;
    off = value * unit;
    if (!isfinite(off) || fabs(off) > 1e17)
        return ps_error(PS_EINVAL, "time value %g %s is out of range", value, units);
    /* to the nearest millisecond, so 23:59:59.9999... reads as the next day */
    secs = round((secs + off) * 1000.0) / 1000.0;
    whole = floor(secs / 86400.0);
    secs -= whole * 86400.0;
    days += (long)whole;
    date_of(cal, days, &date->year, &date->month, &date->day);
    date->hour = (int)(secs / 3600);
    secs -= date->hour * 3600.0;
    date->minute = (int)(secs / 60);
    date->second = secs - date->minute * 60.0;
    return PS_OK;
}

void ps_date_format(const ps_date *date, char *buf, size_t n)
{
    int s = (int)floor(date->second);
    int len = snprintf(buf, n, "%04ld-%02d-%02d", date->year, date->month, date->day);
    if ((date->hour || date->minute || s) && len >= 0 && (size_t)len < n) {
        len += snprintf(buf + len, n - (size_t)len, " %02d:%02d", date->hour, date->minute);
        if (s && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, ":%02d", s);
    }
}
