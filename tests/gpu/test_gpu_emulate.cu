/*
 * diffusion7's tuned GPU kernel's thread body (d7_column in backends/gpu/
 * ps_gpu_kernels.h) run on the CPU for every thread of a launch, with the
 * launcher's grid arithmetic, for many grid, block and k-chunk shapes, and
 * compared bitwise with literal loops written from docs/numerical-contract.md.
 * Needs nvcc (the kernel header is compiled as CUDA C++, as in the plugin)
 * but no GPU: the 2.5-D indexing, the chunking along k and "every output
 * cell written" are checked by nvcc's own host compilation of the kernel
 * code. Compiled with the exact-mode flags. (The generic kernels and the
 * whole launch path run in the gpumock plugin: tests/gpu/mock.sh.)
 */
#include "config.h"
#define PS_GPU_KNS ps_emul
#include "ps_gpu_kernels.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

static int failures;

template <typename T>
static void literal_step(const T *a, T *b, long nz, long ny, long nx, T D)
{
    memcpy(b, a, sizeof(T) * nz * ny * nx);
    for (long k = 1; k < nz - 1; k++)
        for (long j = 1; j < ny - 1; j++)
            for (long i = 1; i < nx - 1; i++) {
                T c = a[(k * ny + j) * nx + i];
                if (isnan(c))
                    continue;
                T nb[6] = {a[((k - 1) * ny + j) * nx + i], a[((k + 1) * ny + j) * nx + i],
                           a[(k * ny + j - 1) * nx + i],   a[(k * ny + j + 1) * nx + i],
                           a[(k * ny + j) * nx + i - 1],   a[(k * ny + j) * nx + i + 1]};
                T s = 0;
                int n = 0;
                for (int q = 0; q < 6; q++)
                    if (!isnan(nb[q])) {
                        s = s + nb[q];
                        n = n + 1;
                    }
                if (n == 0)
                    continue;
                T t1 = (T)n * c, t2 = s - t1, t3 = D * t2, t4 = t3 / (T)n;
                b[(k * ny + j) * nx + i] = c + t4;
            }
}

/* Every thread of the launch the launcher would make, last block first. */
template <typename T>
static void emulated_step(const T *a, T *b, long nz, long ny, long nx, T D, int bx, int by,
                          int kchunk)
{
    long gx = (nx + bx - 1) / bx, gy = (ny + by - 1) / by, gz = (nz + kchunk - 1) / kchunk;
    for (long z = gz - 1; z >= 0; z--)
        for (long y = gy - 1; y >= 0; y--)
            for (long x = gx - 1; x >= 0; x--)
                for (int ty = 0; ty < by; ty++)
                    for (int tx = 0; tx < bx; tx++)
                        ps_emul::d7_column<T>(a, b, nz, ny, nx, D, kchunk, x * bx + tx,
                                              y * by + ty, z * kchunk);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double urand()
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

template <typename T>
static void check(long nz, long ny, long nx, int bx, int by, int kchunk, int steps)
{
    size_t n = (size_t)nz * ny * nx;
    std::vector<T> r0(n), r1(n), g0(n), g1(n);
    const T D = (T)0.1;
    for (size_t q = 0; q < n; q++) {
        double u = urand();
        r0[q] = u < 0.15 ? (T)NAN : u < 0.17 ? (T)1e-40 : (T)(30.0 * urand() - 2.0);
    }
    g0 = r0;
    memset(g1.data(), 0xff, n * sizeof(T)); /* poison: unwritten cells show */
    for (int s = 0; s < steps; s++) {
        literal_step(r0.data(), r1.data(), nz, ny, nx, D);
        emulated_step(g0.data(), g1.data(), nz, ny, nx, D, bx, by, kchunk);
        r0.swap(r1);
        g0.swap(g1);
        memset(g1.data(), 0xff, n * sizeof(T));
    }
    if (memcmp(r0.data(), g0.data(), n * sizeof(T))) {
        size_t q = 0;
        while (!memcmp(&r0[q], &g0[q], sizeof(T)))
            q++;
        printf("FAIL: %s %ldx%ldx%ld block %dx%d kchunk %d, %d steps: cell %zu: %.9g vs %.9g\n",
               sizeof(T) == 4 ? "float32" : "float64", nz, ny, nx, bx, by, kchunk, steps, q,
               (double)g0[q], (double)r0[q]);
        failures++;
    }
}

int main(void)
{
    static const long grids[][3] = {{1, 1, 1}, {1, 5, 7}, {2, 3, 4},  {3, 3, 3},
                                    {4, 9, 33}, {9, 17, 5}, {13, 6, 40}, {25, 31, 29}};
    static const int shapes[][3] = {{32, 8, 1}, {32, 8, 4}, {64, 4, 100}, {8, 4, 3},
                                    {3, 5, 2},  {1, 1, 1}, {33, 3, 7}};
    int cases = 0;
    for (auto &g : grids)
        for (auto &b : shapes) {
            check<float>(g[0], g[1], g[2], b[0], b[1], b[2], 3);
            check<double>(g[0], g[1], g[2], b[0], b[1], b[2], 2);
            cases += 2;
        }
    printf("%d emulated launches compared with literal loops: %d failure(s)\n", cases, failures);
    return failures ? 1 : 0;
}
