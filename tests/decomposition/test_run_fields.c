/*
 * Several independent fields through one run (ps_run_fields()): for 2 and 3
 * fields of different contents and land, every stencil here, float32 and
 * float64, every backend that runs here (the GPU plugin's mock too), one box, boxes stepped at once and
 * one after another, out-of-core slabs and in place, each field ends bitwise
 * as ps_run_split() leaves it alone and every snapshot sees all fields at the
 * same step; a stop mid-run keeps the same snapshots; the refusals (fields
 * that differ, too many, a budget the fields do not fit).
 */
#include "config.h"
#include "pstencil.h"
#include "ps_ooc.h"
#include "../ps_test.h"

#define MAX_SNAPS 8

/* What the snapshots of a run saw: per snapshot its step and each field's checksum. */
typedef struct seen {
    long step[MAX_SNAPS];
    uint64_t sum[MAX_SNAPS][PS_RUN_MAX_FIELDS];
    int n, nfields, calls, bad;
    int cancel_after; /* > 0: the cancel callback asks to stop once this many snapshots came */
    long stop_at;     /* > 0: ... once the progress reported this many steps */
    long progressed;  /* steps the progress reported */
} seen;

static int on_fields(void *user, long step, ps_field *const *fields, int n)
{
    seen *s = user;
    int f;
    s->calls++;
    if (n != s->nfields)
        s->bad = 1;
    if (s->n < MAX_SNAPS) {
        s->step[s->n] = step;
        for (f = 0; f < n && f < PS_RUN_MAX_FIELDS; f++)
            s->sum[s->n][f] = ps_field_checksum(fields[f]);
        s->n++;
    }
    return 0;
}

static int on_one(void *user, long step, const ps_field *field)
{
    ps_field *one = (ps_field *)field;
    return on_fields(user, step, &one, 1);
}

static int on_cancel(void *user)
{
    seen *s = user;
    return (s->cancel_after > 0 && s->n >= s->cancel_after) ||
           (s->stop_at > 0 && s->progressed >= s->stop_at);
}

static void on_progress(void *user, long done, long total, double elapsed_s)
{
    seen *s = user;
    (void)total, (void)elapsed_s;
    s->progressed = done;
}

/* The test fields: the ocean, a shifted and scaled copy (same land), another
 * ocean with other land. */
static int make_fields(ps_field *fs, int n, ps_grid g, ps_precision p)
{
    size_t c, cells = (size_t)g.nz * g.ny * g.nx;
    int f;
    for (f = 0; f < n; f++)
        if (ps_field_alloc(&fs[f], g, p))
            return PS_ENOMEM;
    ps_test_fill(&fs[0], 3, 0.3);
    for (c = 0; c < cells; c++) {
        if (p == PS_FLOAT32)
            ((float *)fs[1].data)[c] = ((float *)fs[0].data)[c] * 0.5f + 3.0f;
        else
            ((double *)fs[1].data)[c] = ((double *)fs[0].data)[c] * 0.75 - 1.0;
    }
    if (n > 2)
        ps_test_fill(&fs[2], 17, 0.15);
    return PS_OK;
}

static void free_fields(ps_field *fs, int n)
{
    int f;
    for (f = 0; f < n; f++)
        ps_field_free(&fs[f]);
}

static void copy_fields(ps_field *dst, const ps_field *src, int n)
{
    int f;
    for (f = 0; f < n; f++)
        memcpy(dst[f].data, src[f].data,
               ps_field_cells(&src[f]) * ps_precision_size(src[f].precision));
}

enum { C_ONE, C_SPLIT, C_SERIAL, C_OOC, C_INPLACE, C_NCASES };
static const char *const case_names[C_NCASES] = {"one box", "2x2x1 at once", "2x2x1 serial",
                                                  "out of core", "in place"};

