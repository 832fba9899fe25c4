/*
 * A pstencil job on a field in this program's memory: hdiff (physical
 * horizontal and vertical diffusion) on a small basin with a land border,
 * its coordinates given, no input file, through libpstencil-job.
 *
 *   cc job.c -o job $(pkg-config --cflags --libs pstencil-job)
 *   ./job [OUTPUT.nc]           (with OUTPUT.nc, the records are written too)
 *
 * The backend is $PSTENCIL_BACKEND, else the best that runs here (auto).
 * It prints each record's step, volume mean (the job's reduction of the
 * record, ps_job_record_reduction()) and warmest ocean value, then the backend,
 * the model time step the stencil chose and the checksum. The job reads the
 * field in place and leaves the result in `result`: neither is copied or
 * freed by the library. Exit status 0 on success, 1 on any error (with its
 * detail).
 */
#include <pstencil/pstencil_job.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NZ 8
#define NY 24
#define NX 32

static int on_record(void *user, long step, const ps_field *f)
{
    const ps_reduction *red = ps_job_record_reduction(user, 0); /* user: the job */
    const double *t = f->data;
    double warmest = -INFINITY;
    size_t q, n = ps_field_cells(f);
    for (q = 0; q < n; q++)
        if (!isnan(t[q]) && t[q] > warmest)
            warmest = t[q];
    printf("record at step %4ld: volume mean %.9f degC, warmest ocean %.9f degC\n", step,
           red ? red->mean : NAN, warmest);
    return 0;
}

static int fail(ps_job *j, const char *what)
{
    fprintf(stderr, "job: %s: %s\n", what, ps_error_detail());
    ps_job_destroy(j);
    return 1;
}

int main(int argc, char **argv)
{
    static double temp[NZ * NY * NX], out[NZ * NY * NX], depth[NZ], lat[NY], lon[NX];
    ps_grid g = {NZ, NY, NX};
    ps_field field = {.grid = g, .precision = PS_FLOAT64, .data = temp};
    ps_field result = {.grid = g, .precision = PS_FLOAT64, .data = out};
    ps_grid_coords coords = {depth, lat, lon};
    ps_job_callbacks cb = {.record = on_record};
    const ps_job_report *r;
    ps_job *j = NULL;
    size_t k, y, x;

    /* a basin: 10 degC water, a warm patch below the surface, land (NaN) on its rim;
     * the model holds the grid's outer cells (surface and bottom levels too) fixed */
    for (k = 0; k < NZ; k++)
        depth[k] = 5.0 + 20.0 * (double)k;
    for (y = 0; y < NY; y++)
        lat[y] = 30.0 + 0.5 * (double)y;
    for (x = 0; x < NX; x++)
        lon[x] = -40.0 + 0.5 * (double)x;
    for (k = 0; k < NZ; k++)
        for (y = 0; y < NY; y++)
            for (x = 0; x < NX; x++) {
                double v = 10.0;
                if (y == 0 || y == NY - 1 || x == 0 || x == NX - 1)
                    v = NAN;
                else if (k > 1 && k < 4 && y > 8 && y < 14 && x > 10 && x < 18)
                    v = 20.0;
                temp[(k * NY + y) * NX + x] = v;
            }

    if (ps_job_create(&j))
        return fail(j, "create");
    if (ps_job_set(j, "stencil", "hdiff") || ps_job_set(j, "kh", "2000") ||
        ps_job_set(j, "dt", "auto") || ps_job_set(j, "steps", "200") ||
        ps_job_set(j, "output-every", "50") || ps_job_set(j, "precision", "double"))
        return fail(j, "options");
    if (argc > 1 && (ps_job_set(j, "output", argv[1]) || ps_job_set(j, "force", NULL)))
        return fail(j, "output");
    ps_job_set_input_field(j, &field, &coords);
    ps_job_set_result(j, &result);
    cb.user = j;
    ps_job_set_callbacks(j, &cb);
    if (ps_job_prepare(j))
        return fail(j, "prepare");
    if (ps_job_run(j))
        return fail(j, "run");
    r = ps_job_get_report(j);
    printf("backend %s on %s; dt %.6g s (stable limit %.6g s); %ld steps; checksum "
           "0x%016llx\n", r->backend, r->device.name, r->seconds_per_step, r->stable_limit,
           r->steps, (unsigned long long)r->checksum);
    if (r->output)
        printf("written: %s\n", r->output);
    ps_job_destroy(j);
    return 0;
}
