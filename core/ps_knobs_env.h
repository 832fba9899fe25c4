/**
 * @file ps_knobs_env.h
 * @brief The backends' side of the tuning knobs (ps_knobs.h): the table of
 *        every knob and the first steps of the precedence, the caller's value
 *        else the environment variable. Header-only: plugins link nothing
 *        from libpstencil.
 *
 * This header is the one place that reads a knob's environment variable
 * (tests/project/knobs_getenv.sh checks that no other product file does). A backend
 * fills each of its knobs in one function when it creates a context:
 *
 *     ps_knob_take(PS_KNOB_ID_openmp_tblock, &cfg->knobs, &c->knobs, why, len);
 *     ... ps_knob_cache(&c->knobs.openmp_tblock, tuned) where a tuning cache has it
 *     ... ps_knob_rule(&c->knobs.openmp_tblock, rule(...)) for the rest
 *
 * and answers ps_backend_ops::knobs with the result.
 */
#ifndef PS_KNOBS_ENV_H
#define PS_KNOBS_ENV_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps_knobs.h"
#include "ps_status.h"

/**
 * Every knob, grouped by backend (tests/backends/knobs_cli.sh checks that
 * each field of ps_knobs has one entry here):
 * X(field, backends, type, min, max, choices, env, env_field, meaning, rule).
 */
