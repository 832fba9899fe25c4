/*
 * The calendar-aware time decoder (io/ps_time.c) behind the slider dates of
 * `plot animate`: hand-derived dates in every CF calendar, dates that do not
 * exist refused. With --decode it reads "CALENDAR|UNITS|VALUE" lines on stdin
 * and prints one "YYYY-MM-DD hh:mm:ss" line each (or "error"), for
 * tests/plot/time_cftime.sh, which compares them with cftime.
 */
#include "config.h"
#include "ps_status.h"
#include "../ps_test.h"
#include "ps_time.h"

static void expect_date(const char *cal, const char *units, double v, const char *want)
{
    ps_calendar c;
    ps_date d;
    char got[64];
    int rc = ps_calendar_parse(cal, &c);
    if (!rc)
        rc = ps_time_decode(v, units, c, &d);
    if (rc) {
        CHECK(0, "%s, %g %s: error %s (%s)", cal, v, units, ps_strerror(rc), ps_error_detail());
        return;
    }
    ps_date_format(&d, got, sizeof got);
    CHECK(!strcmp(got, want), "%s, %g %s: got %s, want %s", cal, v, units, got, want);
}

static void expect_bad(const char *cal, const char *units)
{
    ps_calendar c;
    ps_date d;
    int rc = ps_calendar_parse(cal, &c);
    if (!rc)
        rc = ps_time_decode(0, units, c, &d);
    CHECK(rc == PS_EINVAL, "%s, '%s' accepted", cal, units);
}

static int decode_lines(void)
{
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        char *cal = strtok(line, "|"), *units = strtok(NULL, "|"), *val = strtok(NULL, "|\n");
        ps_calendar c;
        ps_date d;
        if (!cal || !units || !val || ps_calendar_parse(cal, &c) ||
            ps_time_decode(strtod(val, NULL), units, c, &d))
            printf("error\n");
        else
            printf("%04ld-%02d-%02d %02d:%02d:%02d\n", d.year, d.month, d.day, d.hour, d.minute,
                   (int)d.second);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--decode"))
        return decode_lines();
    /* the standard calendar: Gregorian from 1582-10-15, Julian before */
    expect_date("standard", "hours since 1950-01-01", 613200, "2019-12-15");
    expect_date("", "days since 2000-02-28", 2, "2000-03-01");
    expect_date("gregorian", "days since 1582-10-04", 1, "1582-10-15");
    expect_date("standard", "days since 1582-10-15", -1, "1582-10-04");
    expect_date("standard", "days since 1500-02-28", 1, "1500-02-29");
    expect_date("standard", "days since 2000-01-01", -1, "1999-12-31");
    expect_date("standard", "seconds since 1970-01-01T00:00:00Z", 86400 * 365.0 + 3661, "1971-01-01 01:01:01");
    expect_date("standard", "hours since 2000-01-01 06:00 +06:00", 0, "2000-01-01");
    expect_date("standard", "minutes since 2000-01-01 00:00:00 UTC", 90, "2000-01-01 01:30");
    /* proleptic Gregorian: Gregorian rules before 1582 too */
    expect_date("proleptic_gregorian", "days since 1582-10-15", -1, "1582-10-14");
    expect_date("proleptic_gregorian", "days since 2100-02-28", 1, "2100-03-01");
    expect_date("proleptic_gregorian", "days since 1500-02-28", 1, "1500-03-01");
    /* Julian: every fourth year is a leap year, no reform */
    expect_date("julian", "days since 2100-02-28", 1, "2100-02-29");
    expect_date("julian", "days since 1582-10-04", 1, "1582-10-05");
    expect_date("julian", "days since 2000-01-01", 366 + 364, "2001-12-31");
    /* fixed-length years */
    expect_date("noleap", "days since 2000-01-01", 59, "2000-03-01");
    expect_date("365_day", "days since 2001-01-01", 365 * 100.0, "2101-01-01");
    expect_date("all_leap", "days since 2001-01-01", 59, "2001-02-29");
    expect_date("366_day", "days since 2001-01-01", 366, "2002-01-01");
    expect_date("360_day", "days since 2000-01-01", 30, "2000-02-01");
    expect_date("360_day", "days since 2000-01-01 00:00:00", 29.5, "2000-01-30 12:00");
    expect_date("360_day", "days since 2000-01-01", 360, "2001-01-01");
    expect_date("360_day", "days since 2000-01-01", -1, "1999-12-30");
    expect_date("360_day", "days since 2000-02-30", 0, "2000-02-30");
    /* dates that do not exist in the calendar, and bad units */
    expect_bad("noleap", "days since 2000-02-29");
    expect_bad("standard", "days since 1582-10-10");
    expect_bad("360_day", "days since 2000-01-31");
    expect_bad("proleptic_gregorian", "days since 2001-02-29");
    expect_bad("standard", "days since yesterday");
    expect_bad("standard", "blinks since 2000-01-01");
    expect_bad("standard", "meters since 2000-01-01");
    /* UDUNITS-2's units of time: a fortnight is 14 days, "hrs" the plural of hr */
    expect_date("standard", "fortnights since 2000-01-01", 2, "2000-01-29");
    expect_date("standard", "hrs since 2000-01-01", 48, "2000-01-03");
    expect_bad("standard", "days since 2000-01-01 25:00");
    expect_bad("none", "days since 2000-01-01");
    expect_bad("lunar", "days since 2000-01-01");
    return ps_test_finish("test_plot_time");
}
