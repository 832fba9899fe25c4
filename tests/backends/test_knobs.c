/*
 * The tuning knobs (core/ps_knobs.h) through the openmp backend: one
 * precedence for every knob, option > tuning cache > environment > rule,
 * each decided knob with its source (ps_context_knobs(), PS_DESCRIBE_KNOBS);
 * PS_KNOB_RULE and the skip bits leave the environment and the cache out; a
 * bad variable or option is PS_EINVAL naming it and its range; NAME=VALUE
 * parsing (ps_knobs_set) and formatting; and every knob value gives bitwise
 * the rule's result. The opencl and cuda/hip (the mock runtime, "gpumock")
 * backends, where they load and have a device, report their knobs the same
 * way. The environment variables are set in this process.
 */
#include "config.h"
#include "pstencil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(c)                                                                         \
    do {                                                                                 \
        if (!(c)) {                                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);        \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

static ps_backend *omp;
static ps_field in, out;

/* A context of @p cfg: its knobs into @p k, its result after 7 steps into out. */
static int run(const ps_config *cfg, ps_knobs *k, char *text, size_t len)
{
    ps_context *ctx = NULL;
    int st = ps_context_create(omp, cfg, &ctx);
    if (st)
        return st;
    CHECK(ps_context_knobs(ctx, k) == PS_OK);
    if (text)
        snprintf(text, len, "%s", ps_context_describe(ctx, PS_DESCRIBE_KNOBS));
    CHECK(ps_context_upload(ctx, in.data, NULL) == PS_OK);
    CHECK(ps_context_step(ctx, 7) == PS_OK);
    CHECK(ps_context_download(ctx, out.data, NULL) == PS_OK);
    ps_context_destroy(ctx);
    return PS_OK;
}

static void fill(ps_field *f)
{
    float *v = f->data;
    size_t i, n = ps_field_cells(f);
    for (i = 0; i < n; i++)
        v[i] = (i % 11 == 0) ? NAN : (float)(i % 97) * 0.25f;
}

/* A plugin backend's knobs: the rule, the environment, an option over it. */
static void plugin_knobs(const char *name, const ps_grid g, const char *knob,
                         const char *env, const char *env_value, const char *option)
{
    ps_backend *b = NULL;
    ps_context *ctx = NULL;
    ps_config cfg;
    ps_knobs k;
    const ps_knob_info *in = ps_knob_find(knob);
    const ps_knob *field = (const ps_knob *)((const char *)&k + in->offset);
    char want[128], v[64];
    if (ps_backend_open(name, &b) || ps_context_create(b, (ps_config_init(&cfg, g, PS_FLOAT32),
                                                           &cfg), &ctx)) {
        fprintf(stderr, "%s: not checked: %s\n", name, ps_error_detail());
        ps_backend_close(b);
        return;
    }
    CHECK(ps_context_knobs(ctx, &k) == PS_OK);
    CHECK(field->source == PS_KNOB_RULE);
    CHECK(k.openmp_tblock.source == PS_KNOB_UNSET);
    ps_context_destroy(ctx);
    ctx = NULL;
    setenv(env, env_value, 1);
    CHECK(ps_context_create(b, &cfg, &ctx) == PS_OK);
    if (ctx) {
        CHECK(ps_context_knobs(ctx, &k) == PS_OK);
        CHECK(field->source == PS_KNOB_ENV);
        CHECK(!strcmp(ps_knob_format(&k, in, v, sizeof v), env_value));
        ps_context_destroy(ctx);
        ctx = NULL;
    }
    CHECK(ps_knobs_set(&cfg.knobs, option) == PS_OK);
    CHECK(ps_context_create(b, &cfg, &ctx) == PS_OK);
    if (ctx) {
        snprintf(want, sizeof want, "%s (option)\n", option);
        CHECK(strstr(ps_context_describe(ctx, PS_DESCRIBE_KNOBS), want) != NULL);
        ps_context_destroy(ctx);
    }
    unsetenv(env);
    ps_backend_close(b);
}

int main(void)
{
    const ps_grid g = {12, 40, 33};
    ps_config cfg, c2;
    ps_knobs k;
    char text[4096], cache[] = "/tmp/ps-knobs-cache-XXXXXX", key[600], line[700];
    const ps_knob_info *info;
    uint64_t ref;
    int n, i, fd;
    FILE *f;

    if (ps_backend_open("openmp", &omp)) {
        fprintf(stderr, "no openmp backend: %s\n", ps_error_detail());
        return 77;
    }
    unsetenv("PSTENCIL_OPENMP_TBLOCK");
    unsetenv("PSTENCIL_OPENMP_TJ");
    fd = mkstemp(cache);
    if (fd < 0)
        return 99;
    close(fd);
    setenv("PSTENCIL_TUNE_FILE", cache, 1); /* empty: no entry yet */
    if (ps_field_alloc(&in, g, PS_FLOAT32) || ps_field_alloc(&out, g, PS_FLOAT32))
        return 99;
    fill(&in);
    ps_config_init(&cfg, g, PS_FLOAT32);
    cfg.threads = 2;

    /* the table: every knob once, findable, with an environment variable */
    CHECK(ps_knob_list(&info, &n) == PS_OK && n > 0);
    for (i = 0; i < n; i++) {
        int j;
        CHECK(ps_knob_find(info[i].name) == &info[i] && info[i].env && info[i].env[0]);
        for (j = 0; j < i; j++)
            CHECK(strcmp(info[i].name, info[j].name) != 0);
    }
    CHECK(ps_knob_find("openmp_tblock") != NULL);
    CHECK(ps_knob_find("no_such_knob") == NULL);
    CHECK(!strcmp(ps_knob_source_name(PS_KNOB_CACHE), "tune cache"));

    /* nothing given: the rule, and every openmp knob decided */
    CHECK(run(&cfg, &k, text, sizeof text) == PS_OK);
    ref = ps_field_checksum(&out);
    CHECK(k.openmp_tblock.source == PS_KNOB_RULE && k.openmp_tj.source == PS_KNOB_RULE);
    CHECK(k.openmp_isa.source == PS_KNOB_RULE && k.openmp_nt_out.source == PS_KNOB_RULE);
    CHECK(k.openmp_zero_land.source == PS_KNOB_RULE);
    CHECK(k.opencl_kernel.source == PS_KNOB_UNSET && k.gpu_kernel.source == PS_KNOB_UNSET);
    CHECK(strstr(text, "openmp_tblock=") && strstr(text, "(rule)"));
    CHECK(!strstr(text, "opencl_"));

    /* the environment over the rule */
    setenv("PSTENCIL_OPENMP_TBLOCK", "3", 1);
    CHECK(run(&cfg, &k, text, sizeof text) == PS_OK);
    CHECK(k.openmp_tblock.source == PS_KNOB_ENV && k.openmp_tblock.value == 3);
    CHECK(k.openmp_tj.source == PS_KNOB_RULE);
    CHECK(strstr(text, "openmp_tblock=3 (environment)") != NULL);
    CHECK(ps_field_checksum(&out) == ref);

    /* an option over the environment */
    c2 = cfg;
    CHECK(ps_knobs_set(&c2.knobs, "openmp_tblock=5") == PS_OK);
    CHECK(ps_knobs_set(&c2.knobs, "openmp_tj=6") == PS_OK);
    CHECK(run(&c2, &k, text, sizeof text) == PS_OK);
    CHECK(k.openmp_tblock.source == PS_KNOB_OPTION && k.openmp_tblock.value == 5);
    CHECK(k.openmp_tj.source == PS_KNOB_OPTION && k.openmp_tj.value == 6);
    CHECK(strstr(text, "openmp_tblock=5 (option)") && strstr(text, "openmp_tj=6 (option)"));
    CHECK(ps_field_checksum(&out) == ref);

    /* the tuning cache over the environment, under an option */
    {
        ps_context *ctx = NULL;
        CHECK(ps_context_create(omp, &cfg, &ctx) == PS_OK);
        snprintf(key, sizeof key, "%s", ps_context_describe(ctx, PS_DESCRIBE_TUNE_KEY));
        ps_context_destroy(ctx);
    }
    CHECK(key[0] != '\0');
    f = fopen(cache, "w");
    if (!f)
        return 99;
    snprintf(line, sizeof line, "%s\t2\t7\t1.0\n", key);
    fputs(line, f);
    fclose(f);
    CHECK(run(&cfg, &k, text, sizeof text) == PS_OK);
    CHECK(k.openmp_tblock.source == PS_KNOB_CACHE && k.openmp_tblock.value == 2);
    CHECK(k.openmp_tj.source == PS_KNOB_CACHE && k.openmp_tj.value == 7);
    CHECK(strstr(text, "openmp_tj=7 (tune cache)") != NULL);
    CHECK(ps_field_checksum(&out) == ref);
    CHECK(run(&c2, &k, NULL, 0) == PS_OK);
    CHECK(k.openmp_tblock.source == PS_KNOB_OPTION && k.openmp_tblock.value == 5);
    /* the cache skipped: the environment again */
    c2 = cfg;
    c2.knobs.skip = PS_KNOBS_SKIP_CACHE;
    CHECK(run(&c2, &k, NULL, 0) == PS_OK);
    CHECK(k.openmp_tblock.source == PS_KNOB_ENV && k.openmp_tblock.value == 3);
    /* the rule asked for: neither the environment nor (skipped) the cache */
    c2.knobs.openmp_tblock.source = PS_KNOB_RULE;
    CHECK(run(&c2, &k, NULL, 0) == PS_OK);
    CHECK(k.openmp_tblock.source == PS_KNOB_RULE);
    /* the environment skipped */
    c2 = cfg;
    c2.knobs.skip = PS_KNOBS_SKIP_ENV | PS_KNOBS_SKIP_CACHE;
    setenv("PSTENCIL_OPENMP_ISA", "baseline", 1);
    CHECK(run(&c2, &k, NULL, 0) == PS_OK);
    CHECK(k.openmp_tblock.source == PS_KNOB_RULE && k.openmp_isa.source == PS_KNOB_RULE);
    /* a choice from the environment, as its word */
    CHECK(run(&cfg, &k, text, sizeof text) == PS_OK);
    CHECK(k.openmp_isa.source == PS_KNOB_ENV && k.openmp_isa.value == 0);
    CHECK(strstr(text, "openmp_isa=baseline (environment)") != NULL);
    CHECK(ps_field_checksum(&out) == ref);
    unsetenv("PSTENCIL_OPENMP_ISA");

    /* bad variables: PS_EINVAL naming the variable and the range */
    setenv("PSTENCIL_OPENMP_TBLOCK", "99", 1);
    CHECK(run(&cfg, &k, NULL, 0) == PS_EINVAL);
    CHECK(strstr(ps_error_detail(), "PSTENCIL_OPENMP_TBLOCK='99'") &&
          strstr(ps_error_detail(), "0..16"));
    setenv("PSTENCIL_OPENMP_TBLOCK", "3x", 1);
    CHECK(run(&cfg, &k, NULL, 0) == PS_EINVAL);
    unsetenv("PSTENCIL_OPENMP_TBLOCK");
    setenv("PSTENCIL_OPENMP_ISA", "avx3", 1);
    CHECK(run(&cfg, &k, NULL, 0) == PS_EINVAL);
    CHECK(strstr(ps_error_detail(), "baseline|avx2|avx512") != NULL);
    unsetenv("PSTENCIL_OPENMP_ISA");
    setenv("PSTENCIL_OPENMP_NTOUT", "yes", 1);
    CHECK(run(&cfg, &k, NULL, 0) == PS_EINVAL);
    CHECK(strstr(ps_error_detail(), "expected 0 or 1") != NULL);
    unsetenv("PSTENCIL_OPENMP_NTOUT");
    /* an option out of range set directly in the structure */
    c2 = cfg;
    c2.knobs.openmp_tblock.value = 17;
    c2.knobs.openmp_tblock.source = PS_KNOB_OPTION;
    CHECK(run(&c2, &k, NULL, 0) == PS_EINVAL);
    CHECK(strstr(ps_error_detail(), "openmp_tblock=17") != NULL);

    /* ps_knobs_set: parsing and its errors; ps_knob_format */
    memset(&k, 0, sizeof k);
    CHECK(ps_knobs_set(&k, "gpu_kernel=d7lb") == PS_OK && k.gpu_kernel.value == 2 &&
          k.gpu_kernel.source == PS_KNOB_OPTION);
    CHECK(!strcmp(ps_knob_format(&k, ps_knob_find("gpu_kernel"), line, sizeof line), "d7lb"));
    CHECK(ps_knobs_set(&k, "opencl_device=0:1") == PS_OK &&
          !strcmp(k.opencl_device.value, "0:1"));
    CHECK(ps_knobs_set(&k, "opencl_wave_tj=65537") == PS_EINVAL);
    CHECK(strstr(ps_error_detail(), "1..65536") != NULL);
    CHECK(ps_knobs_set(&k, "openmp_tblok=3") == PS_EINVAL);
    CHECK(strstr(ps_error_detail(), "unknown knob 'openmp_tblok'") &&
          strstr(ps_error_detail(), "openmp_tblock"));
    CHECK(ps_knobs_set(&k, "openmp_tblock") == PS_EINVAL);
    CHECK(ps_knobs_set(&k, "openmp_nt_out=2") == PS_EINVAL);
    CHECK(ps_knobs_describe(&k, text, sizeof text) == 2);
    CHECK(strstr(text, "gpu_kernel=d7lb (option)\n") != NULL);

    plugin_knobs("opencl", g, "opencl_kernel", "PSTENCIL_OPENCL_KERNEL", "ij",
                 "opencl_kernel=ijk");
    plugin_knobs("gpumock", g, "gpu_graph_steps", "PSTENCIL_GPU_GRAPH_STEPS", "0",
                 "gpu_graph_steps=6");

    unlink(cache);
    ps_field_free(&in);
    ps_field_free(&out);
    ps_backend_close(omp);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
