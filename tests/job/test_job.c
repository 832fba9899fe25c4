/*
 * The job layer through its C API alone (no program, no file unless asked):
 * a field in the caller's memory runs bitwise as the engine runs it, the
 * input is left untouched or stepped in place as asked, records reach the
 * callback with their reductions (ps_job_record_reduction()), a cancel keeps what was completed, an output file written from
 * memory reads back, and bad options fail with the program's messages.
 */
#include "config.h"
#include "pstencil_job.h"
#include "../ps_test.h"

#include <unistd.h>

static const ps_grid G = {9, 13, 17};

/* the engine's result: the reference backend stepping @p in for @p steps */
static int engine_result(const char *stencil, const double *opts, const ps_test_coords *c,
                         const ps_field *in, long steps, ps_field *out)
{
    const ps_stencil *s = ps_stencil_find(stencil);
    ps_backend *b = NULL;
    ps_config cfg;
    ps_stencil_setup su;
    ps_stencil_report rep;
    ps_params p;
    int st;
    memset(&su, 0, sizeof su);
    memset(&p, 0, sizeof p);
    su.grid = in->grid;
    su.depth = c ? c->depth : NULL;
    su.lat = c ? c->lat : NULL;
    su.lon = c ? c->lon : NULL;
    su.options = opts;
    if ((st = ps_stencil_prepare(s, &su, &p, &rep)) || (st = ps_backend_open("reference", &b)))
        return st;
    ps_config_init(&cfg, in->grid, in->precision);
    cfg.stencil = s;
    cfg.params = p;
    st = ps_field_alloc(out, in->grid, in->precision);
    if (!st)
        st = ps_test_run(b, &cfg, in, out, steps);
    ps_params_free(&p);
    ps_backend_close(b);
    return st;
}

static int count_records(void *user, long step, const ps_field *f)
{
    long *n = user;
    (void)step;
    (void)f;
    (*n)++;
    return 0;
}

static int stop_after(void *user)
{
    long *n = user;
    return *n >= 3 ? 15 : 0;
}

/* what the record callback checks of ps_job_record_reduction() */
typedef struct red_check {
    ps_job *j;
    const double *vol; /* the volumes the job should weigh with (NULL: 1 a cell) */
    long records, bad;
    ps_reduction last;
} red_check;

static int check_reduction(void *user, long step, const ps_field *f)
{
    static const size_t origin[3] = {0, 0, 0};
    red_check *rc = user;
    const ps_reduction *r = ps_job_record_reduction(rc->j, 0);
    ps_reduce_part p;
    ps_reduction want;
    ps_reduce_part_init(&p);
    ps_reduce_field(&p, f, origin, rc->vol, f->grid.ny, 1);
    ps_reduce_finish(&p, &want);
    rc->records++;
    if (!r || memcmp(r, &want, sizeof want)) {
        printf("record at step %ld: the job's reductions %s the field's\n", step,
               r ? "differ from" : "are missing, not");
        rc->bad++;
    } else {
        rc->last = *r;
    }
    CHECK(ps_job_record_reduction(rc->j, 1) == NULL, "a second field's reductions");
    return 0;
}

/* what record_field() checks: field 1 of each record, its reductions the field's */
typedef struct xf_check {
    ps_job *j;
    long records, bad;
} xf_check;

static int check_field(void *user, long step, int i, const ps_field *f)
{
    static const size_t origin[3] = {0, 0, 0};
    xf_check *xc = user;
    const ps_reduction *r = ps_job_record_reduction(xc->j, i);
    ps_reduce_part p;
    ps_reduction want;
    ps_reduce_part_init(&p);
    ps_reduce_field(&p, f, origin, NULL, f->grid.ny, 1);
    ps_reduce_finish(&p, &want);
    xc->records++;
    if (i != 1 || !r || memcmp(r, &want, sizeof want)) {
        printf("field %d at step %ld: the job's reductions differ\n", i, step);
        xc->bad++;
    }
    return 0;
}

static const char *reason(void *user, int code)
{
    (void)user;
    return code == 15 ? "SIGTERM" : "?";
}

static ps_job *new_job(const char *stencil, const char *steps)
{
    ps_job *j = NULL;
    int st = ps_job_create(&j);
    if (!st)
        st = ps_job_set(j, "stencil", stencil);
    if (!st)
        st = ps_job_set(j, "steps", steps);
    if (!st)
        st = ps_job_set(j, "backend", "reference");
    CHECK(!st, "creating a job: %s", ps_error_detail());
    return j;
}

