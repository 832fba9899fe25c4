/*
 * The GPU backend's devices: how many there are, what each is (probe), and
 * why there is none, in words a user can act on.
 */
#include "config.h"
#include "ps_gpu_context.h"

#include <stdio.h>
#include <string.h>

namespace {

/* Why there is no device (e: what counting the devices answered). */
void no_device_reason(gpuError_t e, char *why, size_t whylen)
{
    int drv = 0, rt = 0;
    (void)gpuDriverGetVersion(&drv);
    (void)gpuRuntimeGetVersion(&rt);
#ifdef PS_GPU_PORT_HIP
    FILE *kfd = fopen("/dev/kfd", "r");
    snprintf(why, whylen,
             "no HIP device: hipGetDeviceCount: %s (%s); %s (HIP runtime %d, driver %d)",
             gpuGetErrorString(e), gpuGetErrorName(e),
             kfd ? "/dev/kfd exists but no usable AMD GPU was found"
                 : "no ROCm kernel driver (/dev/kfd is missing)",
             rt, drv);
    if (kfd)
        fclose(kfd);
#else
    if (e == gpuErrorInsufficientDriver && drv == 0)
        snprintf(why, whylen,
                 "no CUDA driver: cudaGetDeviceCount: %s (libcuda.so.1 could not be loaded; "
                 "the plugin carries CUDA runtime %d.%d)",
                 gpuGetErrorString(e), rt / 1000, (rt % 1000) / 10);
    else if (e == gpuErrorInsufficientDriver)
        snprintf(why, whylen,
                 "no usable CUDA device: the CUDA driver (%d.%d) is older than the plugin's "
                 "CUDA runtime (%d.%d): %s",
                 drv / 1000, (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10,
                 gpuGetErrorString(e));
    else
        snprintf(why, whylen, "no CUDA device: cudaGetDeviceCount: %s (%s; CUDA driver %d.%d)",
                 gpuGetErrorString(e), gpuGetErrorName(e), drv / 1000, (drv % 1000) / 10);
#endif
}

void describe(int d, ps_device_info *info)
{
    gpuDeviceProp p;
    int drv = 0, rt = 0, memclk = 0;
    memset(info, 0, sizeof *info);
    if (gpuGetDeviceProperties(&p, d) != gpuSuccess) {
        snprintf(info->name, sizeof info->name, "device %d (properties unavailable)", d);
        return;
    }
    (void)gpuDriverGetVersion(&drv);
    (void)gpuRuntimeGetVersion(&rt);
    (void)gpuDeviceGetAttribute(&memclk, gpuDevAttrMemoryClockRate, d);
    snprintf(info->name, sizeof info->name, "%.127s", p.name);
    snprintf(info->type, sizeof info->type, "gpu");
    info->memory_bytes = (uint64_t)p.totalGlobalMem;
    info->compute_units = p.multiProcessorCount;
    info->caps = PS_CAP_FP64 | PS_CAP_EXACT_F32 | PS_CAP_EXACT_F64 | PS_CAP_FAST;
#ifdef PS_GPU_PORT_HIP
    snprintf(info->detail, sizeof info->detail,
             "%.64s, %d CUs, %.1f GiB, L2 %d KiB, %d-bit memory bus at %d MHz (peak %.0f GB/s), "
             "HIP runtime %d, driver %d, PCI %04x:%02x:%02x",
             p.gcnArchName, p.multiProcessorCount, (double)p.totalGlobalMem / 1073741824.0,
             p.l2CacheSize / 1024, p.memoryBusWidth, memclk / 1000,
             2.0 * memclk * 1e3 * (p.memoryBusWidth / 8) / 1e9, rt, drv, p.pciDomainID,
             p.pciBusID, p.pciDeviceID);
#else
    snprintf(info->detail, sizeof info->detail,
             "compute capability %d.%d, %d SMs, %.1f GiB, L2 %d KiB, %d-bit memory bus at %d "
             "MHz (peak %.0f GB/s), CUDA driver %d.%d, runtime %d.%d, PCI %04x:%02x:%02x",
             p.major, p.minor, p.multiProcessorCount, (double)p.totalGlobalMem / 1073741824.0,
             p.l2CacheSize / 1024, p.memoryBusWidth, memclk / 1000,
             2.0 * memclk * 1e3 * (p.memoryBusWidth / 8) / 1e9, drv / 1000, (drv % 1000) / 10,
             rt / 1000, (rt % 1000) / 10, p.pciDomainID, p.pciBusID, p.pciDeviceID);
#endif
}

} /* namespace */

int ps_gpu_count_devices(int *n, char *why, size_t whylen)
{
    gpuError_t e = gpuGetDeviceCount(n);
    if (e != gpuSuccess || *n <= 0) {
        if (e == gpuSuccess)
            e = gpuErrorNoDevice;
        *n = 0;
        no_device_reason(e, why, whylen);
        (void)gpuGetLastError(); /* clear the runtime's last-error state */
        return PS_ENODEVICE;
    }
    return PS_OK;
}

int ps_gpu_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen)
{
    int n = 0, d, st;
    *ndevs = 0;
    st = ps_gpu_count_devices(&n, why, whylen);
    if (st)
        return st;
    for (d = 0; d < n && d < max; d++)
        describe(d, &devs[d]);
    *ndevs = n < max ? n : max;
    return PS_OK;
}
