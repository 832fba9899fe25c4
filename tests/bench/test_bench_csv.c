/* The benchmark's result rows: CSV round trip (quoting, n/a), header,
 * malformed input rejected with a reason, statistics, speedups and noise. */
#include "config.h"
#include "pstencil.h"
#include "ps_bench.h"
#include "../ps_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static void row(ps_bench_row *r, const char *backend, double step_ms, double spread)
{
    memset(r, 0, sizeof *r);
    snprintf(r->gpu_name, sizeof r->gpu_name, "none");
    snprintf(r->cpu_name, sizeof r->cpu_name, "CPU, with \"quotes\" and commas");
    snprintf(r->method, sizeof r->method, "pstencil %s float32 (CPU)", backend);
    snprintf(r->experiment, sizeof r->experiment, "steps");
    snprintf(r->backend, sizeof r->backend, "%s", backend);
    snprintf(r->precision, sizeof r->precision, "float32");
    r->num_timesteps = 10;
    r->mean_time_sec = step_ms * 1e-2;
    r->std_dev_sec = r->mean_time_sec * spread;
    r->nz = 50, r->ny = 222, r->nx = 241;
    r->cells = 50.0 * 222 * 241;
    r->step_ms = step_ms;
    r->spread = spread;
    r->scale = 1;
    r->bound_gbps = NAN;
    r->job_mean_s = 0.123456789;
    r->dram_bound_gbps = 21.5;
    r->peak_device_mb = NAN;
    r->speedup_ref = NAN;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

int main(void)
{
    char path[] = "/tmp/pstencil-test-bench-XXXXXX";
    int fd = mkstemp(path), n = 0, st;
    ps_bench_row rows[3], *back = NULL;
    FILE *f;
    double x[4] = {1, 2, 3, 4}, mean, sd;

    if (fd < 0)
        return 99;
    close(fd);

    /* header starts with the course's six columns */
    {
        const char *course = "gpu_name,cpu_name,method,num_timesteps,mean_time_sec,std_dev_sec,";
        EXPECT(!strncmp(ps_bench_csv_header(), course, strlen(course)));
    }

    /* round trip */
    row(&rows[0], "reference", 20.0, 0.01);
    row(&rows[1], "openmp", 1.0, 0.02);
    row(&rows[2], "opencl", 19.9, 0.05);
    f = fopen(path, "w");
    EXPECT(ps_bench_csv_write(f, rows, 3) == 0);
    fclose(f);
    st = ps_bench_csv_read(path, &back, &n);
    EXPECT(st == 0);
    EXPECT(n == 3);
    if (st == 0 && n == 3) {
        EXPECT(!strcmp(back[0].cpu_name, rows[0].cpu_name));
        EXPECT(!strcmp(back[1].method, "pstencil openmp float32 (CPU)"));
        EXPECT(back[1].num_timesteps == 10);
        EXPECT(back[0].nx == 241);
        EXPECT(isnan(back[0].bound_gbps));     /* n/a */
        EXPECT(fabs(back[0].job_mean_s - 0.123456789) < 1e-12);
        EXPECT(back[2].dram_bound_gbps == 21.5);
        /* speedups: openmp 20x, not noise; opencl within the spread: noise */
        ps_bench_speedups(back, n);
        EXPECT(fabs(back[1].speedup_ref - 20.0) < 1e-9 && !back[1].speedup_noise);
        EXPECT(back[2].speedup_noise == 1);
        EXPECT(back[0].speedup_ref == 1.0 && back[0].speedup_noise == 0);
    }
    free(back);

    /* malformed files are rejected with a reason */
    write_file(path, "a,b,c\n1,2,3\n");
    EXPECT(ps_bench_csv_read(path, &back, &n) == PS_EFORMAT);
    EXPECT(strstr(ps_error_detail(), "gpu_name") != NULL);
    f = fopen(path, "w");
    fprintf(f, "%s\n", ps_bench_csv_header());
    fputs("none,cpu,m,ten,1,2\n", f);
    fclose(f);
    EXPECT(ps_bench_csv_read(path, &back, &n) == PS_EFORMAT);
    write_file(path, "gpu_name,cpu_name,method,num_timesteps,mean_time_sec,std_dev_sec\n"
                     "none,cpu,m,10,1.5,abc\n");
    EXPECT(ps_bench_csv_read(path, &back, &n) == PS_EFORMAT);
    EXPECT(strstr(ps_error_detail(), "std_dev_sec") != NULL);
    /* the course's own six columns alone are enough */
    write_file(path, "gpu_name,cpu_name,method,num_timesteps,mean_time_sec,std_dev_sec\n"
                     "NVIDIA H100 NVL,AMD EPYC 9V84 96-Core Processor,NumPy (CPU),100,347.883550,3.980833\n");
    st = ps_bench_csv_read(path, &back, &n);
    EXPECT(st == 0 && n == 1 && back && back[0].num_timesteps == 100 &&
          fabs(back[0].mean_time_sec - 347.88355) < 1e-9);
    free(back);
    back = NULL;
    EXPECT(ps_bench_csv_read("/nonexistent/x.csv", &back, &n) == PS_EIO);

    /* statistics: sample standard deviation */
    ps_bench_stats(x, 4, &mean, &sd);
    EXPECT(mean == 2.5 && fabs(sd - sqrt(5.0 / 3.0)) < 1e-12);
    ps_bench_stats(x, 1, &mean, &sd);
    EXPECT(mean == 1 && sd == 0);

    /* the copy bound measures something plausible */
    {
        ps_stream_result r;
        EXPECT(ps_stream_copy(1 << 20, 1, 2, &r) == 0);
        EXPECT(r.best_gbps > 0.1 && r.best_gbps < 1e5 && r.array_bytes == 1 << 20);
    }
    EXPECT(ps_bench_peak_host_mb() > 0);

    unlink(path);
    if (ps_test_failures)
        fprintf(stderr, "%d failure(s)\n", ps_test_failures);
    return ps_test_failures ? 1 : 0;
}