int main(void)
{
    ps_field in, keep, res, want;
    ps_test_coords c;
    ps_job *j;
    double d7[1] = {0.15}, hd[3] = {500, 2e-5, NAN};
    long n = 0;
    int st;
    char path[64];

    ps_field_alloc(&in, G, PS_FLOAT32);
    ps_field_alloc(&keep, G, PS_FLOAT32);
    ps_field_alloc(&res, G, PS_FLOAT32);
    ps_test_fill(&in, 7, 0.2);
    memcpy(keep.data, in.data, ps_field_cells(&in) * 4);
    ps_test_coords_make(&c, G);

    /* 1. diffusion7 on the caller's field into the caller's result: bitwise the engine,
     * the input untouched, the result in the caller's buffer */
    j = new_job("diffusion7", "11");
    CHECK(!ps_job_set(j, "coeff", "0.15"), "--coeff: %s", ps_error_detail());
    CHECK(!ps_job_set_input_field(j, &in, NULL), "input field");
    CHECK(!ps_job_set_result(j, &res), "result field");
    st = ps_job_prepare(j);
    CHECK(!st, "prepare: %s", ps_error_detail());
    st = st ? st : ps_job_run(j);
    CHECK(!st, "run: %s", ps_error_detail());
    CHECK(!engine_result("diffusion7", d7, NULL, &in, 11, &want), "engine");
    CHECK(ps_test_same(&res, &want), "diffusion7 from memory differs from the engine");
    CHECK(ps_job_result(j)->data == res.data, "the result is not in the caller's buffer");
    CHECK(ps_test_same(&in, &keep), "the input field was changed");
    CHECK(ps_job_get_report(j)->checksum == ps_field_checksum(&want), "report checksum");
    CHECK(ps_job_get_report(j)->steps == 11, "report steps %ld", ps_job_get_report(j)->steps);
    CHECK(!strcmp(ps_job_get_report(j)->input, "in-memory field"), "report input");
    CHECK(ps_job_get_report(j)->output == NULL, "an output was reported with none asked");
    /* the peak resident set: at least the caller's two fields and the backend's two */
    CHECK(ps_job_get_report(j)->host_peak_bytes >= 4 * ps_field_cells(&in) * 4,
          "report peak RSS %llu bytes for 4 fields of %zu cells",
          ps_job_get_report(j)->host_peak_bytes, ps_field_cells(&in));
    CHECK(ps_job_set(j, "steps", "3") == PS_EINVAL, "a prepared job took an option");
    CHECK(ps_job_run(j) == PS_EINVAL, "a job ran twice");
    ps_job_destroy(j);
    ps_field_free(&want);

    /* 2. stepped in place (result = input), hdiff with the caller's coordinates */
    {
        ps_grid_coords gc = {c.depth, c.lat, c.lon};
        CHECK(!engine_result("hdiff", hd, &c, &in, 6, &want), "engine hdiff");
        j = new_job("hdiff", "6");
        CHECK(!ps_job_set(j, "kh", "500") && !ps_job_set(j, "kv", "2e-5") &&
                  !ps_job_set(j, "dt", "auto"), "hdiff options: %s", ps_error_detail());
        ps_job_set_input_field(j, &keep, &gc);
        ps_job_set_result(j, &keep);
        st = ps_job_prepare(j);
        CHECK(!st, "hdiff prepare: %s", ps_error_detail());
        st = st ? st : ps_job_run(j);
        CHECK(!st, "hdiff run: %s", ps_error_detail());
        CHECK(ps_test_same(&keep, &want), "hdiff in place differs from the engine");
        CHECK(ps_job_get_report(j)->seconds_per_step > 0, "hdiff's auto dt not reported");
        ps_job_destroy(j);
        ps_field_free(&want);
        memcpy(keep.data, in.data, ps_field_cells(&in) * 4);
    }

    /* 3. hdiff without coordinates: refused, naming them */
    j = new_job("hdiff", "2");
    ps_job_set_input_field(j, &in, NULL);
    CHECK(ps_job_prepare(j) == PS_EINVAL && strstr(ps_error_detail(), "coordinates"),
          "hdiff without coordinates: '%s'", ps_error_detail());
    ps_job_destroy(j);

    /* 4. records to the callback (no file), every 4 steps of 10: 0 4 8 10 */
    {
        ps_job_callbacks cb = {.record = count_records, .user = &n};
        j = new_job("smooth2", "10");
        ps_job_set(j, "output-every", "4");
        ps_job_set_input_field(j, &in, NULL);
        ps_job_set_callbacks(j, &cb);
        st = ps_job_prepare(j);
        st = st ? st : ps_job_run(j);
        CHECK(!st, "records: %s", ps_error_detail());
        CHECK(n == 4 && ps_job_get_report(j)->records == 4, "records %ld, reported %zu", n,
              ps_job_get_report(j)->records);
        ps_job_destroy(j);
    }

    /* 5. a cancel after 3 records: PS_ECANCELED, those kept, in the file too */
    snprintf(path, sizeof path, "test_job_%ld.nc", (long)getpid());
    unlink(path);
    {
        ps_job_callbacks cb = {.record = count_records, .cancel = stop_after,
                               .cancel_reason = reason, .user = &n};
        n = 0;
        j = new_job("diffusion7", "40");
        ps_job_set(j, "output-every", "2");
        ps_job_set(j, "output", path);
        ps_job_set_input_field(j, &in, NULL);
        ps_job_set_callbacks(j, &cb);
        st = ps_job_prepare(j);
        CHECK(!st, "cancel prepare: %s", ps_error_detail());
        st = st ? st : ps_job_run(j);
        CHECK(st == PS_ECANCELED, "cancel: status %d (%s)", st, ps_error_detail());
        CHECK(ps_job_get_report(j)->interrupted && ps_job_get_report(j)->cancel_code == 15,
              "cancel not reported");
        CHECK(ps_job_get_report(j)->records == 3 && ps_job_get_report(j)->last_step == 4,
              "kept %zu records to step %ld", ps_job_get_report(j)->records,
              ps_job_get_report(j)->last_step);
        CHECK(strstr(ps_job_get_report(j)->interrupted_why, "SIGTERM after step 4 of 40"),
              "reason '%s'", ps_job_get_report(j)->interrupted_why);
        ps_job_destroy(j);
    }
    {
        ps_dataset ds;
        ps_field last;
        st = ps_dataset_open(&ds, path, NULL);
        CHECK(!st, "the kept output does not open: %s", ps_error_detail());
        if (!st) {
            CHECK(ds.ntime == 3, "the kept output has %zu records", ds.ntime);
            CHECK(!ps_dataset_read(&ds, 2, PS_FLOAT32, &last), "read record 2");
            CHECK(!engine_result("diffusion7", (double[]){0.1}, NULL, &in, 4, &want), "engine");
            CHECK(ps_test_same(&last, &want), "record 2 of the kept output is not step 4");
            ps_field_free(&last);
            ps_field_free(&want);
            ps_dataset_close(&ds);
        }
        unlink(path);
    }

    /* 6. options: the program's messages */
    j = new_job("smooth2", "2");
    CHECK(ps_job_set(j, "nonesuch", "1") == PS_EINVAL &&
              strstr(ps_error_detail(), "unknown option --nonesuch"), "unknown option");
    CHECK(ps_job_set(j, "steps", "-1") == PS_EINVAL && strstr(ps_error_detail(), "--steps"),
          "steps -1: '%s'", ps_error_detail());
    CHECK(ps_job_set(j, "w", "abc") == PS_EINVAL &&
              strstr(ps_error_detail(), "--w: 'abc' is not a number"), "w abc");
    CHECK(!ps_job_set(j, "w", "1.5"), "w 1.5 is checked when the stencil is known");
    ps_job_set_input_field(j, &in, NULL);
    CHECK(ps_job_prepare(j) == PS_EINVAL &&
              strstr(ps_error_detail(), "--w 1.5 is out of range: smooth2's option --w takes 0..1"),
          "w 1.5: '%s'", ps_error_detail());
    ps_job_destroy(j);
    j = new_job("diffusion7", "2");
    ps_job_set(j, "coeff", "1.5");
    ps_job_set_input_field(j, &in, NULL);
    CHECK(ps_job_prepare(j) == PS_ERANGE && strstr(ps_error_detail(), "stable only for"),
          "coeff 1.5: '%s'", ps_error_detail());
    ps_job_destroy(j);
    j = new_job("diffusion7", "2");
    ps_job_set(j, "precision", "double");
    ps_job_set_input_field(j, &in, NULL);
    CHECK(ps_job_prepare(j) == PS_EINVAL && strstr(ps_error_detail(), "precision"),
          "a float field in a double job: '%s'", ps_error_detail());
    ps_job_destroy(j);

    /* 7. each record's reductions reach the record callback: those of the field it is
     * given, weighed by hdiff's cell volumes when coordinates come with the field and
     * 1 a cell without; the report holds the last record's */
    {
        ps_grid_coords gc = {c.depth, c.lat, c.lon};
        double vol[9 * 13];
        char why[256];
        int pass;
        CHECK(ps_cell_volumes(G, c.depth, c.lat, c.lon, vol, why, sizeof why) == PS_OK,
              "the test's coordinates give volumes: %s", why);
        for (pass = 0; pass < 2; pass++) {
            red_check rc = {NULL, pass ? vol : NULL, 0, 0, {0, 0, 0, 0, 0, 0}};
            ps_job_callbacks cb = {.record = check_reduction, .user = &rc};
            const ps_job_report *r;
            j = new_job("diffusion7", "6");
            rc.j = j;
            ps_job_set(j, "output-every", "2");
            ps_job_set_input_field(j, &in, pass ? &gc : NULL);
            ps_job_set_callbacks(j, &cb);
            CHECK(ps_job_record_reduction(j, 0) == NULL, "reductions before any record");
            st = ps_job_prepare(j);
            st = st ? st : ps_job_run(j);
            CHECK(!st, "reductions run: %s", ps_error_detail());
            r = ps_job_get_report(j);
            CHECK(rc.records == 4 && rc.bad == 0, "%ld records, %ld with wrong reductions",
                  rc.records, rc.bad);
            CHECK(r->fields == 1 && !strcmp(r->field_names[0], "thetao"),
                  "report: %d fields, the first '%s'", r->fields,
                  r->fields ? r->field_names[0] : "");
            CHECK(!memcmp(&r->reduction[0], &rc.last, sizeof rc.last),
                  "the report's reductions are not the last record's");
            CHECK(r->volume_metric == pass && (pass || strstr(r->volume_why, "coordinates")),
                  "volume weights %d (%s), expected %d", r->volume_metric, r->volume_why, pass);
            CHECK(rc.last.cells > 0 && rc.last.volume > (pass ? 1e9 : 1.0),
                  "reduced %lld cells of volume %g", rc.last.cells, rc.last.volume);
            ps_job_destroy(j);
        }
    }

    /* 9. a stencil's inputs from the caller's memory: required ones refused when
     * missing, unknown names refused, a NaN at an ocean cell refused naming it; land
     * values ignored (1e30 there gives the run NaN gives); the report says where */
    {
        ps_grid_coords gc = {c.depth, c.lat, c.lon};
        size_t nc = ps_field_cells(&in), q, first = nc;
        double *u = malloc(nc * sizeof *u), *v = malloc(nc * sizeof *v);
        uint64_t sum_nan = 0;
        int pass;
        CHECK(u && v, "out of memory");
        for (q = 0; q < nc; q++) {
            u[q] = 0.05 * (double)(q % 7) - 0.1;
            v[q] = 0.03 * (double)(q % 5) - 0.06;
            if (isnan(((float *)in.data)[q]))
                u[q] = v[q] = NAN;
            else if (first == nc)
                first = q;
        }
        j = new_job("tracer", "3");
        ps_job_set_input_field(j, &in, &gc);
        CHECK(ps_job_prepare(j) == PS_ENOVAR &&
                  strstr(ps_error_detail(), "needs the eastward current"),
              "tracer with no currents: '%s'", ps_error_detail());
        ps_job_destroy(j);
        j = new_job("tracer", "3");
        ps_job_set_input_field(j, &in, &gc);
        ps_job_set_input(j, "u", u);
        ps_job_set_input(j, "v", v);
        ps_job_set_input(j, "q", v);
        CHECK(ps_job_prepare(j) == PS_EINVAL && strstr(ps_error_detail(), "input 'q'"),
              "an unknown input: '%s'", ps_error_detail());
        ps_job_destroy(j);
        for (pass = 0; pass < 3; pass++) {
            memcpy(keep.data, in.data, nc * 4);
            if (pass == 1) /* land values are ignored */
                for (q = 0; q < nc; q++)
                    if (isnan(u[q]))
                        u[q] = 1e30;
            if (pass == 2)
                u[first] = NAN;
            j = new_job("tracer", "3");
            ps_job_set_input_field(j, &keep, &gc);
            ps_job_set_result(j, &keep);
            ps_job_set_input(j, "u", u);
            ps_job_set_input(j, "v", v);
            st = ps_job_prepare(j);
            if (pass == 2) {
                char want_cell[96];
                snprintf(want_cell, sizeof want_cell, "level %zu, row %zu, column %zu",
                         first / (G.ny * G.nx), first / G.nx % G.ny, first % G.nx);
                CHECK(st == PS_EINVAL && strstr(ps_error_detail(), "caller's memory") &&
                          strstr(ps_error_detail(), want_cell),
                      "a NaN current at an ocean cell: '%s'", ps_error_detail());
                ps_job_destroy(j);
                break;
            }
            CHECK(!st, "tracer prepare: %s", ps_error_detail());
            st = st ? st : ps_job_run(j);
            CHECK(!st, "tracer run: %s", ps_error_detail());
            CHECK(ps_job_get_report(j)->ninputs == 3 &&
                      !strcmp(ps_job_get_report(j)->input_from[0], "the caller's memory") &&
                      !strcmp(ps_job_get_report(j)->input_from[2], "not given"),
                  "report inputs: %d, '%s', '%s'", ps_job_get_report(j)->ninputs,
                  ps_job_get_report(j)->input_from[0], ps_job_get_report(j)->input_from[2]);
            if (pass == 0)
                sum_nan = ps_field_checksum(&keep);
            else
                CHECK(ps_field_checksum(&keep) == sum_nan, "land values of u changed the run");
            CHECK(!ps_test_same(&keep, &in), "the currents moved nothing");
            ps_job_destroy(j);
        }
        free(u);
        free(v);
        memcpy(keep.data, in.data, nc * 4);
    }

    /* 10. several fields from the caller's memory: each bitwise the engine's run of it
     * alone, each record of the second reaching record_field() with its reductions;
     * another land, a name twice and a field without a first refused */
    {
        size_t nc = ps_field_cells(&in), q;
        ps_field b, wa, wb;
        ps_job_callbacks cb;
        xf_check xc;
        ps_field_alloc(&b, G, PS_FLOAT32);
        ps_test_fill(&b, 11, 0.2);
        for (q = 0; q < nc; q++) /* the first field's land */
            if (isnan(((float *)in.data)[q]) != isnan(((float *)b.data)[q]))
                ((float *)b.data)[q] = isnan(((float *)in.data)[q]) ? NAN : 20.0f;
        CHECK(!engine_result("diffusion7", d7, NULL, &in, 5, &wa) &&
                  !engine_result("diffusion7", d7, NULL, &b, 5, &wb),
              "engine: %s", ps_error_detail());
        j = new_job("diffusion7", "5");
        ps_job_set(j, "coeff", "0.15");
        CHECK(ps_job_add_input_field(j, "so", &b) == PS_EINVAL, "a field before the first");
        ps_job_set_input_field(j, &in, NULL);
        CHECK(!ps_job_add_input_field(j, "so", &b), "add: %s", ps_error_detail());
        CHECK(ps_job_add_input_field(j, "so", &b) == PS_EINVAL, "so twice accepted");
        memset(&cb, 0, sizeof cb);
        memset(&xc, 0, sizeof xc);
        xc.j = j;
        cb.record_field = check_field;
        cb.user = &xc;
        ps_job_set(j, "output-every", "2");
        ps_job_set_callbacks(j, &cb);
        st = ps_job_prepare(j);
        st = st ? st : ps_job_run(j);
        CHECK(!st, "two fields: %s", ps_error_detail());
        if (!st) {
            const ps_job_report *r = ps_job_get_report(j);
            CHECK(r->fields == 2 && !strcmp(r->field_names[0], "thetao") &&
                      !strcmp(r->field_names[1], "so"),
                  "report fields %d", r->fields);
            CHECK(ps_test_same(ps_job_result_at(j, 0), &wa), "field 0 differs from its run");
            CHECK(ps_test_same(ps_job_result_at(j, 1), &wb), "field 1 differs from its run");
            CHECK(!ps_test_same(ps_job_result_at(j, 1), &wa), "field 1 is field 0");
            CHECK(ps_job_result_at(j, 2) == NULL, "a third field");
            CHECK(r->field_checksum[1] == ps_field_checksum(&wb), "field 1 checksum");
            CHECK(xc.records == 4 && xc.bad == 0, "record_field: %ld records, %ld bad",
                  xc.records, xc.bad);
        }
        ps_job_destroy(j);
        /* another land: refused, naming the cell */
        for (q = 0; q < nc && !isnan(((float *)in.data)[q]); q++)
            ;
        CHECK(q < nc, "the test field has no land");
        ((float *)b.data)[q] = 1.0f;
        j = new_job("diffusion7", "5");
        ps_job_set_input_field(j, &in, NULL);
        ps_job_add_input_field(j, "so", &b);
        CHECK(ps_job_prepare(j) == PS_EINVAL && strstr(ps_error_detail(), "so is ocean") &&
                  strstr(ps_error_detail(), "same land"),
              "another land: '%s'", ps_error_detail());
        ps_job_destroy(j);
        ps_field_free(&b);
        ps_field_free(&wa);
        ps_field_free(&wb);
    }

    /* 8. the table holds every option of every stencil, and the aliases they declare */
    {
        int i, o;
        for (i = 0; i < ps_stencil_count(); i++)
            for (o = 0; o < ps_stencil_at(i)->noptions; o++) {
                const ps_stencil_option *so = &ps_stencil_at(i)->options[o];
                CHECK(ps_job_option_find(so->name) != NULL, "option --%s of %s not in the table",
                      so->name, ps_stencil_at(i)->name);
                if (so->alias)
                    CHECK(ps_job_option_short(so->alias) &&
                              !strcmp(ps_job_option_short(so->alias)->name, so->name),
                          "-%c is not --%s", so->alias, so->name);
            }
    }

    /* 9. tuning (ps_job_tune): refused where it cannot measure or would write a file;
     * on openmp, a dry run measures every candidate, ranks them, stores nothing, and
     * their common result is bitwise the engine's after the steps measured */
    {
        ps_tune_options to;
        ps_tune_result *tr = calloc(1, sizeof *tr);
        ps_backend *ob = NULL;
        int i;
        CHECK(tr != NULL, "out of memory");
        memset(&to, 0, sizeof to);
        to.steps = 5;
        to.rounds = 2;
        to.dry_run = 1;
        j = new_job("diffusion7", "1");
        ps_job_set_input_field(j, &in, NULL);
        st = ps_job_tune(j, &to, tr);
        CHECK(st == PS_EUNSUPPORTED && strstr(ps_error_detail(), "reference"),
              "tuning the reference backend: %d '%s'", st, ps_error_detail());
        ps_job_destroy(j);
        ps_job_create(&j);
        ps_job_set(j, "output", "never.nc");
        CHECK(ps_job_tune(j, &to, tr) == PS_EINVAL && strstr(ps_error_detail(), "--output"),
              "tune with an output: '%s'", ps_error_detail());
        CHECK(access("never.nc", F_OK) != 0, "tune created its output");
        ps_job_destroy(j);
        if (!ps_backend_open("openmp", &ob)) {
            ps_backend_close(ob);
            ps_job_create(&j);
            CHECK(!ps_job_set(j, "backend", "openmp") && !ps_job_set(j, "threads", "2") &&
                      !ps_job_set(j, "coeff", "0.15"), "tune options: %s", ps_error_detail());
            ps_job_set_input_field(j, &in, NULL);
            st = ps_job_tune(j, &to, tr);
            CHECK(!st, "tune: %s", ps_error_detail());
            CHECK(!st && tr->ncandidates > 2 && !tr->stored && tr->steps == 5 &&
                      tr->rounds == 2 && tr->candidates[tr->rule_index].rule &&
                      strstr(tr->key, "openmp") && strstr(tr->key, "2 threads"),
                  "tune result: %d candidates, stored %d, key '%s'", tr->ncandidates,
                  tr->stored, tr->key);
            for (i = 1; !st && i < tr->ncandidates; i++)
                CHECK(tr->candidates[i].median_ms >= tr->candidates[i - 1].median_ms &&
                          tr->candidates[i].best_ms <= tr->candidates[i].median_ms,
                      "candidate %d out of order", i);
            CHECK(!engine_result("diffusion7", d7, NULL, &in, 5, &want), "engine");
            CHECK(tr->checksum == ps_field_checksum(&want),
                  "the tuned runs' result differs from the engine's");
            ps_field_free(&want);
            CHECK(ps_job_tune(j, &to, tr) == PS_EINVAL, "a job tuned twice");
            ps_job_destroy(j);
        }
        free(tr);
    }

    ps_test_coords_free(&c);
    ps_field_free(&in);
    ps_field_free(&keep);
    ps_field_free(&res);
    return ps_test_finish("test_job");
}