/* @p n fields through ps_run_fields() against each through ps_run_split(). */
static void check_case(ps_backend *b, const char *bname, const ps_config *cfg,
                       const ps_field *in, int n, int cs)
{
    ps_field got[PS_RUN_MAX_FIELDS], alone[PS_RUN_MAX_FIELDS], *ptr[PS_RUN_MAX_FIELDS];
    ps_run_options ro;
    ps_split_options so, so1;
    ps_run_stats sm, s1;
    seen multi, one;
    double exch = 0, ooc_bytes = 0;
    long passes = 0;
    uint64_t held = 0;
    int f, k, st, slabs1 = 0;
    const char *sn = cfg->stencil->name, *pn = ps_precision_name(cfg->precision);
    for (f = 0; f < n; f++) {
        if (ps_field_alloc(&got[f], in[0].grid, cfg->precision) ||
            ps_field_alloc(&alone[f], in[0].grid, cfg->precision)) {
            FAILF("out of memory");
            return;
        }
        ptr[f] = &got[f];
    }
    copy_fields(got, in, n);
    copy_fields(alone, in, n);
    memset(&so, 0, sizeof so);
    if (cs == C_SPLIT || cs == C_SERIAL) {
        so.split[0] = 2;
        so.split[1] = 2;
        so.serial = cs == C_SERIAL;
    }
    if (cs == C_OOC) /* each field's share: 0.6 of the grid, two slabs or more */
        so.max_device_bytes =
            (uint64_t)n * (ps_ooc_footprint(in[0].grid, cfg->precision) * 6 / 10);
    so1 = so;
    so1.max_device_bytes = so.max_device_bytes / (uint64_t)n;
    memset(&ro, 0, sizeof ro);
    ro.steps = 7;
    ro.every = 3;
    ro.in_place = cs == C_INPLACE;
    ro.snapshot_fields = on_fields;
    memset(&multi, 0, sizeof multi);
    multi.nfields = n;
    ro.user = &multi;
    st = ps_run_fields(b, cfg, ptr, n, &ro, &so, &sm);
    CHECK(!st, "%s %s %s %d fields %s: ps_run_fields: %s", bname, sn, pn, n, case_names[cs],
          ps_error_detail());
    if (st)
        goto out;
    CHECK(multi.n == 4 && multi.calls == 4 && !multi.bad && multi.step[0] == 0 &&
              multi.step[1] == 3 && multi.step[2] == 6 && multi.step[3] == 7 && sm.steps == 7,
          "%s %s %s %d fields %s: %d snapshots (steps 0, 3, 6, 7 of %d fields expected), "
          "%ld steps", bname, sn, pn, n, case_names[cs], multi.calls, n, sm.steps);
    ro.snapshot_fields = NULL;
    ro.snapshot = on_one;
    for (f = 0; f < n; f++) {
        memset(&one, 0, sizeof one);
        one.nfields = 1;
        ro.user = &one;
        st = ps_run_split(b, cfg, &alone[f], &ro, &so1, &s1);
        CHECK(!st, "%s %s %s field %d alone %s: %s", bname, sn, pn, f, case_names[cs],
              ps_error_detail());
        if (st)
            goto out;
        CHECK(ps_test_same(&got[f], &alone[f]), "%s %s %s %d fields %s: field %d differs from "
              "its own run", bname, sn, pn, n, case_names[cs], f);
        for (k = 0; k < one.n && k < multi.n; k++)
            CHECK(one.sum[k][0] == multi.sum[k][f] && one.step[k] == multi.step[k],
                  "%s %s %s %d fields %s: snapshot %d of field %d differs from its own run",
                  bname, sn, pn, n, case_names[cs], k, f);
        exch += s1.exchange_bytes;
        held += s1.device_bytes_held;
        passes += s1.ooc_passes;
        ooc_bytes += s1.ooc_bytes;
        slabs1 = s1.ooc_slabs;
        CHECK(s1.boxes == sm.boxes && s1.workers == sm.workers && s1.in_place == sm.in_place,
              "%s %s %s %d fields %s: %d boxes, %d workers, in place %d (alone: %d, %d, %d)",
              bname, sn, pn, n, case_names[cs], sm.boxes, sm.workers, sm.in_place, s1.boxes,
              s1.workers, s1.in_place);
        free(s1.step_times);
    }
    CHECK(sm.exchange_bytes == exch && sm.device_bytes_held == held &&
              sm.ooc_passes == passes && sm.ooc_bytes == ooc_bytes && sm.ooc_slabs == slabs1,
          "%s %s %s %d fields %s: stats not the fields' sums: %g exchanged (%g), %llu held "
          "(%llu), %ld passes (%ld), %g bytes (%g), %d slabs (%d)", bname, sn, pn, n,
          case_names[cs], sm.exchange_bytes, exch, (unsigned long long)sm.device_bytes_held,
          (unsigned long long)held, sm.ooc_passes, passes, sm.ooc_bytes, ooc_bytes,
          sm.ooc_slabs, slabs1);
    if (cs == C_OOC)
        CHECK(sm.ooc_slabs > 1, "%s %s %s %d fields: out of core in %d slabs", bname, sn, pn,
              n, sm.ooc_slabs);
    if (cs == C_SPLIT || cs == C_SERIAL)
        CHECK(sm.boxes == 4 && sm.exchange_bytes > 0, "%s %s %d fields %s: %d boxes", bname,
              sn, n, case_names[cs], sm.boxes);
    free(sm.step_times);
out:
    free_fields(got, n);
    free_fields(alone, n);
}

