/**
 * @file ps_time.h
 * @brief CF time units ("<unit> since <date>") and calendars: the length of
 *        the unit, for placing model steps on an input's time axis, and the
 *        date of a time value in any CF calendar, for labels (internal to
 *        libpstencil-io; used by the pictures and the command line).
 */
#ifndef PS_TIME_H
#define PS_TIME_H

#include <stddef.h>

/**
 * Parse CF time units such as "days since 2000-01-01", "hours since
 * 1950-01-01 00:00:00" or "s since 1970-1-1T00:00:00Z".
 *
 * @p unit_seconds gets the length of the unit in seconds: s/sec/second(s),
 * min/minute(s), h/hr/hour(s), d/day(s), week(s), and the UDUNITS lengths of
 * month(s) (year/12) and year(s) (365.242198781 days), as CF 4.4 specifies.
 * Seconds, minutes, hours, days and weeks have the same length in every CF
 * calendar (standard, gregorian, proleptic_gregorian, julian, noleap/365_day,
 * all_leap/366_day, 360_day), so adding a duration to a time value in such
 * units needs no calendar: the calendar only decodes values into dates, which
 * readers (CDO, xarray) do with the calendar attribute copied from the input.
 *
 * @p ref (may be NULL) gets the text after "since", trimmed.
 * @return 0, or PS_EINVAL if @p units is not "<unit> since <reference>".
 */
int ps_time_units_parse(const char *units, double *unit_seconds, char *ref, size_t reflen);

/** The CF calendars (CF 1.8 section 4.4.1). */
typedef enum ps_calendar {
    PS_CAL_STANDARD,    /**< "standard", "gregorian" (or none): Julian before 1582-10-15 */
    PS_CAL_PROLEPTIC,   /**< "proleptic_gregorian": Gregorian rules for every year */
    PS_CAL_JULIAN,      /**< "julian": a leap year every 4 years */
    PS_CAL_NOLEAP,      /**< "noleap", "365_day": no leap years */
    PS_CAL_ALL_LEAP,    /**< "all_leap", "366_day": every year a leap year */
    PS_CAL_360_DAY      /**< "360_day": twelve 30-day months */
} ps_calendar;

/**
 * The calendar named by a CF calendar attribute (case-insensitive; NULL or
 * "" is the CF default, standard).
 * @return 0, or PS_EINVAL for an unknown or unsupported name ("none").
 */
int ps_calendar_parse(const char *name, ps_calendar *cal);

/** A date and time of day. Years are astronomical (year 0 is 1 BC). */
typedef struct ps_date {
    long year;     /**< e.g. 2024 */
    int month;     /**< 1..12 */
    int day;       /**< 1..31 (1..30 in 360_day) */
    int hour;      /**< 0..23 */
    int minute;    /**< 0..59 */
    double second; /**< 0 <= second < 60 */
} ps_date;

/**
 * The date of time value @p value in CF time @p units ("<unit> since
 * <reference date>", the reference read in @p cal, optionally with a time of
 * day, fractional seconds and a time zone: "Z", "UTC" or +hh[:mm]).
 * @return 0; PS_EINVAL for bad units, a reference date that does not exist
 * in the calendar (1582-10-10 in standard, 2001-02-29 in noleap) or a value
 * too large to place (|value * unit| > 1e17 s).
 */
int ps_time_decode(double value, const char *units, ps_calendar cal, ps_date *date);

/**
 * "YYYY-MM-DD", followed by " hh:mm" when the time of day is not midnight
 * and ":ss" when the seconds are not 0 (whole seconds, rounded).
 */
void ps_date_format(const ps_date *date, char *buf, size_t n);

#endif
