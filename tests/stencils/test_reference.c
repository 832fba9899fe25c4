/*
 * The reference backend through the backend interface: boundary faces and
 * land unchanged, the interior by hand, a multi-step run on a tiny grid
 * against values iterated by hand, float and double; plus region upload and
 * download and the loader's answers for built-in backends.
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


static void run_ref(ps_backend *b, ps_precision p, ps_grid g, const double *in, double *out,
                    long steps, double d)
{
    ps_config cfg;
    ps_context *ctx = NULL;
    size_t n = g.nz * g.ny * g.nx, i;
    float fin[64], fout[64];
    ps_config_init(&cfg, g, p);
    cfg.params.scalars[0] = d;
    if (ps_context_create(b, &cfg, &ctx)) {
        FAILF("create: %s", ps_error_detail());
        return;
    }
    if (p == PS_FLOAT32) {
        for (i = 0; i < n; i++)
            fin[i] = (float)in[i];
        ps_context_upload(ctx, fin, NULL);
    } else {
        ps_context_upload(ctx, in, NULL);
    }
    if (ps_context_step(ctx, steps))
        FAILF("step: %s", ps_error_detail());
    if (p == PS_FLOAT32) {
        ps_context_download(ctx, fout, NULL);
        for (i = 0; i < n; i++)
            out[i] = fout[i];
    } else {
        ps_context_download(ctx, out, NULL);
    }
    ps_context_destroy(ctx);
}

int main(void)
{
    ps_backend *b = NULL;
    ps_grid g = {3, 3, 4};
    double in[36], out[36];
    size_t i;
    int st;

    st = ps_backend_open("reference", &b);
    if (st) {
        printf("FAIL: open reference: %s\n", ps_error_detail());
        return 1;
    }

    /* 3x3x4: two interior cells, (1,1,1) and (1,1,2), everything else boundary. */
    for (i = 0; i < 36; i++)
        in[i] = 5.0 + 0.25 * (double)i;
    in[ps_index(&g, 0, 1, 1)] = NAN; /* land above cell A */
    in[ps_index(&g, 1, 0, 0)] = NAN; /* land on a boundary face */

    /* double, 1 step: values by hand */
    run_ref(b, PS_FLOAT64, g, in, out, 1, 0.1);
    {
        size_t A = ps_index(&g, 1, 1, 1), B = ps_index(&g, 1, 1, 2);
        /* A: neighbours k-1 NaN, k+1, j-1, j+1, i-1, i+1 (= B) */
        double s = 0.0, c = in[A], t;
        s = s + in[ps_index(&g, 2, 1, 1)];
        s = s + in[ps_index(&g, 1, 0, 1)];
        s = s + in[ps_index(&g, 1, 2, 1)];
        s = s + in[ps_index(&g, 1, 1, 0)];
        s = s + in[B];
        t = c + 0.1 * (s - 5.0 * c) / 5.0;
        if (out[A] != t)
            FAILF("cell A after 1 step: %a, by hand %a", out[A], t);
        s = 0.0;
        c = in[B];
        s = s + in[ps_index(&g, 0, 1, 2)];
        s = s + in[ps_index(&g, 2, 1, 2)];
        s = s + in[ps_index(&g, 1, 0, 2)];
        s = s + in[ps_index(&g, 1, 2, 2)];
        s = s + in[A];
        s = s + in[ps_index(&g, 1, 1, 3)];
        t = c + 0.1 * (s - 6.0 * c) / 6.0;
        if (out[B] != t)
            FAILF("cell B after 1 step: %a, by hand %a", out[B], t);
        for (i = 0; i < 36; i++) {
            if (i == A || i == B)
                continue;
            if (!(out[i] == in[i] || (isnan(out[i]) && isnan(in[i]))))
                FAILF("boundary/land cell %zu changed: %a -> %a", i, in[i], out[i]);
        }
    }

    /* float and double, 7 steps: iterate the two interior cells by hand */
    {
        size_t A = ps_index(&g, 1, 1, 1), B = ps_index(&g, 1, 1, 2);
        double a = in[A], bb = in[B];
        float af = (float)in[A], bf = (float)in[B];
        const double fa = in[ps_index(&g, 2, 1, 1)], fb = in[ps_index(&g, 1, 0, 1)],
                     fc = in[ps_index(&g, 1, 2, 1)], fd = in[ps_index(&g, 1, 1, 0)];
        const double ga = in[ps_index(&g, 0, 1, 2)], gb = in[ps_index(&g, 2, 1, 2)],
                     gc = in[ps_index(&g, 1, 0, 2)], gd = in[ps_index(&g, 1, 2, 2)],
                     ge = in[ps_index(&g, 1, 1, 3)];
        int t;
        for (t = 0; t < 7; t++) {
            double sa = 0.0 + fa + fb + fc + fd + bb;
            double sb = 0.0 + ga + gb + gc + gd + a + ge;
            float saf = 0.0f + (float)fa + (float)fb + (float)fc + (float)fd + bf;
            float sbf = 0.0f + (float)ga + (float)gb + (float)gc + (float)gd + af + (float)ge;
            double na = a + 0.1 * (sa - 5.0 * a) / 5.0;
            double nb = bb + 0.1 * (sb - 6.0 * bb) / 6.0;
            float naf = af + 0.1f * (saf - 5.0f * af) / 5.0f;
            float nbf = bf + 0.1f * (sbf - 6.0f * bf) / 6.0f;
            a = na;
            bb = nb;
            af = naf;
            bf = nbf;
        }
        run_ref(b, PS_FLOAT64, g, in, out, 7, 0.1);
        if (out[A] != a || out[B] != bb)
            FAILF("double 7 steps: got %a %a, by hand %a %a", out[A], out[B], a, bb);
        run_ref(b, PS_FLOAT32, g, in, out, 7, 0.1);
        if ((float)out[A] != af || (float)out[B] != bf)
            FAILF("float 7 steps: got %a %a, by hand %a %a", out[A], out[B], (double)af,
                  (double)bf);
    }

    /* region upload/download: write a 1x2x2 block and read it back */
    {
        ps_config cfg;
        ps_context *ctx;
        ps_region r = {{1, 1, 1}, {1, 2, 2}};
        double blk[4] = {1, 2, 3, 4}, back[4] = {0}, zero[36] = {0};
        ps_config_init(&cfg, g, PS_FLOAT64);
        if (ps_context_create(b, &cfg, &ctx) == PS_OK) {
            ps_context_upload(ctx, zero, NULL);
            ps_context_upload(ctx, blk, &r);
            ps_context_download(ctx, out, NULL);
            ps_context_download(ctx, back, &r);
            if (out[ps_index(&g, 1, 2, 2)] != 4 || out[ps_index(&g, 1, 1, 1)] != 1 ||
                memcmp(blk, back, sizeof blk))
                FAILF("region round trip");
            r.start[2] = 3;
            if (ps_context_upload(ctx, blk, &r) != PS_ERANGE)
                FAILF("out-of-box region accepted");
            ps_context_destroy(ctx);
        }
    }

    /* the reference refuses fast mode rather than pretending */
    {
        ps_config cfg;
        ps_context *ctx;
        ps_config_init(&cfg, g, PS_FLOAT32);
        cfg.mode = PS_MODE_FAST;
        if (ps_context_create(b, &cfg, &ctx) != PS_EUNSUPPORTED)
            FAILF("reference accepted fast mode");
    }

    /* loader: unknown names, bad names */
    {
        ps_backend *x = NULL;
        if (ps_backend_open("no_such_backend", &x) != PS_ENOBACKEND)
            FAILF("unknown backend not reported");
        if (ps_backend_open("../evil", &x) != PS_ENOBACKEND)
            FAILF("path-like backend name accepted");
    }
    ps_backend_close(b);
    if (ps_test_failures)
        return 1;
    printf("reference backend: ok\n");
    return 0;
}