#define PS_KNOB_TABLE(X)                                                                   \
    X(openmp_isa, "openmp", PS_KNOB_CHOICE, 0, 2, "baseline|avx2|avx512",                    \
      "PSTENCIL_OPENMP_ISA", 0, "instruction set of the row kernels (capped at the CPU's)",  \
      "the best the CPU and the build have (avx512 with AVX-512F and VL)")                  \
    X(openmp_nt_out, "openmp", PS_KNOB_BOOL, 0, 1, NULL, "PSTENCIL_OPENMP_NTOUT", 0,         \
      "sweep's output rows streamed (the 512-bit rows)",                                    \
      "1 where a field is at least 128 MiB")                                                \
    X(openmp_tblock, "openmp", PS_KNOB_INT, 0, 16, NULL, "PSTENCIL_OPENMP_TBLOCK", 0,        \
      "steps fused per sweep (0 and 1: one step a sweep); tuned",                           \
      "4; on AMD CPUs 8, or 12 where tiles are at least 64 rows tall")                     \
    X(openmp_tj, "openmp", PS_KNOB_INT, 1, 1L << 30, NULL, "PSTENCIL_OPENMP_TJ", 0,          \
      "rows per tile of the fused sweep; tuned",                                            \
      "the tallest tile whose working set fits a thread's share of the cache, >= 8 rows")  \
    X(openmp_zero_land, "openmp", PS_KNOB_BOOL, 0, 1, NULL, "PSTENCIL_OPENMP_ZERO_LAND", 0,  \
      "the land-sum form: land as +0.0 with counts (land-sum stencils)", "1")                \
    X(opencl_kernel, "opencl", PS_KNOB_CHOICE, 0, 2, "ij|ijk|row", "PSTENCIL_OPENCL_KERNEL", \
      0, "kernel shape: work-item per column (ij), cell (ijk) or row",                      \
      "row on CPU devices, ij elsewhere")                                                   \
    X(opencl_zero_land, "opencl", PS_KNOB_BOOL, 0, 1, NULL, "PSTENCIL_OPENCL_ZERO_LAND", 0,  \
      "the generic kernels' land-sum form: land as +0.0 with counts (land-sum stencils, "   \
      "exact mode)", "1, except on CPU devices where the stencil has no vector rows")        \
    X(opencl_wave, "opencl", PS_KNOB_INT, 0, 16, NULL, "PSTENCIL_OPENCL_WAVE", 1,            \
      "steps fused per launch as a wavefront (the land-sum form; set: the generic kernels "  \
      "too); 0, 1: none",                                                                    \
      "CPU devices: 4 on Intel with an L2 >= 1 MiB, else 8; other devices 0")              \
    X(opencl_wave_tj, "opencl", PS_KNOB_INT, 1, 65536, NULL, "PSTENCIL_OPENCL_WAVE", 2,      \
      "output rows per work-item of the wavefront",                                         \
      "the rows split over the compute units, the scratch within the cache budget")        \
    X(opencl_divide, "opencl", PS_KNOB_CHOICE, 0, 1, "auto|double", "PSTENCIL_OPENCL_DIVIDE", \
      0, "exact float32 division: auto, or the quotient in double (devices with fp64)",     \
      "auto: correctly rounded division where the device has it, else in double")          \
    X(opencl_device, "opencl", PS_KNOB_TEXT, 0, 0, NULL, "PSTENCIL_OPENCL_DEVICE", 0,        \
      "the device as PLATFORM:DEVICE (e.g. 0:1), in place of --device",                     \
      "--device, else the first GPU, accelerator, then CPU")                                \
    X(opencl_build_options, "opencl", PS_KNOB_TEXT, 0, 0, NULL,                              \
      "PSTENCIL_OPENCL_BUILD_OPTIONS", 0,                                                   \
      "options appended to the program's build options (none that break exact mode)", "none") \
    X(gpu_kernel, "cuda hip", PS_KNOB_CHOICE, 0, 2, "auto|copy|d7lb",                        \
      "PSTENCIL_GPU_KERNEL", 0,                                                             \
      "the fast-path kernel variant (copy: a copy for bandwidth bounds, wrong results); "     \
      "one that does not fit falls back to auto", "auto")                                   \
    X(gpu_pdl, "cuda hip", PS_KNOB_BOOL, 0, 1, NULL, "PSTENCIL_GPU_PDL", 0,                  \
      "programmatic dependent launch (compute capability 9 and up)", "0")                   \
    X(gpu_graph_steps, "cuda hip", PS_KNOB_INT, 0, 1L << 20, NULL, "PSTENCIL_GPU_GRAPH_STEPS", \
      0, "steps per captured graph (0: no graphs; rounded up to whole launch pairs)", "32") \
    X(gpu_fuse, "cuda hip", PS_KNOB_CHOICE, 0, 2, "1|2|4", "PSTENCIL_GPU_FUSE", 0,           \
      "steps per launch of the generic kernels (2, 4: shared-memory tiles; ignored where "  \
      "no tile fits or when profiling)", "1")                                              \
    X(gpu_zero_land, "cuda hip", PS_KNOB_BOOL, 0, 1, NULL, "PSTENCIL_GPU_ZERO_LAND", 0,      \
      "the generic kernels' land-sum form (land as +0.0 with neighbour counts; land-sum "   \
      "stencils, exact mode, one step per launch)", "1")

/** A knob's index in PS_KNOB_TABLE: PS_KNOB_ID_<field>. */
enum ps_knob_id {
/** @cond internals */
#define PS_KNOB_X_ID(f, b, t, lo, hi, ch, env, ef, m, r) PS_KNOB_ID_##f,
    PS_KNOB_TABLE(PS_KNOB_X_ID)
#undef PS_KNOB_X_ID
    /** @endcond */
    PS_KNOB_COUNT /**< the number of knobs */
};

