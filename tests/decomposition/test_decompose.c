/*
 * Decomposition through the public API: a grid split into boxes with ghost
 * layers (Cartesian PK x PJ x PI, uneven sizes), each box a context of its own
 * with origin, global grid, ghost depth and global-face bits, stepped in
 * rounds of ghost/radius steps with a halo refresh between rounds, gives the
 * one-box result bitwise - for every stencil, both precisions, every backend
 * that runs here, on the generic path and on fast paths.
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

typedef struct box_run {
    ps_box box;
    ps_context *ctx;
    size_t own_lo[3], own_hi[3]; /* global cells this box owns */
    void *buf;                   /* packed stored block */
} box_run;

/* Split n cells into P parts, remainders spread over the first parts. */
static void split(size_t n, int P, int p, size_t *lo, size_t *hi)
{
    size_t base = n / (size_t)P, rem = n % (size_t)P;
    *lo = (size_t)p * base + ((size_t)p < rem ? (size_t)p : rem);
    *hi = *lo + base + ((size_t)p < rem ? 1 : 0);
}

/* Copy between a global field and a box's packed block (dir 0: gather). */
static void copy_block(const ps_field *f, void *buf, const size_t lo[3], const size_t cnt[3],
                       int scatter)
{
    size_t es = ps_precision_size(f->precision), k, j;
    for (k = 0; k < cnt[0]; k++)
        for (j = 0; j < cnt[1]; j++) {
            char *gp = (char *)f->data + ps_index(&f->grid, lo[0] + k, lo[1] + j, lo[2]) * es;
            char *bp = (char *)buf + (k * cnt[1] + j) * cnt[2] * es;
            if (scatter)
                memcpy(gp, bp, cnt[2] * es);
            else
                memcpy(bp, gp, cnt[2] * es);
        }
}

/* Run @p steps steps of the decomposed grid on backend @p b; result in @p f. */
static int run_split(ps_backend *b, const ps_config *base, ps_field *f, const int P[3],
                     unsigned ghost, long steps)
{
    const ps_grid g = f->grid;
    const size_t ext[3] = {g.nz, g.ny, g.nx};
    const int nbox = P[0] * P[1] * P[2];
    const long per_round = (long)ghost / base->stencil->radius;
    box_run *bx = calloc((size_t)nbox, sizeof *bx);
    ps_field next;
    int q, a, st = PS_OK;
    long done = 0;
    if (!bx || ps_field_alloc(&next, g, f->precision)) {
        free(bx);
        return PS_ENOMEM;
    }
    memcpy(next.data, f->data, ps_field_cells(f) * ps_precision_size(f->precision));
    for (q = 0; q < nbox && !st; q++) {
        int c[3] = {q / (P[1] * P[2]), (q / P[2]) % P[1], q % P[2]};
        size_t lo[3], hi[3], cnt[3];
        ps_config cfg = *base;
        memset(&bx[q].box, 0, sizeof bx[q].box);
        for (a = 0; a < 3; a++) {
            split(ext[a], P[a], c[a], &bx[q].own_lo[a], &bx[q].own_hi[a]);
            lo[a] = bx[q].own_lo[a] > ghost ? bx[q].own_lo[a] - ghost : 0;
            hi[a] = bx[q].own_hi[a] + ghost < ext[a] ? bx[q].own_hi[a] + ghost : ext[a];
            cnt[a] = hi[a] - lo[a];
            bx[q].box.origin[a] = lo[a];
            if (lo[a] == 0)
                bx[q].box.global_faces |= 1u << (2 * a);
            if (hi[a] == ext[a])
                bx[q].box.global_faces |= 1u << (2 * a + 1);
        }
        bx[q].box.extent = (ps_grid){cnt[0], cnt[1], cnt[2]};
        bx[q].box.global = g;
        bx[q].box.ghost = ghost;
        cfg.box = bx[q].box;
        bx[q].buf = malloc(cnt[0] * cnt[1] * cnt[2] * ps_precision_size(f->precision));
        if (!bx[q].buf)
            st = PS_ENOMEM;
        else
            st = ps_context_create(b, &cfg, &bx[q].ctx);
    }
    while (!st && done < steps) {
        long n = steps - done < per_round ? steps - done : per_round;
        for (q = 0; q < nbox && !st; q++) {
            size_t cnt[3] = {bx[q].box.extent.nz, bx[q].box.extent.ny, bx[q].box.extent.nx};
            size_t own[3], off[3];
            ps_field view;
            /* halo refresh: the whole stored block from the current global state */
            copy_block(f, bx[q].buf, bx[q].box.origin, cnt, 0);
            if ((st = ps_context_upload(bx[q].ctx, bx[q].buf, NULL)) ||
                (st = ps_context_step(bx[q].ctx, n)) ||
                (st = ps_context_download(bx[q].ctx, bx[q].buf, NULL)))
                break;
            /* the owned cells go back into the next global state */
            for (a = 0; a < 3; a++) {
                own[a] = bx[q].own_hi[a] - bx[q].own_lo[a];
                off[a] = bx[q].own_lo[a] - bx[q].box.origin[a];
            }
            view.grid = bx[q].box.extent;
            view.precision = f->precision;
            view.data = bx[q].buf;
            {
                size_t es = ps_precision_size(f->precision), k, j;
                for (k = 0; k < own[0]; k++)
                    for (j = 0; j < own[1]; j++)
                        memcpy((char *)next.data + ps_index(&g, bx[q].own_lo[0] + k,
                                                            bx[q].own_lo[1] + j,
                                                            bx[q].own_lo[2]) * es,
                               (char *)view.data + ps_index(&view.grid, off[0] + k,
                                                            off[1] + j, off[2]) * es,
                               own[2] * es);
            }
        }
        memcpy(f->data, next.data, ps_field_cells(f) * ps_precision_size(f->precision));
        done += n;
    }
    for (q = 0; q < nbox; q++) {
        ps_context_destroy(bx[q].ctx);
        free(bx[q].buf);
    }
    free(bx);
    ps_field_free(&next);
    return st;
}

