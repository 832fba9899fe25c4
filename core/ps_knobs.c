/*
 * The tuning knobs' table for callers (ps_knobs.h): the list, parsing
 * NAME=VALUE into a caller's knobs, and the text of decided knobs. The table
 * itself is PS_KNOB_TABLE (ps_knobs_env.h), shared with the backends.
 */
#include "config.h"
#include "ps_knobs.h"
#include "ps_knobs_env.h"
#include "ps_status.h"

#include <stdio.h>
#include <string.h>

int ps_knob_list(const ps_knob_info **knobs, int *count)
{
    *knobs = ps_knob_info_of(0);
    *count = PS_KNOB_COUNT;
    return PS_OK;
}

const ps_knob_info *ps_knob_find(const char *name)
{
    int i;
    for (i = 0; name && i < PS_KNOB_COUNT; i++)
        if (!strcmp(ps_knob_info_of(i)->name, name))
            return ps_knob_info_of(i);
    return NULL;
}

const char *ps_knob_source_name(int source)
{
    switch (source) {
    case PS_KNOB_RULE:
        return "rule";
    case PS_KNOB_ENV:
        return "environment";
    case PS_KNOB_CACHE:
        return "tune cache";
    case PS_KNOB_OPTION:
        return "option";
    default:
        return "unset";
    }
}

int ps_knobs_set(ps_knobs *k, const char *assignment)
{
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    const ps_knob_info *in;
    char name[64], why[512];
    int i;
    if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof name)
        return ps_error(PS_EINVAL, "knob '%s': expected NAME=VALUE (see `pstencil backends "
                        "--knobs`)", assignment ? assignment : "");
    memcpy(name, assignment, (size_t)(eq - assignment));
    name[eq - assignment] = '\0';
    in = ps_knob_find(name);
    if (!in) {
        char names[1024] = "";
        size_t used = 0;
        for (i = 0; i < PS_KNOB_COUNT && used < sizeof names; i++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                     ps_knob_info_of(i)->name);
        return ps_error(PS_EINVAL, "unknown knob '%s' (knobs: %s)", name, names);
    }
    if (in->type == PS_KNOB_TEXT) {
        ps_knob_text *t = (ps_knob_text *)ps_knob_field(k, in);
        if (strlen(eq + 1) >= sizeof t->value)
            return ps_error(PS_EINVAL, "knob %s: value too long (%zu characters, at most %d)",
                            name, strlen(eq + 1), PS_KNOB_TEXT_MAX - 1);
        snprintf(t->value, sizeof t->value, "%s", eq + 1);
        t->source = PS_KNOB_OPTION;
    } else {
        ps_knob *n = (ps_knob *)ps_knob_field(k, in);
        long v;
        if (ps_knob_parse(in, eq + 1, &v, name, why, sizeof why))
            return ps_error(PS_EINVAL, "knob %s", why);
        n->value = v;
        n->source = PS_KNOB_OPTION;
    }
    return PS_OK;
}

const char *ps_knob_format(const ps_knobs *k, const ps_knob_info *in, char *buf, size_t len)
{
    if (in->type == PS_KNOB_TEXT) {
        snprintf(buf, len, "%s", ((const ps_knob_text *)ps_knob_field(k, in))->value);
    } else if (in->type == PS_KNOB_CHOICE) {
        long v = ((const ps_knob *)ps_knob_field(k, in))->value, i;
        const char *w = in->choices;
        for (i = 0; i < v && w && strchr(w, '|'); i++)
            w = strchr(w, '|') + 1;
        if (i == v && w)
            snprintf(buf, len, "%.*s", (int)strcspn(w, "|"), w);
        else
            snprintf(buf, len, "%ld", v);
    } else {
        snprintf(buf, len, "%ld", ((const ps_knob *)ps_knob_field(k, in))->value);
    }
    return buf;
}

int ps_knobs_describe(const ps_knobs *k, char *buf, size_t len)
{
    size_t used = 0;
    int i, n = 0;
    if (len)
        buf[0] = '\0';
    for (i = 0; i < PS_KNOB_COUNT; i++) {
        const ps_knob_info *in = ps_knob_info_of(i);
        const int src = in->type == PS_KNOB_TEXT
                            ? ((const ps_knob_text *)ps_knob_field(k, in))->source
                            : ((const ps_knob *)ps_knob_field(k, in))->source;
        char v[PS_KNOB_TEXT_MAX];
        if (src == PS_KNOB_UNSET)
            continue;
        n++;
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s=%s (%s)\n", in->name,
                                     ps_knob_format(k, in, v, sizeof v),
                                     ps_knob_source_name(src));
    }
    return n;
}