/** The description of knob @p id (enum ps_knob_id). */
static inline const ps_knob_info *ps_knob_info_of(int id)
{
    static const ps_knob_info table[] = {
/** @cond internals */
#define PS_KNOB_X_INFO(f, b, t, lo, hi, ch, env, ef, m, r)                                 \
    {#f, b, t, lo, hi, ch, env, ef, offsetof(ps_knobs, f), m, r},
        PS_KNOB_TABLE(PS_KNOB_X_INFO)
#undef PS_KNOB_X_INFO
        /** @endcond */
    };
    return id >= 0 && id < PS_KNOB_COUNT ? &table[id] : NULL;
}

/** The field of @p k that @p in describes (a ps_knob, or a ps_knob_text). */
static inline void *ps_knob_field(const ps_knobs *k, const ps_knob_info *in)
{
    return (char *)k + in->offset;
}

/**
 * Parse @p s as a value of knob @p in into @p v (numeric knobs; a choice's
 * index). @p label names the source in the message ("PSTENCIL_X" or the
 * knob's name). PS_OK, or PS_EINVAL with "LABEL='S': expected ..." in @p why.
 */
static inline int ps_knob_parse(const ps_knob_info *in, const char *s, long *v,
                                const char *label, char *why, size_t whylen)
{
    if (in->type == PS_KNOB_CHOICE) {
        const char *w = in->choices;
        size_t n = strlen(s);
        long i;
        for (i = 0; w && *w; i++) {
            const char *e = strchr(w, '|');
            size_t wl = e ? (size_t)(e - w) : strlen(w);
            if (wl == n && !strncmp(w, s, n)) {
                *v = i;
                return PS_OK;
            }
            w = e ? e + 1 : w + wl;
        }
        snprintf(why, whylen, "%s='%s': expected one of %s", label, s, in->choices);
        return PS_EINVAL;
    } else {
        char *end;
        long x = 0;
        if (*s == '\0' || *s == ' ' || *s == '\t' || *s == '+')
            end = (char *)"x";
        else
            x = strtol(s, &end, 10);
        if (*end || x < in->min || x > in->max) {
            if (in->type == PS_KNOB_BOOL)
                snprintf(why, whylen, "%s='%s': expected 0 or 1", label, s);
            else
                snprintf(why, whylen, "%s='%s': expected an integer %ld..%ld", label, s,
                         in->min, in->max);
            return PS_EINVAL;
        }
        *v = x;
        return PS_OK;
    }
}

/**
 * The text of knob @p in's environment variable (its env_field-th
 * comma-separated field when env_field >= 1) into @p buf: 1 when set and not
 * empty, 0 when not, -1 (message in @p why) when the variable has more
 * fields than the table gives it, or the text is too long.
 */
static inline int ps_knob_getenv(const ps_knob_info *in, char *buf, size_t len, char *why,
                                 size_t whylen)
{
    const char *s = getenv(in->env), *p;
    int field = 1, fields = 1, id;
    size_t n;
    if (!s || !*s)
        return 0;
    if (in->env_field == 0) {
        if (strlen(s) >= len) {
            snprintf(why, whylen, "%s is too long (%zu characters, at most %zu)", in->env,
                     strlen(s), len - 1);
            return -1;
        }
        snprintf(buf, len, "%s", s);
        return 1;
    }
    for (id = 0; id < PS_KNOB_COUNT; id++) /* the fields the variable has */
        if (!strcmp(ps_knob_info_of(id)->env, in->env) &&
            ps_knob_info_of(id)->env_field > fields)
            fields = ps_knob_info_of(id)->env_field;
    for (p = s; *p; p++)
        field += *p == ',';
    if (field > fields) {
        snprintf(why, whylen, "%s='%s': expected at most %d comma-separated fields", in->env, s,
                 fields);
        return -1;
    }
    for (p = s, field = 1; field < in->env_field; field++) {
        p = strchr(p, ',');
        if (!p)
            return 0; /* the variable stops before this field */
        p++;
    }
    n = strcspn(p, ",");
    if (n >= len)
        n = len - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    if (n == 0) {
        snprintf(why, whylen, "%s='%s': field %d is empty", in->env, s, in->env_field);
        return -1;
    }
    return 1;
}

/**
 * Knob @p id of @p out from the caller's @p asked (may be NULL): its value
 * when the caller set it (PS_KNOB_OPTION, range-checked), else its
 * environment variable (PS_KNOB_ENV) unless asked->skip has
 * PS_KNOBS_SKIP_ENV or the caller asked for the rule (PS_KNOB_RULE), else
 * left PS_KNOB_UNSET for the tuning cache and the rule (ps_knob_cache(),
 * ps_knob_rule()). PS_EINVAL with the reason in
 * @p why for a value out of range or a variable that does not parse.
 */
static inline int ps_knob_take(int id, const ps_knobs *asked, ps_knobs *out, char *why,
                               size_t whylen)
{
    const ps_knob_info *in = ps_knob_info_of(id);
    char buf[PS_KNOB_TEXT_MAX];
    int r;
    if (!in) {
        snprintf(why, whylen, "unknown knob %d", id);
        return PS_EINVAL;
    }
    if (in->type == PS_KNOB_TEXT) {
        ps_knob_text *o = (ps_knob_text *)ps_knob_field(out, in);
        const ps_knob_text *a = asked ? (const ps_knob_text *)ps_knob_field(asked, in) : NULL;
        if (a && a->source == PS_KNOB_OPTION) {
            if (a != o)
                *o = *a;
            o->value[PS_KNOB_TEXT_MAX - 1] = '\0';
            return PS_OK;
        }
        o->value[0] = '\0';
        o->source = PS_KNOB_UNSET;
        if (asked && ((asked->skip & PS_KNOBS_SKIP_ENV) || (a && a->source == PS_KNOB_RULE)))
            return PS_OK;
        r = ps_knob_getenv(in, o->value, sizeof o->value, why, whylen);
        if (r < 0)
            return PS_EINVAL;
        if (r > 0)
            o->source = PS_KNOB_ENV;
        return PS_OK;
    } else {
        ps_knob *o = (ps_knob *)ps_knob_field(out, in);
        const ps_knob *a = asked ? (const ps_knob *)ps_knob_field(asked, in) : NULL;
        if (a && a->source == PS_KNOB_OPTION) {
            if (a->value < in->min || a->value > in->max) {
                snprintf(why, whylen, "knob %s=%ld: expected %ld..%ld", in->name, a->value,
                         in->min, in->max);
                return PS_EINVAL;
            }
            *o = *a;
            return PS_OK;
        }
        o->value = 0;
        o->source = PS_KNOB_UNSET;
        if (asked && ((asked->skip & PS_KNOBS_SKIP_ENV) || (a && a->source == PS_KNOB_RULE)))
            return PS_OK;
        r = ps_knob_getenv(in, buf, sizeof buf, why, whylen);
        if (r < 0)
            return PS_EINVAL;
        if (r > 0) {
            if (ps_knob_parse(in, buf, &o->value, in->env, why, whylen))
                return PS_EINVAL;
            o->source = PS_KNOB_ENV;
        }
        return PS_OK;
    }
}

/**
 * A backend's knobs @p ids (@p n of them) into @p out, zeroed first, each
 * taken by ps_knob_take() from @p asked (NULL: none) in the one precedence;
 * the skip flags are the caller's.
 * @return PS_OK, or PS_EINVAL with @p why (@p whylen bytes) on the first bad value.
 */
static inline int ps_knobs_take(const int *ids, size_t n, const ps_knobs *asked, ps_knobs *out,
                                char *why, size_t whylen)
{
    size_t i;
    memset(out, 0, sizeof *out);
    if (asked)
        out->skip = asked->skip;
    for (i = 0; i < n; i++)
        if (ps_knob_take(ids[i], asked, out, why, whylen))
            return PS_EINVAL;
    return PS_OK;
}

/** Knob @p k from the tuning cache: @p v unless the caller set it. */
static inline void ps_knob_cache(ps_knob *k, long v)
{
    if (k->source < PS_KNOB_CACHE) {
        k->value = v;
        k->source = PS_KNOB_CACHE;
    }
}

/** Knob @p k from the built-in rule: @p v where nothing else decided it. */
static inline void ps_knob_rule(ps_knob *k, long v)
{
    if (k->source == PS_KNOB_UNSET) {
        k->value = v;
        k->source = PS_KNOB_RULE;
    }
}

/** Whether a caller or the environment decided @p k (so no cache, no rule). */
static inline int ps_knob_given(const ps_knob *k)
{
    return k->source == PS_KNOB_OPTION || k->source == PS_KNOB_ENV;
}

#endif /* PS_KNOBS_ENV_H */
