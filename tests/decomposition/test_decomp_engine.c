/*
 * The decomposition engine (core/ps_decomp.h): boxes, the axis-by-axis
 * exchange plan and the round driver over the in-process transport give the
 * one-box result bitwise, for every stencil and backend that runs here, with
 * uneven splits, a box one cell thick (its ghost slabs reach past its
 * neighbour), halo widths 1, 2 and 4 radii and step counts that are not
 * multiples of a round; plus the split parser, the factorisation and the
 * refusals.
 */
#include "config.h"
#include "pstencil.h"
#include "ps_decomp.h"
#include "../ps_test.h"

/* nworkers > 1: the boxes round-robin on that many host threads at once
 * (ps_decomp_local_concurrent(), ps_decomp_local_step()) */
static int run_split(ps_backend *b, const ps_config *base, ps_field *f, const int split[3],
                     unsigned ghost, long steps, long *moves, int nworkers)
{
    ps_decomp d;
    ps_decomp_local l;
    ps_decomp_transport t;
    ps_context **ctx = NULL;
    int q, st = ps_decomp_create(&d, f->grid, split, ghost);
    if (st)
        return st;
    ctx = calloc((size_t)d.nboxes, sizeof *ctx);
    if (!ctx) {
        ps_decomp_free(&d);
        return PS_ENOMEM;
    }
    for (q = 0; q < d.nboxes && !st; q++) {
        ps_config cfg = *base;
        cfg.box = d.boxes[q].box;
        st = ps_context_create(b, &cfg, &ctx[q]);
    }
    if (!st)
        st = ps_decomp_local_init(&l, &d, ctx, f->precision, &t);
    if (!st && nworkers > 1) {
        int *worker = calloc((size_t)d.nboxes, sizeof *worker);
        for (q = 0; worker && q < d.nboxes; q++)
            worker[q] = q % nworkers;
        st = worker ? ps_decomp_local_concurrent(&l, &d, nworkers, worker) : PS_ENOMEM;
        free(worker);
        if (st)
            ps_decomp_local_free(&l);
    }
    if (!st) {
        st = ps_decomp_upload(&d, ctx, f);
        if (!st && nworkers > 1) /* two calls: the workers idle in between */
            st = ps_decomp_local_step(&d, &l, base->stencil->radius, steps / 2);
        if (!st && nworkers > 1)
            st = ps_decomp_local_step(&d, &l, base->stencil->radius, steps - steps / 2);
        else if (!st)
            st = ps_decomp_step(&d, ctx, &t, base->stencil->radius, steps);
        if (!st)
            st = ps_decomp_download(&d, ctx, f);
        *moves = l.moves;
        ps_decomp_local_free(&l);
    }
    for (q = 0; q < d.nboxes; q++)
        ps_context_destroy(ctx[q]);
    free(ctx);
    ps_decomp_free(&d);
    return st;
}

