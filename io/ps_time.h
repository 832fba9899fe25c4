/**
 * @file ps_time.h
 * @brief CF time units ("<unit> since <date>"): the length of the unit, for
 *        placing model steps on an input's time axis (internal to libpstencil-io).
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

#endif
