/*
 * The mock's barriers (backends/gpu/ps_gpu_mock.h): kernels launched with
 * PS_GPU_KERNEL_LAUNCH_SYNC run each block's threads as fibers, so
 * __syncthreads() works and __shared__ memory is the block's. Checks that a
 * kernel exchanging data through shared memory with barriers gives the right
 * result (1-D and 2-D blocks, barriers in a loop), and that the same kernel
 * without its barrier gives a wrong one: the mock catches a missing
 * __syncthreads(). Exit 0 pass, 1 fail.
 */
#include "config.h"
#include "ps_gpu_port.h"

#include <stdio.h>
#include <vector>

enum { NB = 4, NT = 256 };

/* each block reverses its part of in through shared memory */
__global__ void rev_sync(const int *in, int *out)
{
    __shared__ int s[NT];
    const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
    const unsigned n = blockDim.x * blockDim.y, b = blockIdx.x * n;
    s[t] = in[b + t];
    __syncthreads();
    out[b + t] = s[n - 1 - t];
}

/* the same without the barrier: reads slots other threads have not written yet */
__global__ void rev_nosync(const int *in, int *out)
{
    __shared__ int s[NT];
    const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
    const unsigned n = blockDim.x * blockDim.y, b = blockIdx.x * n;
    s[t] = in[b + t];
    out[b + t] = s[n - 1 - t];
}

/* levels: three rounds of v[t] += v[t+1 mod n], a barrier before and after each read */
__global__ void levels(const int *in, int *out)
{
    __shared__ int s[NT];
    const unsigned t = threadIdx.x, n = blockDim.x, b = blockIdx.x * n;
    s[t] = in[b + t];
    for (int l = 0; l < 3; l++) {
        __syncthreads();
        const int v = s[t] + s[(t + 1) % n];
        __syncthreads();
        s[t] = v;
    }
    __syncthreads();
    out[b + t] = s[t];
}

static int check(const char *what, const std::vector<int> &got, const std::vector<int> &want,
                 bool expect_equal)
{
    bool eq = got == want;
    printf("%s: %s %s\n", eq == expect_equal ? "ok" : "FAIL", what,
           eq ? "gives the expected result" : "gives a wrong result");
    return eq == expect_equal ? 0 : 1;
}

int main(void)
{
    std::vector<int> in(NB * NT), out(NB * NT), rev(NB * NT), lev(NB * NT);
    int bad = 0;
    for (int q = 0; q < NB * NT; q++)
        in[q] = q * 7 + 3;
    for (int b = 0; b < NB; b++)
        for (int t = 0; t < NT; t++) {
            rev[b * NT + t] = in[b * NT + NT - 1 - t];
            std::vector<int> v(in.begin() + b * NT, in.begin() + (b + 1) * NT);
            for (int l = 0; l < 3; l++) {
                std::vector<int> w(NT);
                for (int u = 0; u < NT; u++)
                    w[u] = v[u] + v[(u + 1) % NT];
                v = w;
            }
            lev[b * NT + t] = v[t];
        }
    if (PS_GPU_KERNEL_LAUNCH_SYNC(rev_sync, dim3(NB), dim3(NT), NULL, in.data(), out.data()))
        return 1;
    bad |= check("shared-memory reverse with __syncthreads (block 256)", out, rev, true);
    if (PS_GPU_KERNEL_LAUNCH_SYNC(rev_sync, dim3(NB), dim3(32, 8), NULL, in.data(), out.data()))
        return 1;
    bad |= check("shared-memory reverse with __syncthreads (block 32x8)", out, rev, true);
    if (PS_GPU_KERNEL_LAUNCH_SYNC(levels, dim3(NB), dim3(NT), NULL, in.data(), out.data()))
        return 1;
    bad |= check("three levels, barriers in a loop", out, lev, true);
    if (PS_GPU_KERNEL_LAUNCH_SYNC(rev_nosync, dim3(NB), dim3(NT), NULL, in.data(), out.data()))
        return 1;
    bad |= check("the reverse without its __syncthreads (must be caught)", out, rev, false);
    return bad;
}