static void check_backend(const char *name, int thorough)
{
    static const int splits[][3] = {{1, 1, 2}, {1, 2, 1}, {2, 1, 1}, {2, 2, 2},
                                    {3, 2, 1}, {5, 1, 1}, {1, 1, 6}};
    static const long steps_all[] = {1, 5, 13};
    const ps_grid g = {7, 10, 14}; /* 5 boxes along k: thicknesses 2, 2, 1, 1, 1 */
    ps_backend *b = NULL;
    ps_device_info dev;
    int nd = 0, si, p, sp, concurrent;
    if (ps_backend_open(name, &b) || ps_backend_probe(b, &dev, 1, &nd) || nd < 1) {
        printf("%s: not available here (%s)\n", name, ps_error_detail());
        ps_backend_close(b);
        return;
    }
    concurrent = (ps_backend_get_ops(b)->flags & PS_BACKEND_CONCURRENT) != 0;
    for (si = 0; si < ps_stencil_count(); si++) {
        const ps_stencil *s = ps_stencil_at(si);
        ps_params pp;
        if (ps_test_params(s, g, &pp)) {
            FAILF("%s: parameters: %s", s->name, ps_error_detail());
            continue;
        }
        for (p = 0; p < 2; p++) {
            ps_precision prec = p ? PS_FLOAT64 : PS_FLOAT32;
            int ns;
            if (prec == PS_FLOAT64 && !(dev.caps & PS_CAP_FP64))
                continue;
            for (ns = thorough ? 0 : 2; ns < 3; ns++) {
                long steps = steps_all[ns];
                ps_config cfg;
                ps_field in, one, parts;
                unsigned mult;
                ps_config_init(&cfg, g, prec);
                ps_params_free(&cfg.params);
                cfg.stencil = s;
                cfg.params = pp;
                if (ps_field_alloc(&in, g, prec) || ps_field_alloc(&one, g, prec) ||
                    ps_field_alloc(&parts, g, prec)) {
                    FAILF("out of memory");
                    return;
                }
                ps_test_fill(&in, 11 + (uint64_t)si, 0.25);
                memcpy(one.data, in.data, ps_field_cells(&in) * ps_precision_size(prec));
                if (ps_test_run(b, &cfg, &one, &one, steps))
                    FAILF("%s %s: one box: %s", name, s->name, ps_error_detail());
                for (sp = 0; sp < (int)(sizeof splits / sizeof splits[0]); sp++)
                    for (mult = 1; mult <= 4; mult *= 2) {
                        unsigned ghost = mult * (unsigned)s->radius;
                        long moves = 0;
                        int st;
                        if (!thorough && mult == 2)
                            continue;
                        memcpy(parts.data, in.data,
                               ps_field_cells(&in) * ps_precision_size(prec));
                        st = run_split(b, &cfg, &parts, splits[sp], ghost, steps, &moves,
                                       1);
                        CHECK(!st && ps_test_same(&one, &parts),
                              "%s %s %s: split %dx%dx%d ghost %u, %ld steps: %s", name,
                              s->name, ps_precision_name(prec), splits[sp][0], splits[sp][1],
                              splits[sp][2], ghost, steps,
                              st ? ps_error_detail() : "differs from one box");
                        if (concurrent) {
                            /* the same on 2 or 3 host threads at once */
                            int nw = 2 + sp % 2;
                            memcpy(parts.data, in.data,
                                   ps_field_cells(&in) * ps_precision_size(prec));
                            st = run_split(b, &cfg, &parts, splits[sp], ghost, steps, &moves,
                                           nw);
                            CHECK(!st && ps_test_same(&one, &parts),
                                  "%s %s %s: split %dx%dx%d ghost %u, %ld steps, %d workers: "
                                  "%s", name, s->name, ps_precision_name(prec), splits[sp][0],
                                  splits[sp][1], splits[sp][2], ghost, steps, nw,
                                  st ? ps_error_detail() : "differs from one box");
                        }
                        /* more than one round means the exchange really ran */
                        CHECK(steps <= (long)mult || moves > 0,
                              "%s: %ld steps in rounds of %u made no exchange", name, steps,
                              mult);
                    }
                ps_field_free(&in);
                ps_field_free(&one);
                ps_field_free(&parts);
            }
        }
        ps_params_free(&pp);
    }
    printf("%s: checked\n", name);
    ps_backend_close(b);
}

/* ps_decomp_place(): workers and threads per box */
static void check_place(void)
{
    int th[4], wk[4], n;
    const int one[4] = {0, 0, 0, 0}, two[4] = {0, 1, 0, 1};
    n = ps_decomp_place(3, one, 4, 0, th, wk);
    CHECK(n == 1 && th[0] == 4 && th[2] == 4 && wk[0] == 0 && wk[2] == 0,
          "not concurrent: one worker, every thread per box (%d workers, %d threads)", n,
          th[0]);
    n = ps_decomp_place(2, one, 2, 1, th, wk);
    CHECK(n == 2 && th[0] == 1 && th[1] == 1 && wk[0] == 0 && wk[1] == 1,
          "2 boxes, 2 threads: %d workers, threads %d %d", n, th[0], th[1]);
    n = ps_decomp_place(2, one, 3, 1, th, wk);
    CHECK(n == 2 && th[0] == 2 && th[1] == 1, "2 boxes, 3 threads: %d workers, threads %d %d",
          n, th[0], th[1]);
    n = ps_decomp_place(3, one, 2, 1, th, wk);
    CHECK(n == 2 && wk[0] == 0 && wk[1] == 1 && wk[2] == 0 && th[0] == 1 && th[1] == 1 &&
              th[2] == 1,
          "3 boxes, 2 threads: %d workers (%d %d %d)", n, wk[0], wk[1], wk[2]);
    n = ps_decomp_place(4, two, 0, 1, th, wk);
    CHECK(n == 2 && wk[0] == 0 && wk[1] == 1 && wk[2] == 0 && wk[3] == 1 && th[0] == 0,
          "4 boxes on 2 devices, no threads: one worker per device (%d)", n);
    n = ps_decomp_place(4, two, 4, 1, th, wk);
    CHECK(n == 4 && wk[0] == 0 && wk[2] == 1 && wk[1] == 2 && wk[3] == 3 && th[0] == 2 &&
              th[3] == 2,
          "4 boxes on 2 devices, 4 threads each: %d workers, threads %d", n, th[0]);
}