/* A stop asked for once the snapshot of step 3 came: every field's snapshots of
 * steps 0 and 3, no more, as for one field alone. */
static void check_cancel(ps_backend *b, const char *bname, const ps_config *cfg,
                         const ps_field *in, int n)
{
    ps_field got[PS_RUN_MAX_FIELDS], *ptr[PS_RUN_MAX_FIELDS];
    ps_run_options ro;
    seen s;
    int f, st;
    for (f = 0; f < n; f++) {
        if (ps_field_alloc(&got[f], in[0].grid, cfg->precision))
            return;
        ptr[f] = &got[f];
    }
    copy_fields(got, in, n);
    memset(&ro, 0, sizeof ro);
    memset(&s, 0, sizeof s);
    s.nfields = n;
    s.cancel_after = 2;
    ro.steps = 9;
    ro.every = 3;
    ro.snapshot_fields = on_fields;
    ro.cancel = on_cancel;
    ro.user = &s;
    st = ps_run_fields(b, cfg, ptr, n, &ro, NULL, NULL);
    CHECK(st == PS_ECANCELED && s.calls == 2 && s.step[1] == 3 && !s.bad,
          "%s %d fields: a stop after the snapshot of step 3: status %d, %d snapshots (2 "
          "expected)", bname, n, st, s.calls);
    /* with progress: calls of one step, the stop asked for during the steps
     * up to 6, so the snapshot of step 6 is not taken */
    copy_fields(got, in, n);
    memset(&s, 0, sizeof s);
    s.nfields = n;
    s.stop_at = 6;
    ro.progress = on_progress;
    st = ps_run_fields(b, cfg, ptr, n, &ro, NULL, NULL);
    CHECK(st == PS_ECANCELED && s.calls == 2 && s.progressed == 6,
          "%s %d fields: a stop during the steps to 6: status %d, %d "
          "snapshots", bname, n, st, s.calls);
    free_fields(got, n);
}

static int detail_has(const char *what)
{
    return strstr(ps_error_detail(), what) != NULL;
}

/* Fields that differ, too many or none, snapshot without snapshot_fields, a field
 * twice, a budget the fields together do not fit. */