static void check_backend(const char *name)
{
    static const int splits[][3] = {{2, 2, 2}, {1, 3, 1}, {3, 1, 2}, {1, 1, 4}};
    const ps_grid g = {11, 13, 17};
    ps_backend *b = NULL;
    ps_device_info dev;
    int nd = 0, si, p, sp, gen;
    if (ps_backend_open(name, &b) || ps_backend_probe(b, &dev, 1, &nd) || nd < 1) {
        printf("%s: not available here (%s)\n", name, ps_error_detail());
        ps_backend_close(b);
        return;
    }
    for (si = 0; si < ps_stencil_count(); si++) {
        const ps_stencil *s = ps_stencil_at(si);
        ps_params pp;
        if (ps_test_params(s, g, &pp)) {
            FAILF("%s: parameters: %s", s->name, ps_error_detail());
            continue;
        }
        for (p = 0; p < 2; p++) {
            ps_precision prec = p ? PS_FLOAT64 : PS_FLOAT32;
            if (prec == PS_FLOAT64 && !(dev.caps & PS_CAP_FP64))
                continue;
            for (gen = 0; gen < 2; gen++) {
                ps_config cfg;
                ps_field in, whole, parts;
                unsigned r = (unsigned)s->radius;
                ps_config_init(&cfg, g, prec);
                ps_params_free(&cfg.params);
                cfg.stencil = s;
                cfg.params = pp;
                cfg.kernel = gen ? PS_KERNEL_GENERIC : PS_KERNEL_AUTO;
                if (ps_field_alloc(&in, g, prec) || ps_field_alloc(&whole, g, prec) ||
                    ps_field_alloc(&parts, g, prec)) {
                    FAILF("out of memory");
                    return;
                }
                ps_test_fill(&in, 7 + (uint64_t)si, 0.3);
                memcpy(whole.data, in.data, ps_field_cells(&in) * ps_precision_size(prec));
                if (ps_test_run(b, &cfg, &whole, &whole, 5)) {
                    FAILF("%s %s %s: one box: %s", name, s->name, ps_precision_name(prec),
                          ps_error_detail());
                    goto next;
                }
                for (sp = 0; sp < (int)(sizeof splits / sizeof splits[0]); sp++) {
                    unsigned ghost;
                    for (ghost = r; ghost <= 2 * r; ghost += r) {
                        int st;
                        memcpy(parts.data, in.data,
                               ps_field_cells(&in) * ps_precision_size(prec));
                        st = run_split(b, &cfg, &parts, splits[sp], ghost, 5);
                        CHECK(!st && ps_test_same(&whole, &parts),
                              "%s %s %s%s: split %dx%dx%d ghost %u: %s", name, s->name,
                              ps_precision_name(prec), gen ? " (generic)" : "", splits[sp][0],
                              splits[sp][1], splits[sp][2], ghost,
                              st ? ps_error_detail() : "differs from one box");
                    }
                }
            next:
                ps_field_free(&in);
                ps_field_free(&whole);
                ps_field_free(&parts);
            }
        }
        ps_params_free(&pp);
    }
    printf("%s: checked\n", name);
    ps_backend_close(b);
}

int main(void)
{
    const char *const *names;
    int n, i;
    ps_backend_known(&names, &n);
    for (i = 0; i < n; i++)
        check_backend(names[i]);
    {
        /* a wrong box is refused, not run: ghosts shallower than the radius */
        ps_backend *b;
        ps_config cfg;
        ps_context *c = NULL;
        const ps_grid g = {11, 13, 17};
        ps_params pp;
        CHECK(!ps_backend_open("reference", &b), "open reference");
        ps_config_init(&cfg, g, PS_FLOAT32);
        cfg.stencil = ps_stencil_find("smooth2");
        CHECK(cfg.stencil && !ps_test_params(cfg.stencil, g, &pp), "smooth2 parameters");
        cfg.params = pp;
        cfg.box.extent.nx = 10;
        cfg.box.global_faces &= ~(unsigned)PS_FACE_I_HI;
        cfg.box.ghost = 1;
        CHECK(ps_context_create(b, &cfg, &c) == PS_EINVAL, "ghost 1 < radius 2 accepted");
        ps_context_destroy(c);
        ps_params_free(&pp);
        ps_backend_close(b);
    }
    return ps_test_finish("test_decompose");
}
