/*
 * The GPU backend's fast-path table (backends/gpu/fast/ps_gpu_fast.cpp) on
 * its own (host C++, no device, no libpstencil): diffusion7 has an entry in
 * float64 and in float32 exact mode (float32 fast mode runs the generic
 * kernel, faster there) with every tuned variant of enum ps_gpu_variant;
 * a stencil without an entry
 * (another name, or none) gets the generic kernels (NULL); the names list
 * (ops.fast_paths) holds exactly the stencils with an entry. Exit 0 pass,
 * 1 fail.
 */
#include "config.h"
#include "ps_gpu_port.h"
#include "fast/ps_gpu_fast.h"

#include <stdio.h>
#include <string.h>

static int failures, checks;
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(cond)) {                                                                     \
            printf("FAIL: " __VA_ARGS__);                                                  \
            printf("\n");                                                                  \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static ps_config cfg_for(const ps_stencil *s, int p, int m, double d)
{
    ps_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.stencil = s;
    cfg.precision = (ps_precision)p;
    cfg.mode = (ps_mode)m;
    cfg.params.scalars[0] = d;
    return cfg;
}

int main(void)
{
    ps_stencil d7, other;
    int n = 0;
    memset(&d7, 0, sizeof d7);
    memset(&other, 0, sizeof other);
    d7.name = "diffusion7";
    other.name = "hdiff";
    for (n = 0; ps_gpu_fast_paths[n]; n++)
        ;
    CHECK(n == 1 && !strcmp(ps_gpu_fast_paths[0], "diffusion7"),
          "ps_gpu_fast_paths: %d names, the first %s", n, n ? ps_gpu_fast_paths[0] : "none");
    for (int p = PS_FLOAT32; p <= PS_FLOAT64; p++)
        for (int m = PS_MODE_EXACT; m <= PS_MODE_FAST; m++) {
            ps_config c = cfg_for(&other, p, m, 0.5);
            CHECK(ps_gpu_fast_find(&c) == NULL, "hdiff p%d m%d: an entry", p, m);
            c = cfg_for(&d7, p, m, 0.5);
            const ps_gpu_fast_entry *f = ps_gpu_fast_find(&c);
            if (p == PS_FLOAT32 && m == PS_MODE_FAST) {
                CHECK(f == NULL, "diffusion7 float32 fast: an entry (the generic kernel is faster)");
                continue;
            }
            CHECK(f != NULL, "diffusion7 p%d m%d: no entry", p, m);
            for (int v = PS_GPU_V_D7; f && v <= PS_GPU_V_D7LB; v++)
                CHECK(ps_gpu_fast_has(f, v), "diffusion7 p%d m%d: no variant %d", p, m, v);
            CHECK(!ps_gpu_fast_has(f, PS_GPU_V_D7LB + 1), "an unknown variant is had");
        }
    CHECK(!ps_gpu_fast_has(NULL, PS_GPU_V_D7), "a variant without an entry");
    printf("test_gpu_fast: %d check(s), %d failure(s)\n", checks, failures);
    return failures ? 1 : 0;
}
