/* The openmp backend: not written yet. */
#include "config.h"
#include "ps_builtin.h"
#include "ps_status.h"
#include <stdio.h>

static int omp_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen)
{
    (void)devs; (void)max;
    *ndevs = 0;
    snprintf(why, whylen, "not implemented yet");
    return PS_ENOTIMPL;
}
static int omp_create(const ps_config *cfg, void **ctx, char *why, size_t whylen)
{
    (void)cfg; (void)ctx;
    snprintf(why, whylen, "not implemented yet");
    return PS_ENOTIMPL;
}
static int omp_nop(void *c) { (void)c; return PS_ENOTIMPL; }
static int omp_io(void *c, const void *h, const ps_region *r) { (void)c; (void)h; (void)r; return PS_ENOTIMPL; }
static int omp_dl(void *c, void *h, const ps_region *r) { (void)c; (void)h; (void)r; return PS_ENOTIMPL; }
static int omp_step(void *c, long n) { (void)c; (void)n; return PS_ENOTIMPL; }
static void omp_destroy(void *c) { (void)c; }
static const char *omp_err(void *c) { (void)c; return "not implemented"; }

static const ps_backend_ops table = {
    .abi_version = PS_BACKEND_ABI_VERSION,
    .name = "openmp",
    .description = "OpenMP CPU backend",
    .probe = omp_probe,
    .create = omp_create,
    .upload = omp_io,
    .step = omp_step,
    .finish = omp_nop,
    .download = omp_dl,
    .destroy = omp_destroy,
    .last_error = omp_err,
};

const ps_backend_ops *ps_openmp_ops(void)
{
    return &table;
}
