/* The end-of-run report and the --profile JSON. */
#include "config.h"
#include "ps_run_report.h"
#include "ps_outfile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static size_t count_ocean(const ps_field *f)
{
    size_t n = ps_field_cells(f), i, c = 0;
    if (f->precision == PS_FLOAT64) {
        const double *d = f->data;
        for (i = 0; i < n; i++)
            c += !isnan(d[i]);
    } else {
        const float *d = f->data;
        for (i = 0; i < n; i++)
            c += !isnan(d[i]);
    }
    return c;
}

/* "kh = 1000 m2/s, kv = 1e-05 m2/s, dt = auto" */
static void print_options(FILE *f, const run_report *r)
{
    int o;
    for (o = 0; o < r->stencil->noptions; o++) {
        const ps_stencil_option *op = &r->stencil->options[o];
        if (o)
            fputs(", ", f);
        if (isnan(r->options[o]))
            fprintf(f, "%s = auto", op->name);
        else
            fprintf(f, "%s = %g%s%s", op->name, r->options[o], strcmp(op->unit, "1") ? " " : "",
                    strcmp(op->unit, "1") ? op->unit : "");
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* min/median/max of per-step times (seconds) */
static void step_stats(const ps_run_stats *s, double *mn, double *med, double *mx)
{
    double *tmp;
    long n = s->steps, i;
    *mn = *med = *mx = 0;
    if (!s->step_times || n <= 0)
        return;
    tmp = malloc((size_t)n * sizeof *tmp);
    if (!tmp)
        return;
    for (i = 0; i < n; i++)
        tmp[i] = s->step_times[i];
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
    *mn = tmp[0];
    *mx = tmp[n - 1];
    *med = (n % 2) ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
    free(tmp);
}

static void phase(FILE *f, const char *name, double s, double total)
{
    fprintf(f, "    %-22s %9.3f s  %5.1f%%\n", name, s, total > 0 ? 100.0 * s / total : 0.0);
}

/* Peak resident set of this process in MiB (VmHWM, else ru_maxrss). */
static double peak_rss_mib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    struct rusage ru;
    if (f) {
        while (fgets(line, sizeof line, f)) {
            unsigned long kb;
            if (sscanf(line, "VmHWM: %lu kB", &kb) == 1) {
                fclose(f);
                return kb / 1024.0;
            }
        }
        fclose(f);
    }
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        return ru.ru_maxrss / 1024.0;
    return 0;
}

void ps_run_report_print(FILE *f, const run_report *r)
{
    const ps_run_stats *s = r->stats;
    size_t cells = ps_field_cells(r->field);
    double per_step = s->steps > 0 ? s->step_s / (double)s->steps : 0;
    double write_s = s->snapshot_s + r->commit_s;
    double other = r->total_s - (r->read_s + s->create_s + s->upload_s + s->step_s +
                                 s->download_s + write_s);
    fprintf(f, "pstencil run: %ld step%s of %s (", s->steps, s->steps == 1 ? "" : "s",
            r->stencil->name);
    print_options(f, r);
    fprintf(f, ") on %s\n", r->input);
    fprintf(f, "  grid        : %zu x %zu x %zu (depth x lat x lon) = %zu cells, %zu ocean\n",
            r->field->grid.nz, r->field->grid.ny, r->field->grid.nx, cells,
            count_ocean(r->field));
    fprintf(f, "  backend     : %s on %s, %s, %s mode\n", r->backend, r->device->name,
            ps_precision_name(r->precision), ps_mode_name(r->mode));
    if (r->backend_path && strcmp(r->backend_path, "built-in"))
        fprintf(f, "  plugin      : %s (%s)\n", r->backend_path,
                r->backend_origin ? r->backend_origin : "?");
    if (r->seconds_per_step > 0) {
        double mt = r->seconds_per_step * (double)s->steps;
        fprintf(f, "  model time  : %ld x %.6g s = %.6g s (%.4g days)", s->steps,
                r->seconds_per_step, mt, mt / 86400.0);
        if (r->stable_limit > 0)
            fprintf(f, "; stable limit %.6g s", r->stable_limit);
        fputc('\n', f);
    }
    fprintf(f, "  total time  : %.3f s\n", r->total_s);
    if (s->steps > 0)
        fprintf(f, "  per step    : %.3f ms  (%.3g cells/s, %.2f GB/s compulsory traffic)\n",
                1e3 * per_step, (double)cells / per_step,
                2.0 * (double)cells * (double)ps_precision_size(r->precision) / per_step / 1e9);
    if (s->step_times) {
        double mn, med, mx;
        step_stats(s, &mn, &med, &mx);
        fprintf(f, "  step time   : min %.3f ms, median %.3f ms, max %.3f ms (host, synchronised)\n",
                1e3 * mn, 1e3 * med, 1e3 * mx);
    }
    if (s->have_device_timing && s->device.steps > 0)
        fprintf(f, "  device step : min %.3f ms, median %.3f ms, max %.3f ms (device events)\n",
                s->device.step_ms_min, s->device.step_ms_med, s->device.step_ms_max);
    if (s->boxes > 1 && s->steps > 0)
        fprintf(f, "  boxes       : %d (halo exchanges %.3f s, %.1f%% of the steps; %.0f bytes "
                "per step)\n", s->boxes, s->exchange_s,
                s->step_s > 0 ? 100.0 * s->exchange_s / s->step_s : 0.0,
                s->exchange_bytes / (double)s->steps);
    if (s->ooc_slabs > 1)
        fprintf(f, "  out of core : %d slabs along %c, %ld pass%s, %.0f bytes moved per step\n",
                s->ooc_slabs, "kji"[s->ooc_axis % 3], s->ooc_passes,
                s->ooc_passes == 1 ? "" : "es",
                s->steps > 0 ? s->ooc_bytes / (double)s->steps : 0.0);
    fprintf(f, "  memory      : host peak %.1f MiB (RSS), device %.1f MiB held%s\n",
            peak_rss_mib(), (double)s->device_bytes_held / 1048576.0,
            s->ooc_slabs > 1 ? " (one slab at a time)" : "");
    fprintf(f, "  checksum    : 0x%016llx (FNV-1a of the final field's bits)\n",
            (unsigned long long)ps_field_checksum(r->field));
    fprintf(f, "  output      : %s\n", r->output);
    fprintf(f, "  where the time went:\n");
    phase(f, "read input", r->read_s, r->total_s);
    phase(f, "backend set-up", s->create_s, r->total_s);
    phase(f, "upload", s->upload_s, r->total_s);
    phase(f, "time steps", s->step_s, r->total_s);
    phase(f, "download", s->download_s, r->total_s);
    phase(f, "write output", write_s, r->total_s);
    if (other > 0.0005)
        phase(f, "other", other, r->total_s);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

int ps_run_report_json(const char *path, const run_report *r, int force)
{
    const ps_run_stats *s = r->stats;
    ps_outfile of;
    FILE *f;
    long i;
    double mn, med, mx;
    time_t now = time(NULL);
    char stamp[64];
    int st, bad;
    /* a private mkstemp file beside the target, published without clobbering */
    if ((st = ps_outfile_begin(&of, path, force)))
        return st;
    f = fdopen(of.fd, "w");
    if (!f) {
        ps_outfile_abort(&of);
        return ps_error(PS_EIO, "cannot write the profile %s: %s", path, strerror(errno));
    }
    of.fd = -1; /* the stream owns it */
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    step_stats(s, &mn, &med, &mx);
    fprintf(f, "{\n  \"pstencil_version\": \"%s\",\n  \"date\": \"%s\",\n", PACKAGE_VERSION,
            stamp);
    fprintf(f, "  \"input\": ");
    json_str(f, r->input);
    fprintf(f, ",\n  \"output\": ");
    json_str(f, r->output);
    fprintf(f, ",\n  \"backend\": ");
    json_str(f, r->backend);
    fprintf(f, ",\n  \"device\": ");
    json_str(f, r->device->name);
    fprintf(f, ",\n  \"precision\": \"%s\",\n  \"mode\": \"%s\",\n  \"stencil\": ",
            ps_precision_name(r->precision), ps_mode_name(r->mode));
    json_str(f, r->stencil->name);
    fprintf(f, ",\n  \"options\": {");
    for (i = 0; i < r->stencil->noptions; i++) {
        fprintf(f, "%s", i ? ", " : "");
        json_str(f, r->stencil->options[i].name);
        if (isnan(r->options[i]))
            fprintf(f, ": \"auto\"");
        else
            fprintf(f, ": %.17g", r->options[i]);
    }
    fprintf(f, "},\n  \"seconds_per_step\": %.17g,\n", r->seconds_per_step);
    fprintf(f, "  \"grid\": [%zu, %zu, %zu],\n  \"steps\": %ld,\n", r->field->grid.nz,
            r->field->grid.ny, r->field->grid.nx, s->steps);
    fprintf(f, "  \"memory\": {\"host_peak_rss_mib\": %.3f, \"device_bytes_held\": %llu, "
            "\"boxes\": %d, \"ooc_slabs\": %d, \"ooc_bytes\": %.0f},\n", peak_rss_mib(),
            (unsigned long long)r->stats->device_bytes_held, r->stats->boxes,
            r->stats->ooc_slabs, r->stats->ooc_bytes);
    fprintf(f, "  \"checksum\": \"0x%016llx\",\n",
            (unsigned long long)ps_field_checksum(r->field));
    fprintf(f, "  \"phases_s\": {\"read\": %.9f, \"setup\": %.9f, \"upload\": %.9f, "
               "\"steps\": %.9f, \"download\": %.9f, \"write\": %.9f, \"total\": %.9f},\n",
            r->read_s, s->create_s, s->upload_s, s->step_s, s->download_s,
            s->snapshot_s + r->commit_s, r->total_s);
    fprintf(f, "  \"step_ms\": {\"min\": %.6f, \"median\": %.6f, \"max\": %.6f, \"mean\": %.6f},\n",
            1e3 * mn, 1e3 * med, 1e3 * mx, s->steps ? 1e3 * s->step_s / (double)s->steps : 0.0);
    if (s->have_device_timing)
        fprintf(f, "  \"device_step_ms\": {\"min\": %.6f, \"median\": %.6f, \"max\": %.6f, "
                   "\"steps\": %ld},\n",
                s->device.step_ms_min, s->device.step_ms_med, s->device.step_ms_max,
                s->device.steps);
    fprintf(f, "  \"per_step_ms\": [");
    for (i = 0; s->step_times && i < s->steps; i++)
        fprintf(f, "%s%.6f", i ? ", " : "", 1e3 * s->step_times[i]);
    fprintf(f, "]\n}\n");
    bad = ferror(f);
    if (fflush(f) != 0 || bad || fsync(fileno(f)) != 0) {
        int e = bad ? EIO : errno;
        fclose(f);
        ps_outfile_abort(&of);
        return ps_error(PS_EIO, "cannot write the profile %s: %s", path, strerror(e));
    }
    if (fclose(f) != 0) {
        ps_outfile_abort(&of);
        return ps_error(PS_EIO, "cannot write the profile %s: %s", path, strerror(errno));
    }
    return ps_outfile_publish(&of);
}
