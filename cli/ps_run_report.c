/* The end-of-run report and the --profile JSON. */
#include "config.h"
#include "ps_run_report.h"
#include "ps_outfile.h"
#include "ps_json.h"
#include "ps_bench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

/* Where a threaded CPU backend's OpenMP threads run (measured once), or NULL. */
static const ps_bench_placement *placement_of(const run_report *r)
{
    static ps_bench_placement p;
    static int have;
    if (!(r->backend_flags & PS_BACKEND_THREADS) || (r->backend_flags & PS_BACKEND_GPU))
        return NULL;
    if (!have)
        ps_bench_thread_placement(r->threads, &p);
    have = 1;
    return &p;
}

static void phase(FILE *f, const char *name, double s, double total)
{
    fprintf(f, "    %-22s %9.3f s  %5.1f%%\n", name, s, total > 0 ? 100.0 * s / total : 0.0);
}

/* Peak resident set of this process in MiB: the job's, else bench's reader (0 when unknown). */
static double peak_rss_mib(const run_report *r)
{
    double mb = r->host_peak_mib > 0 ? r->host_peak_mib : ps_bench_peak_host_mb();
    return isnan(mb) ? 0 : mb;
}

void ps_run_report_checksums(FILE *f, const ps_job_report *r)
{
    int i;
    if (!r || r->fields < 2)
        return;
    fprintf(f, "  fields      :");
    for (i = 0; i < r->fields && i < PS_JOB_MAX_FIELDS; i++)
        fprintf(f, "%s %s 0x%016llx", i ? "," : "", r->field_names[i],
                (unsigned long long)r->field_checksum[i]);
    fprintf(f, " (FNV-1a of each field's final bits)\n");
}

void ps_run_report_reductions(FILE *f, const ps_job_report *r)
{
    int i;
    for (i = 0; r && i < r->fields && i < PS_JOB_MAX_FIELDS && r->records; i++) {
        const ps_reduction *q = &r->reduction[i];
        fprintf(f, "  %-11s : mean %.10g, min %.10g, max %.10g over %lld ocean cells",
                r->field_names[i], q->mean, q->min, q->max, q->cells);
        if (r->volume_metric)
            fprintf(f, " (%.6g m3)", q->volume);
        else
            fprintf(f, " (each weighing 1)");
        fprintf(f, ", last record\n");
    }
}

void ps_run_report_print(FILE *f, const run_report *r)
{
    const ps_run_stats *s = r->stats;
    size_t cells = ps_field_cells(r->field);
    double per_step = s->steps > 0 ? s->step_s / (double)s->steps : 0;
    int i;
    double write_s = s->snapshot_s + r->commit_s;
    double other = r->total_s - (r->read_s + r->backend_s + r->prepare_s + r->open_s +
                                 s->create_s + s->upload_s + s->step_s + s->download_s +
                                 write_s);
    fprintf(f, "pstencil run: %ld step%s of %s (", s->steps, s->steps == 1 ? "" : "s",
            r->stencil->name);
    print_options(f, r);
    fprintf(f, ") on %s\n", r->input);
    for (i = 0; r->job && i < r->job->ninputs && i < PS_JOB_MAX_INPUTS; i++)
        fprintf(f, "  input %-5s : %s\n", r->job->input_names[i], r->job->input_from[i]);
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
    if (placement_of(r))
        fprintf(f, "  threads     : %s\n", placement_of(r)->summary);
    if (s->choices[0])
        fprintf(f, "  kernel path : %s\n", s->choices);
    fprintf(f, "  total time  : %.3f s\n", r->total_s);
    if (s->steps > 0) {
        /* a step of several fields updates every field's cells */
        int nf = r->job && r->job->fields > 1 ? r->job->fields : 1;
        double upd = (double)cells * nf;
        fprintf(f, "  per step    : %.3f ms  (%.3g cell updates/s%s, %.2f GB/s compulsory "
                "traffic)\n", 1e3 * per_step, upd / per_step, nf > 1 ? " over the fields" : "",
                2.0 * upd * (double)ps_precision_size(r->precision) / per_step / 1e9);
    }
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
    if (s->boxes > 1 && s->workers > 1) {
        fprintf(f, "  concurrent  : boxes stepped at once on %d host threads", s->workers);
        if (s->box_threads > 0)
            fprintf(f, ", up to %d CPU thread%s per box", s->box_threads,
                    s->box_threads == 1 ? "" : "s");
        fprintf(f, "\n");
    }
    if (s->ooc_slabs > 1)
        fprintf(f, "  out of core : %d slabs along %c, ghost %u, %ld pass%s, %.0f bytes moved "
                "per step\n", s->ooc_slabs, "kji"[s->ooc_axis % 3], s->ooc_ghost, s->ooc_passes,
                s->ooc_passes == 1 ? "" : "es",
                s->steps > 0 ? s->ooc_bytes / (double)s->steps : 0.0);
    fprintf(f, "  memory      : host peak %.1f MiB (RSS), device %.1f MiB held%s%s\n",
            peak_rss_mib(r), (double)s->device_bytes_held / 1048576.0,
            s->ooc_slabs > 1 ? " (one slab at a time)" : "",
            s->in_place ? ", the field stepped in place" : "");
    fprintf(f, "  checksum    : 0x%016llx (FNV-1a of the final field's bits)\n",
            (unsigned long long)ps_field_checksum(r->field));
    ps_run_report_checksums(f, r->job);
    ps_run_report_reductions(f, r->job);
    fprintf(f, "  output      : %s\n", r->output);
    fprintf(f, "  where the time went:\n");
    phase(f, "read input", r->read_s, r->total_s);
    if (r->backend_s > 0)
        phase(f, "choose backend", r->backend_s, r->total_s);
    if (r->prepare_s > 0)
        phase(f, "prepare", r->prepare_s, r->total_s);
    if (r->open_s > 0)
        phase(f, "open output", r->open_s, r->total_s);
    phase(f, "backend set-up", s->create_s, r->total_s);
    phase(f, "upload", s->upload_s, r->total_s);
    phase(f, "time steps", s->step_s, r->total_s);
    phase(f, "download", s->download_s, r->total_s);
    phase(f, "write output", write_s, r->total_s);
    if (other > 0.0005)
        phase(f, "other", other, r->total_s);
}

