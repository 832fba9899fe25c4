/*
 * Units through UDUNITS-2 (ps_units.h): what a unit measures, the linear map
 * to the base unit of that kind, and the spelling an output gets. The
 * database is read once (pthread_once); UDUNITS-2's parser keeps global
 * state, so each parse holds one lock. Its own messages are silenced, the
 * callers say what is wrong.
 */
#include "config.h"
#include "ps_units.h"
#include "ps_status.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <udunits2.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ut_system *sys;
static ut_unit *base[5]; /* by kind: degC, m, s, 1 */

static void load(void)
{
    ut_set_error_message_handler(ut_ignore);
    sys = ut_read_xml(NULL);
    if (!sys)
        return;
    base[PS_UNIT_TEMPERATURE] = ut_parse(sys, "degC", UT_ASCII);
    base[PS_UNIT_LENGTH] = ut_parse(sys, "m", UT_ASCII);
    base[PS_UNIT_TIME] = ut_parse(sys, "s", UT_ASCII);
    base[PS_UNIT_DIMENSIONLESS] = ut_get_dimensionless_unit_one(sys);
}

/* Spellings of ocean files that UDUNITS-2 does not read, or reads as
 * another quantity; compared ignoring case and blanks. */
static const char *legacy(const char *key)
{
    static const struct {
        const char *key, *unit;
    } tab[] = {
        {"degc", "degC"},  {"deg.c", "degC"}, {"degreesc", "degC"}, {"degk", "K"},
        {"deg.k", "K"},    {"ppt", "1e-3"},   {"psu", "1e-3"},      {"pss-78", "1e-3"},
        {"permil", "1e-3"}, {"permille", "1e-3"}, {"partsperthousand", "1e-3"},
    };
    size_t i;
    for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(key, tab[i].key))
            return tab[i].unit;
    return NULL;
}

static ut_unit *parse(const char *s)
{
    return *s ? ut_parse(sys, s, UT_ASCII) : NULL;
}

static int unit_parse(const char *text, ps_unit *u, ut_unit **keep);

int ps_unit_parse(const char *text, ps_unit *u)
{
    int st;
    pthread_once(&once, load);
    pthread_mutex_lock(&lock);
    st = unit_parse(text, u, NULL);
    pthread_mutex_unlock(&lock);
    return st;
}

int ps_unit_factors(const char *from, const char *to, double *scale, double *offset)
{
    ps_unit uf, ut;
    ut_unit *a = NULL, *b = NULL;
    cv_converter *c = NULL;
    int st;
    pthread_once(&once, load);
    pthread_mutex_lock(&lock);
    st = unit_parse(from, &uf, &a);
    if (!st)
        st = unit_parse(to, &ut, &b);
    if (!st && !ut_are_convertible(a, b))
        st = ps_error(PS_EINVAL, "units '%s' cannot be converted to '%s'", uf.canonical,
                      ut.canonical);
    if (!st && !(c = ut_get_converter(a, b)))
        st = ps_error(PS_EINVAL, "UDUNITS-2 has no conversion from '%s' to '%s'", uf.canonical,
                      ut.canonical);
    if (!st) {
        *offset = cv_convert_double(c, 0.0);
        *scale = cv_convert_double(c, 1.0) - *offset;
        cv_free(c);
    }
    if (a)
        ut_free(a);
    if (b)
        ut_free(b);
    pthread_mutex_unlock(&lock);
    return st;
}

static int unit_parse(const char *text, ps_unit *u, ut_unit **keep)
{
    char t[64], key[64], alt[64];
    const char *alias;
    ut_unit *x = NULL;
    size_t n, i, k = 0;
    int upper = 0, lower = 0, kind;
    memset(u, 0, sizeof *u);
    u->scale = 1;
    if (!sys)
        return ps_error(PS_EIO, "cannot read the UDUNITS-2 database (UDUNITS2_XML_PATH or "
                        "the default udunits2.xml): install udunits-data or set "
                        "UDUNITS2_XML_PATH");
    if (!text)
        return ps_error(PS_EINVAL, "no units");
    while (isspace((unsigned char)*text))
        text++;
    snprintf(t, sizeof t, "%s", text);
    n = strlen(t);
    while (n && isspace((unsigned char)t[n - 1]))
        t[--n] = '\0';
    if (!n)
        return ps_error(PS_EINVAL, "no units");
    for (i = 0; i < n; i++) {
        upper += isupper((unsigned char)t[i]) != 0;
        lower += islower((unsigned char)t[i]) != 0;
        if (!isspace((unsigned char)t[i]) && t[i] != '_')
            key[k++] = (char)tolower((unsigned char)t[i]);
    }
    key[k] = '\0';
    /* a legacy spelling when UDUNITS-2 cannot read the text, or reads it as
     * another quantity (ppt: parts per trillion to UDUNITS-2, per mille in
     * ocean files) */
    x = parse(t);
    alias = legacy(key);
    if (alias && (!x || !strcmp(key, "ppt"))) {
        if (x)
            ut_free(x);
        x = parse(alias);
        snprintf(u->canonical, sizeof u->canonical, "%s", alias);
    } else {
        if (!x && n > 2 && (t[n - 1] == 's' || t[n - 1] == 'S')) {
            /* a plural UDUNITS-2 does not know: its singular */
            snprintf(alt, sizeof alt, "%.*s", (int)(n - 1), t);
            x = parse(alt);
        }
        if (x && upper > 1 && !lower) {
            /* Fortran-era capitals: UDUNITS-2's symbol when it is one word */
            char sym[64];
            if (ut_format(x, sym, sizeof sym, UT_ASCII) > 0 && !strchr(sym, ' '))
                snprintf(u->canonical, sizeof u->canonical, "%s", sym);
        }
        if (!u->canonical[0])
            snprintf(u->canonical, sizeof u->canonical, "%s", t);
    }
    if (!x)
        return ps_error(PS_EINVAL, "units '%s' are not known to UDUNITS-2", t);
    u->kind = PS_UNIT_OTHER;
    for (kind = PS_UNIT_TEMPERATURE; kind <= PS_UNIT_DIMENSIONLESS; kind++) {
        cv_converter *c;
        if (!base[kind] || !ut_are_convertible(x, base[kind]))
            continue;
        c = ut_get_converter(x, base[kind]);
        if (!c)
            continue;
        u->offset = cv_convert_double(c, 0.0);
        u->scale = cv_convert_double(c, 1.0) - u->offset;
        cv_free(c);
        u->kind = (ps_unit_kind)kind;
        break;
    }
    if (keep)
        *keep = x;
    else
        ut_free(x);
    return PS_OK;
}

ps_unit_kind ps_unit_kind_of(const char *text)
{
    ps_unit u;
    return ps_unit_parse(text, &u) ? PS_UNIT_UNKNOWN : u.kind;
}