static void check_refusals(void)
{
    const ps_grid g = {9, 12, 16}, g2 = {9, 12, 15};
    ps_backend *b = NULL;
    ps_config cfg;
    ps_field fs[3], odd, dbl, *ptr[PS_RUN_MAX_FIELDS + 1];
    ps_run_options ro;
    ps_split_options so;
    seen s;
    uint64_t box, minb;
    ps_ooc_plan plan;
    int f, st;
    if (ps_backend_open("reference", &b) || make_fields(fs, 3, g, PS_FLOAT32) ||
        ps_field_alloc(&odd, g2, PS_FLOAT32) || ps_field_alloc(&dbl, g, PS_FLOAT64)) {
        FAILF("set-up: %s", ps_error_detail());
        return;
    }
    ps_test_fill(&odd, 5, 0.2);
    ps_test_fill(&dbl, 5, 0.2);
    ps_config_init(&cfg, g, PS_FLOAT32);
    memset(&ro, 0, sizeof ro);
    memset(&s, 0, sizeof s);
    ro.steps = 2;
    ro.user = &s;
    for (f = 0; f < PS_RUN_MAX_FIELDS + 1; f++)
        ptr[f] = &fs[f % 3];
    ptr[1] = &odd;
    st = ps_run_fields(b, &cfg, ptr, 2, &ro, NULL, NULL);
    CHECK(st == PS_EINVAL && detail_has("field 1") && detail_has("grid"),
          "a field of another grid: status %d (%s)", st, ps_error_detail());
    ptr[1] = &fs[1];
    ptr[2] = &dbl;
    st = ps_run_fields(b, &cfg, ptr, 3, &ro, NULL, NULL);
    CHECK(st == PS_EINVAL && detail_has("field 2") && detail_has("precision"),
          "a field of another precision: status %d (%s)", st, ps_error_detail());
    ptr[2] = &fs[2];
    st = ps_run_fields(b, &cfg, ptr, PS_RUN_MAX_FIELDS + 1, &ro, NULL, NULL);
    CHECK(st == PS_EINVAL, "%d fields: status %d", PS_RUN_MAX_FIELDS + 1, st);
    st = ps_run_fields(b, &cfg, ptr, 0, &ro, NULL, NULL);
    CHECK(st == PS_EINVAL, "0 fields: status %d", st);
    ptr[2] = &fs[0];
    st = ps_run_fields(b, &cfg, ptr, 3, &ro, NULL, NULL);
    CHECK(st == PS_EINVAL && detail_has("field 2"), "a field twice: status %d (%s)", st,
          ps_error_detail());
    ptr[2] = &fs[2];
    ro.snapshot = on_one;
    st = ps_run_fields(b, &cfg, ptr, 2, &ro, NULL, NULL);
    CHECK(st == PS_EINVAL && s.calls == 0 && detail_has("snapshot_fields"),
          "2 fields with a one-field snapshot: status %d, %d calls (%s)", st, s.calls,
          ps_error_detail());
    /* one field: either callback */
    s.nfields = 1;
    st = ps_run_fields(b, &cfg, ptr, 1, &ro, NULL, NULL);
    CHECK(!st && s.calls == 2, "1 field, snapshot: status %d, %d calls", st, s.calls);
    ro.snapshot = NULL;
    ro.snapshot_fields = on_fields;
    st = ps_run_fields(b, &cfg, ptr, 1, &ro, NULL, NULL);
    CHECK(!st && s.calls == 4 && !s.bad, "1 field, snapshot_fields: status %d, %d calls", st,
          s.calls);
    ro.snapshot_fields = NULL;
    /* a box over the budget with 2 fields, in it with 1 */
    memset(&so, 0, sizeof so);
    so.split[0] = 2;
    box = ps_ooc_footprint((ps_grid){9 / 2 + 1 + 2, 12, 16}, PS_FLOAT32);
    so.max_device_bytes = box + box / 2;
    st = ps_run_fields(b, &cfg, ptr, 2, &ro, &so, NULL);
    CHECK(st == PS_ENOMEM && detail_has("2 fields"), "2 fields, a box over the budget: "
          "status %d (%s)", st, ps_error_detail());
    st = ps_run_fields(b, &cfg, ptr, 1, &ro, &so, NULL);
    CHECK(!st, "1 field, a box in the budget: %s", ps_error_detail());
    so.max_device_bytes = 2 * box;
    st = ps_run_fields(b, &cfg, ptr, 2, &ro, &so, NULL);
    CHECK(!st, "2 fields, boxes in the budget: %s", ps_error_detail());
    /* out of core: the smallest budget for one field times the fields */
    memset(&so, 0, sizeof so);
    ps_ooc_plan_auto(g, PS_FLOAT32, 1, 0, 2, 1, &plan);
    ps_error_clear();
    minb = plan.min_budget;
    so.max_device_bytes = 3 * minb - 1;
    st = ps_run_fields(b, &cfg, ptr, 3, &ro, &so, NULL);
    CHECK(st == PS_ENOMEM && detail_has("3 fields"), "3 fields under 3 times the smallest "
          "budget: status %d (%s)", st, ps_error_detail());
    so.max_device_bytes = 3 * minb;
    st = ps_run_fields(b, &cfg, ptr, 3, &ro, &so, NULL);
    CHECK(!st, "3 fields at 3 times the smallest budget: %s", ps_error_detail());
    free_fields(fs, 3);
    ps_field_free(&odd);
    ps_field_free(&dbl);
    ps_backend_close(b);
}

