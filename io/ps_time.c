/* CF time units: the length of "<unit>" in "<unit> since <reference>". */
#include "config.h"
#include "ps_time.h"
#include "ps_status.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int ps_time_units_parse(const char *units, double *unit_seconds, char *ref, size_t reflen)
{
    static const struct {
        const char *name;
        double seconds;
    } tab[] = {
        {"s", 1},          {"sec", 1},         {"secs", 1},       {"second", 1},
        {"seconds", 1},    {"min", 60},        {"mins", 60},      {"minute", 60},
        {"minutes", 60},   {"h", 3600},        {"hr", 3600},      {"hrs", 3600},
        {"hour", 3600},    {"hours", 3600},    {"d", 86400},      {"day", 86400},
        {"days", 86400},   {"week", 604800},   {"weeks", 604800},
        /* UDUNITS: year = 365.242198781 days, month = year / 12 */
        {"year", 31556925.9747}, {"years", 31556925.9747}, {"yr", 31556925.9747},
        {"month", 2629743.831225}, {"months", 2629743.831225},
    };
    char word[32];
    const char *p = units, *q;
    size_t n, i;
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
    for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcasecmp(word, tab[i].name))
            break;
    if (i == sizeof tab / sizeof tab[0])
        return ps_error(PS_EINVAL, "time units '%s': unknown unit '%s'", units, word);
    *unit_seconds = tab[i].seconds;
    if (ref && reflen) {
        snprintf(ref, reflen, "%s", q);
        n = strlen(ref);
        while (n && isspace((unsigned char)ref[n - 1]))
            ref[--n] = '\0';
    }
    return PS_OK;
}