static void check_plans(void)
{
    const ps_grid g = {50, 222, 241};
    int s[3];
    ps_decomp d;
    CHECK(!ps_decomp_parse_split("2x1x3", g, s) && s[0] == 2 && s[1] == 1 && s[2] == 3,
          "parse 2x1x3");
    CHECK(!ps_decomp_parse_split("1", g, s) && s[0] * s[1] * s[2] == 1, "parse 1");
    /* 2 boxes: cutting across k (222 x 241 cells) costs most, across i least */
    CHECK(!ps_decomp_parse_split("2", g, s) && s[0] == 1 && s[1] == 1 && s[2] == 2,
          "2 boxes split the longest axis, got %dx%dx%d", s[0], s[1], s[2]);
    CHECK(!ps_decomp_factor(8, g, s) && s[0] * s[1] * s[2] == 8, "8 boxes factorised");
    CHECK(ps_decomp_parse_split("2x", g, s) == PS_EINVAL, "'2x' refused");
    CHECK(ps_decomp_parse_split("2x0x1", g, s) == PS_EINVAL, "'2x0x1' refused");
    CHECK(ps_decomp_parse_split("abc", g, s) == PS_EINVAL, "'abc' refused");
    CHECK(ps_decomp_parse_split("1x1x1x1", g, s) == PS_EINVAL, "'1x1x1x1' refused");
    {
        int bad[3] = {51, 1, 1};
        CHECK(ps_decomp_create(&d, g, bad, 1) == PS_EINVAL &&
                  strstr(ps_error_detail(), "only 50 cells"),
              "more boxes than cells refused: %s", ps_error_detail());
    }
    {
        int two[3] = {1, 2, 1};
        CHECK(ps_decomp_create(&d, g, two, 0) == PS_EINVAL, "two boxes without ghosts refused");
    }
    {
        /* the plan: 2x2x2 boxes, ghost 1: every box gets one slab per split axis from its
         * neighbour, the later axes' slabs spanning the earlier axes' ghosts */
        int s222[3] = {2, 2, 2}, q;
        size_t cells = 0;
        CHECK(!ps_decomp_create(&d, (ps_grid){6, 8, 10}, s222, 1), "2x2x2 plan");
        CHECK(d.ncopies == 24, "2x2x2: %d copies, expected 24", d.ncopies);
        for (q = 0; q < d.ncopies; q++)
            cells += d.copies[q].dst_region.count.nz * d.copies[q].dst_region.count.ny *
                     d.copies[q].dst_region.count.nx;
        /* per box (owned 3x4x5, one inner face per axis): the k slab 1x4x5 (owned j, i),
         * the j slab 4x1x5 (stored k), the i slab 4x5x1 (stored k, j): 60 cells */
        CHECK(cells == 8 * 60, "copy volume %zu, expected 480", cells);
        ps_decomp_free(&d);
    }
}

/* The driver: ps_run_split with snapshots equals ps_run, snapshot by snapshot. */
typedef struct snaps {
    uint64_t sum[16];
    int n;
} snaps;

static int on_snap(void *user, long step, const ps_field *f)
{
    snaps *s = user;
    (void)step;
    if (s->n < 16)
        s->sum[s->n++] = ps_field_checksum(f);
    return 0;
}

