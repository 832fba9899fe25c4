/*
 * The cuda and hip plugins load on any machine and, where there is no GPU,
 * say why: probe returns PS_ENODEVICE with a reason naming the runtime and
 * the driver/device problem, and creating a context fails with the same
 * reason. Also: a plugin exports only its entry point (the vendor runtime
 * and the kernels stay private). Where a device exists, its description is
 * checked instead. Skips (77) if neither plugin was built.
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>


static int contains_any(const char *s, const char *const *words)
{
    for (; *words; words++)
        if (strstr(s, *words))
            return 1;
    return 0;
}

static void check_backend(const char *name, const char *runtime, const char *const *why_words)
{
    ps_backend *b = NULL;
    const ps_backend_ops *ops;
    ps_device_info devs[8];
    ps_context *ctx = NULL;
    ps_config cfg;
    ps_grid g = {4, 5, 6};
    char reason[2048];
    void *dl;
    int st, n = 0, d;

    st = ps_backend_open(name, &b);
    if (st) {
        FAILF("%s: ps_backend_open: %s (%s)", name, ps_strerror(st), ps_error_detail());
        return;
    }
    printf("%s: loaded from %s\n", name, ps_backend_path(b));
    ops = ps_backend_get_ops(b);
    if (!(ops->flags & PS_BACKEND_GPU) || !ops->timing || strcmp(ops->name, name))
        FAILF("%s: ops table: flags 0x%x, timing %p, name '%s'", name, ops->flags,
              (void *)ops->timing, ops->name);

    /* only the entry point is exported */
    dl = dlopen(ps_backend_path(b), RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        FAILF("%s: dlopen %s: %s", name, ps_backend_path(b), dlerror());
    } else {
        if (!dlsym(dl, PS_PLUGIN_ENTRY))
            FAILF("%s: %s not exported", name, PS_PLUGIN_ENTRY);
        if (dlsym(dl, "ps_gpu_launch_exact") || dlsym(dl, "ps_gpu_launch_fast"))
            FAILF("%s: internal launchers are exported", name);
        /* the CUDA runtime is linked statically and must stay private (HIP's
         * libamdhip64 is a shared dependency, visible through the handle) */
        if (!strcmp(name, "cuda") && dlsym(dl, "cudaMalloc"))
            FAILF("%s: the static CUDA runtime's symbols are exported", name);
        /* no dlclose: vendor runtimes must stay mapped (see ps_backend_close) */
    }

    st = ps_backend_probe(b, devs, 8, &n);
    if (st == PS_OK) {
        printf("%s: %d device(s); no-device checks not applicable here\n", name, n);
        for (d = 0; d < n && d < 8; d++) {
            printf("  %d: %s [%s] %s\n", d, devs[d].name, devs[d].type, devs[d].detail);
            if (!devs[d].name[0] || strcmp(devs[d].type, "gpu") || !devs[d].memory_bytes ||
                devs[d].compute_units <= 0 || !(devs[d].caps & PS_CAP_EXACT_F32))
                FAILF("%s: device %d is described incompletely", name, d);
            if (!strstr(devs[d].detail, "driver") || !strstr(devs[d].detail, "runtime"))
                FAILF("%s: device %d detail lacks driver/runtime versions", name, d);
        }
        /* a device index past the end is refused with a reason */
        ps_config_init(&cfg, g, PS_FLOAT32);
        cfg.device = n;
        st = ps_context_create(b, &cfg, &ctx);
        if (st != PS_ENODEVICE || !strstr(ps_error_detail(), "does not exist"))
            FAILF("%s: device %d: got %s (%s), expected PS_ENODEVICE 'does not exist'", name,
                  n, ps_strerror(st), ps_error_detail());
        ps_context_destroy(ctx);
        ps_backend_close(b);
        return;
    }
    snprintf(reason, sizeof reason, "%s", ps_error_detail());
    printf("%s: probe: %s: %s\n", name, ps_strerror(st), reason);
    if (st != PS_ENODEVICE)
        FAILF("%s: probe returned %s, expected PS_ENODEVICE", name, ps_strerror(st));
    if (n != 0)
        FAILF("%s: probe failed but reported %d devices", name, n);
    if (strncmp(reason, name, strlen(name)) || !strstr(reason, runtime) ||
        !contains_any(reason, why_words))
        FAILF("%s: reason '%s' does not name the backend, %s and the driver/device", name,
              reason, runtime);

    /* creating a context (default device, and device 0 explicitly) fails the same way */
    for (d = -1; d <= 0; d++) {
        ps_config_init(&cfg, g, PS_FLOAT32);
        cfg.device = d;
        st = ps_context_create(b, &cfg, &ctx);
        if (st != PS_ENODEVICE || ctx)
            FAILF("%s: create (device %d) returned %s, expected PS_ENODEVICE", name, d,
                  ps_strerror(st));
        else if (strcmp(ps_error_detail(), reason))
            FAILF("%s: create says '%s', probe said '%s'", name, ps_error_detail(), reason);
        ps_context_destroy(ctx);
        ctx = NULL;
    }
    ps_backend_close(b);
}

int main(void)
{
    static const char *const cuda_words[] = {"driver", "device", NULL};
    static const char *const hip_words[] = {"ROCm", "device", NULL};
    int built = 0;
    if (ps_backend_is_built("cuda")) {
        built++;
        check_backend("cuda", "CUDA", cuda_words);
    } else {
        printf("cuda: not built (configure found no nvcc)\n");
    }
    if (ps_backend_is_built("hip")) {
        built++;
        check_backend("hip", "HIP", hip_words);
    } else {
        printf("hip: not built (configure found no hipcc)\n");
    }
    if (!built) {
        printf("SKIP: neither the cuda nor the hip plugin was built\n");
        return 77;
    }
    if (ps_test_failures)
        printf("%d failure(s)\n", ps_test_failures);
    return ps_test_failures ? 1 : 0;
}