int ps_run_report_json(const char *path, const run_report *r, int force)
{
    const ps_run_stats *s = r->stats;
    ps_outfile of;
    FILE *f;
    long i;
    double mn, med, mx;
    time_t now = time(NULL);
    char stamp[64], sum[32];
    int st, bad;
    ps_json j;
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
    ps_json_init(&j, f, PS_JSON_PRETTY);
    ps_json_object_begin(&j);
    ps_json_kstring(&j, "pstencil_version", PACKAGE_VERSION);
    ps_json_kstring(&j, "date", stamp);
    ps_json_kstring(&j, "input", r->input);
    ps_json_kstring(&j, "output", r->output);
    ps_json_kstring(&j, "backend", r->backend);
    ps_json_kstring(&j, "device", r->device->name);
    ps_json_kstring(&j, "kernel_path", r->stats->choices);
    ps_json_kstring(&j, "knobs", r->stats->knobs);
    ps_json_kstring(&j, "precision", ps_precision_name(r->precision));
    ps_json_kstring(&j, "mode", ps_mode_name(r->mode));
    ps_json_kstring(&j, "stencil", r->stencil->name);
    ps_json_key(&j, "options");
    ps_json_object_begin(&j);
    ps_json_compact(&j);
    for (i = 0; i < r->stencil->noptions; i++) {
        if (isnan(r->options[i]))
            ps_json_kstring(&j, r->stencil->options[i].name, "auto");
        else
            ps_json_knumber(&j, r->stencil->options[i].name, r->options[i]);
    }
    ps_json_object_end(&j);
    if (r->job && r->job->ninputs > 0) {
        /* the stencil's auxiliary inputs: where each came from */
        ps_json_key(&j, "inputs");
        ps_json_object_begin(&j);
        for (i = 0; i < r->job->ninputs && i < PS_JOB_MAX_INPUTS; i++)
            ps_json_kstring(&j, r->job->input_names[i], r->job->input_from[i]);
        ps_json_object_end(&j);
    }
    ps_json_knumber(&j, "seconds_per_step", r->seconds_per_step);
    ps_json_key(&j, "grid");
    ps_json_array_begin(&j);
    ps_json_compact(&j);
    ps_json_uint(&j, r->field ? r->field->grid.nz : r->grid.nz);
    ps_json_uint(&j, r->field ? r->field->grid.ny : r->grid.ny);
    ps_json_uint(&j, r->field ? r->field->grid.nx : r->grid.nx);
    ps_json_array_end(&j);
    ps_json_kint(&j, "steps", s->steps);
    ps_json_key(&j, "memory");
    ps_json_object_begin(&j);
    ps_json_compact(&j);
    ps_json_knumber_fmt(&j, "host_peak_rss_mib", peak_rss_mib(r), "%.3f");
    ps_json_kint(&j, "device_bytes_held", (long long)r->stats->device_bytes_held);
    ps_json_kint(&j, "boxes", r->stats->boxes);
    ps_json_kbool(&j, "in_place", r->stats->in_place);
    ps_json_kint(&j, "ooc_slabs", r->stats->ooc_slabs);
    ps_json_knumber_fmt(&j, "ooc_bytes", r->stats->ooc_bytes, "%.0f");
    ps_json_object_end(&j);
    snprintf(sum, sizeof sum, "0x%016llx",
             (unsigned long long)(r->field ? ps_field_checksum(r->field) : r->checksum));
    ps_json_kstring(&j, "checksum", sum);
    if (r->job && r->job->fields > 1) {
        /* each field's final state */
        ps_json_key(&j, "checksums");
        ps_json_object_begin(&j);
        ps_json_compact(&j);
        for (i = 0; i < r->job->fields && i < PS_JOB_MAX_FIELDS; i++) {
            snprintf(sum, sizeof sum, "0x%016llx",
                     (unsigned long long)r->job->field_checksum[i]);
            ps_json_kstring(&j, r->job->field_names[i], sum);
        }
        ps_json_object_end(&j);
    }
    if (r->job && r->job->fields > 0 && r->job->records) {
        /* the last record's reductions, every digit */
        ps_json_key(&j, "reductions");
        ps_json_object_begin(&j);
        for (i = 0; i < r->job->fields && i < PS_JOB_MAX_FIELDS; i++) {
            const ps_reduction *q = &r->job->reduction[i];
            ps_json_key(&j, r->job->field_names[i]);
            ps_json_object_begin(&j);
            ps_json_compact(&j);
            ps_json_knumber_fmt(&j, "content", q->content, "%.17g");
            ps_json_knumber_fmt(&j, "volume", q->volume, "%.17g");
            ps_json_knumber_fmt(&j, "mean", q->mean, "%.17g");
            ps_json_knumber_fmt(&j, "min", q->min, "%.17g");
            ps_json_knumber_fmt(&j, "max", q->max, "%.17g");
            ps_json_kint(&j, "cells", q->cells);
            ps_json_kint(&j, "volume_metric", r->job->volume_metric);
            ps_json_object_end(&j);
        }
        ps_json_object_end(&j);
    }
    ps_json_key(&j, "phases_s");
    ps_json_object_begin(&j);
    ps_json_compact(&j);
    ps_json_knumber_fmt(&j, "read", r->read_s, "%.9f");
    ps_json_knumber_fmt(&j, "choose_backend", r->backend_s, "%.9f");
    ps_json_knumber_fmt(&j, "prepare", r->prepare_s, "%.9f");
    ps_json_knumber_fmt(&j, "open_output", r->open_s, "%.9f");
    ps_json_knumber_fmt(&j, "setup", s->create_s, "%.9f");
    ps_json_knumber_fmt(&j, "upload", s->upload_s, "%.9f");
    ps_json_knumber_fmt(&j, "steps", s->step_s, "%.9f");
    ps_json_knumber_fmt(&j, "download", s->download_s, "%.9f");
    ps_json_knumber_fmt(&j, "write", s->snapshot_s + r->commit_s, "%.9f");
    ps_json_knumber_fmt(&j, "total", r->total_s, "%.9f");
    ps_json_object_end(&j);
    ps_json_key(&j, "step_ms");
    ps_json_object_begin(&j);
    ps_json_compact(&j);
    ps_json_knumber_fmt(&j, "min", 1e3 * mn, "%.6f");
    ps_json_knumber_fmt(&j, "median", 1e3 * med, "%.6f");
    ps_json_knumber_fmt(&j, "max", 1e3 * mx, "%.6f");
    ps_json_knumber_fmt(&j, "mean", s->steps ? 1e3 * s->step_s / (double)s->steps : 0.0, "%.6f");
    ps_json_object_end(&j);
    if (s->have_device_timing) {
        ps_json_key(&j, "device_step_ms");
        ps_json_object_begin(&j);
        ps_json_compact(&j);
        ps_json_knumber_fmt(&j, "min", s->device.step_ms_min, "%.6f");
        ps_json_knumber_fmt(&j, "median", s->device.step_ms_med, "%.6f");
        ps_json_knumber_fmt(&j, "max", s->device.step_ms_max, "%.6f");
        ps_json_kint(&j, "steps", s->device.steps);
        ps_json_object_end(&j);
    }
    if (placement_of(r)) {
        ps_json_key(&j, "thread_placement");
        ps_bench_json_placement(&j, placement_of(r));
    }
    ps_json_key(&j, "per_step_ms");
    ps_json_array_begin(&j);
    ps_json_compact(&j);
    for (i = 0; s->step_times && i < s->steps; i++)
        ps_json_number_fmt(&j, 1e3 * s->step_times[i], "%.6f");
    ps_json_array_end(&j);
    ps_json_object_end(&j);
    if ((st = ps_json_finish(&j))) {
        fclose(f);
        ps_outfile_abort(&of);
        return ps_error(st, "cannot write the profile %s: %s", path, ps_error_detail());
    }
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