static void check_driver(const char *name)
{
    const ps_grid g = {9, 12, 16};
    ps_backend *b = NULL;
    ps_config cfg;
    ps_field f1, f2;
    ps_run_options ro;
    ps_split_options so;
    ps_run_stats s1, s2;
    snaps a, c;
    int q, dev[2] = {0, 0};
    if (ps_backend_open(name, &b)) {
        FAILF("open %s: %s", name, ps_error_detail());
        return;
    }
    ps_config_init(&cfg, g, PS_FLOAT32);
    CHECK(!ps_field_alloc(&f1, g, PS_FLOAT32) && !ps_field_alloc(&f2, g, PS_FLOAT32), "alloc");
    ps_test_fill(&f1, 3, 0.3);
    memcpy(f2.data, f1.data, ps_field_cells(&f1) * sizeof(float));
    memset(&ro, 0, sizeof ro);
    memset(&a, 0, sizeof a);
    memset(&c, 0, sizeof c);
    ro.steps = 11;
    ro.every = 3;
    ro.snapshot = on_snap;
    ro.user = &a;
    CHECK(!ps_run(b, &cfg, &f1, &ro, &s1), "%s: ps_run: %s", name, ps_error_detail());
    memset(&so, 0, sizeof so);
    so.split[0] = 2;
    so.split[1] = 2;
    so.split[2] = 1;
    so.halo = 3;
    so.devices = dev;
    so.ndevices = 2;
    ro.user = &c;
    CHECK(!ps_run_split(b, &cfg, &f2, &ro, &so, &s2), "%s: ps_run_split: %s", name,
          ps_error_detail());
    CHECK(a.n == 5 && c.n == a.n, "%s: %d and %d snapshots (steps 0, 3, 6, 9, 11)", name,
          a.n, c.n);
    for (q = 0; q < a.n && q < c.n; q++)
        CHECK(a.sum[q] == c.sum[q], "%s: snapshot %d differs between one box and 2x2x1", name,
              q);
    CHECK(ps_test_same(&f1, &f2), "%s: final field differs", name);
    CHECK(s2.boxes == 4 && s2.exchange_bytes > 0 && s1.boxes == 1,
          "%s: stats: %d boxes, %g bytes exchanged", name, s2.boxes, s2.exchange_bytes);
    free(s1.step_times);
    free(s2.step_times);
    /* 3 threads for 4 boxes: a threaded backend that runs contexts at once steps
     * them on 3 host threads (1 CPU thread each), any other one box at a time */
    {
        const ps_backend_ops *ops = ps_backend_get_ops(b);
        int expect = (ops->flags & PS_BACKEND_CONCURRENT) && (ops->flags & PS_BACKEND_THREADS)
                         ? 3 : 1;
        ps_test_fill(&f2, 3, 0.3);
        ro.snapshot = NULL;
        cfg.threads = 3;
        memset(&s2, 0, sizeof s2);
        CHECK(!ps_run_split(b, &cfg, &f2, &ro, &so, &s2), "%s: 3 threads: %s", name,
              ps_error_detail());
        CHECK(ps_test_same(&f1, &f2), "%s: 3 threads on 4 boxes: final field differs", name);
        CHECK(s2.workers == expect && (expect == 1 || s2.box_threads == 1),
              "%s: 3 threads on 4 boxes: %d host threads at once (expected %d), %d threads "
              "per box", name, s2.workers, expect, s2.box_threads);
        free(s2.step_times);
        cfg.threads = 0;
    }
    ps_field_free(&f1);
    ps_field_free(&f2);
    ps_backend_close(b);
}

int main(void)
{
    const char *const *names;
    int n, i;
    check_place();
    check_plans();
    check_driver("reference");
    check_driver("openmp");
    ps_backend_known(&names, &n);
    for (i = 0; i < n; i++) {
        ps_backend *b = NULL;
        /* every step count and halo multiple in check-full on host backends
         * (a GPU's set-up per case is slow); 13 steps, halos of 1 and 4 radii
         * otherwise */
        int thorough = ps_test_full();
        if (thorough && !ps_backend_open(names[i], &b))
            thorough = !(ps_backend_get_ops(b)->flags & PS_BACKEND_GPU);
        ps_backend_close(b);
        check_backend(names[i], thorough);
    }
    return ps_test_finish("test_decomp_engine");
}