/* Per-step times with several fields: one per step. */
static void check_profile(void)
{
    const ps_grid g = {6, 8, 10};
    ps_backend *b = NULL;
    ps_config cfg;
    ps_field fs[2], *ptr[2] = {&fs[0], &fs[1]};
    ps_run_options ro;
    ps_run_stats s;
    long k;
    int ok = 1;
    if (ps_backend_open("reference", &b) || make_fields(fs, 2, g, PS_FLOAT64)) {
        FAILF("set-up: %s", ps_error_detail());
        return;
    }
    ps_config_init(&cfg, g, PS_FLOAT64);
    cfg.profile = 1;
    memset(&ro, 0, sizeof ro);
    ro.steps = 5;
    CHECK(!ps_run_fields(b, &cfg, ptr, 2, &ro, NULL, &s) && s.step_times && s.steps == 5,
          "profile: %s", ps_error_detail());
    for (k = 0; s.step_times && k < 5; k++)
        ok = ok && s.step_times[k] >= 0;
    CHECK(ok, "profile: step times");
    free(s.step_times);
    free_fields(fs, 2);
    ps_backend_close(b);
}

static void check_backend(const char *name)
{
    static const char *const stencils[] = {"diffusion7", "hdiff", "tracer"};
    const ps_grid g = {9, 12, 16};
    ps_backend *b = NULL;
    ps_device_info dev;
    int nd = 0, si, p, n, cs, gpu;
    if (ps_backend_open(name, &b) || ps_backend_probe(b, &dev, 1, &nd) || nd < 1) {
        printf("%s: not available here (%s)\n", name, ps_error_detail());
        ps_backend_close(b);
        ps_error_clear();
        return;
    }
    gpu = (ps_backend_get_ops(b)->flags & PS_BACKEND_GPU) != 0;
    for (si = 0; si < 3; si++) {
        const ps_stencil *s = ps_stencil_find(stencils[si]);
        ps_params pp;
        if (!s) {
            printf("%s: no stencil %s here\n", name, stencils[si]);
            continue;
        }
        if (ps_test_params(s, g, &pp)) {
            FAILF("%s: parameters: %s", s->name, ps_error_detail());
            continue;
        }
        for (p = 0; p < 2; p++) {
            ps_precision prec = p ? PS_FLOAT64 : PS_FLOAT32;
            ps_field in[3];
            ps_config cfg;
            if (prec == PS_FLOAT64 && !(dev.caps & PS_CAP_FP64))
                continue;
            if (make_fields(in, 3, g, prec)) {
                FAILF("out of memory");
                return;
            }
            ps_config_init(&cfg, g, prec);
            ps_params_free(&cfg.params);
            cfg.stencil = s;
            cfg.params = pp;
            for (n = 2; n <= 3; n++)
                for (cs = 0; cs < C_NCASES; cs++)
                    /* a device's set-up per context is slow: 3 fields on one box
                     * and out of core only */
                    if (!gpu || n == 2 || cs == C_ONE || cs == C_OOC)
                        check_case(b, name, &cfg, in, n, cs);
            if (si == 0) {
                check_cancel(b, name, &cfg, in, 2);
                check_cancel(b, name, &cfg, in, 3);
            }
            free_fields(in, 3);
        }
        ps_params_free(&pp);
    }
    printf("%s: %d checks so far\n", name, ps_test_checks);
    ps_backend_close(b);
}

int main(void)
{
    const char *const *names;
    int n, i;
    check_refusals();
    check_profile();
    ps_backend_known(&names, &n);
    for (i = 0; i < n; i++)
        check_backend(names[i]);
    /* the GPU plugin's code over the host-memory mock (built with CUDA, tests only) */
    check_backend("gpumock");
    return ps_test_finish("test_run_fields");
}
