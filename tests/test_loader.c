/*
 * Loader unit tests: a missing plugin, an unknown or malformed name, a plugin
 * built for another ABI, plugins that cannot load (undefined symbol; a
 * "vendor" library out of reach), a plugin without the entry point, a working
 * plugin, and `auto` passing over what cannot run. Each failure must come
 * back as a status with a message naming the reason, never a crash. And the
 * backend list (backends/ps_backends.h) as the loader serves it.
 */
#include "config.h"
#include "pstencil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("FAIL (line %d): ", __LINE__);                                          \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static void expect_open(const char *name, int want, const char *fragment)
{
    ps_backend *b = (ps_backend *)1;
    int st = ps_backend_open(name, &b);
    printf("open %-12s -> %d (%s): %s\n", name, st, ps_strerror(st), ps_error_detail());
    CHECK(st == want, "open(%s) returned %d (%s), expected %d (%s)", name, st, ps_strerror(st),
          want, ps_strerror(want));
    CHECK(st == 0 || b == NULL, "open(%s) failed but left a backend pointer", name);
    if (fragment)
        CHECK(strstr(ps_error_detail(), fragment) != NULL, "open(%s): detail '%s' lacks '%s'",
              name, ps_error_detail(), fragment);
    if (!st)
        ps_backend_close(b);
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out;
    char buf[65536];
    size_t n;
    if (!in)
        return -1;
    out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    return fclose(out);
}

/* The list as the loader serves it: names, kinds, built-in tables, help text. */
static void check_list(void)
{
    const ps_backend_entry *list;
    const char *const *known;
    char joined[1024] = "";
    int n, nk, i, j;
    ps_backend_list(&list, &n);
    ps_backend_known(&known, &nk);
    CHECK(n >= 2 && nk >= 2 && nk <= n, "list of %d, %d known", n, nk);
    for (i = 0; i < n; i++) {
        int found = 0;
        size_t used = strlen(joined);
        for (j = 0; j < i; j++)
            CHECK(strcmp(list[i].name, list[j].name), "%s listed twice", list[i].name);
        for (j = 0; j < nk; j++)
            found |= !strcmp(known[j], list[i].name);
        CHECK(found || list[i].kind == PS_BACKEND_KIND_CHECK, "%s is listed but not known",
              list[i].name);
        CHECK(ps_backend_is_built(list[i].name) == list[i].built, "%s: is_built disagrees",
              list[i].name);
        if (list[i].kind != PS_BACKEND_KIND_CHECK)
            snprintf(joined + used, sizeof joined - used, "%s%s", used ? ", " : "",
                     list[i].name);
        if (list[i].kind == PS_BACKEND_KIND_BUILTIN && list[i].built) {
            ps_backend *b = NULL;
            int st = ps_backend_open(list[i].name, &b);
            CHECK(st == 0 && !strcmp(ps_backend_path(b), "built-in") &&
                      !strcmp(ps_backend_get_ops(b)->name, list[i].name),
                  "built-in %s: %s", list[i].name, st ? ps_error_detail() : "wrong table");
            ps_backend_close(b);
        }
        if (list[i].kind == PS_BACKEND_KIND_BUILTIN && !list[i].built)
            expect_open(list[i].name, PS_ENOBACKEND, list[i].condition);
    }
    CHECK(!strcmp(ps_backend_names(), joined), "names '%s', list '%s'", ps_backend_names(),
          joined);
    CHECK(!strcmp(list[0].name, "reference") && list[0].built &&
              list[0].kind == PS_BACKEND_KIND_BUILTIN,
          "reference is not the list's first, always-built built-in");
#ifdef PS_HAVE_OPENMP
    CHECK(ps_backend_is_built("openmp"), "openmp built but is_built says no");
#else
    CHECK(!ps_backend_is_built("openmp"), "openmp not built but is_built says yes");
#endif
    CHECK(!ps_backend_is_built("nosuch"), "is_built(nosuch)");
}

int main(void)
{
    const char *top = getenv("top_builddir");
    char plugdir[2048], tmpdir[] = "/tmp/ps-loader-XXXXXX", path[4200];
    ps_backend *b = NULL;
    ps_device_info devs[4];
    char why[4096];
    int n = 0, st;

    if (!top) {
        printf("SKIP: top_builddir not set (run through make check)\n");
        return 77;
    }
    snprintf(plugdir, sizeof plugdir, "%s/tests/.libs", top);
    setenv(PS_PLUGIN_PATH_ENV, plugdir, 1);

    check_list();

    /* names */
    expect_open("nosuch", PS_ENOBACKEND, "unknown backend 'nosuch'");
    expect_open("../evil", PS_ENOBACKEND, "is not a backend name");
    expect_open("", PS_ENOBACKEND, "is not a backend name");

    /* a known plugin backend that is missing on the path */
    if (ps_backend_is_built("cuda"))
        expect_open("cuda", PS_EUNAVAIL, "pstencil_cuda.so not found in");
    else
        expect_open("cuda", PS_ENOBACKEND, "was not built");

    /* wrong ABI, undefined symbol, no entry point */
    expect_open("badabi", PS_EABI, "plugin ABI version 999, this pstencil needs version 2");
    expect_open("undefsym", PS_EUNAVAIL, "ps_test_symbol_nobody_defines");
    expect_open("noentry", PS_EUNAVAIL, "has no symbol ps_backend_plugin_entry");

    /* a vendor library out of reach: the plugin alone in a directory */
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp failed");
    } else {
        char from[2200];
        snprintf(from, sizeof from, "%s/pstencil_novendor.so", plugdir);
        snprintf(path, sizeof path, "%s/pstencil_novendor.so", tmpdir);
        CHECK(copy_file(from, path) == 0, "cannot copy %s", from);
        setenv(PS_PLUGIN_PATH_ENV, tmpdir, 1);
        expect_open("novendor", PS_EUNAVAIL, "libps_fakevendor");
        unlink(path);
        rmdir(tmpdir);
        setenv(PS_PLUGIN_PATH_ENV, plugdir, 1);
    }

    /* a working plugin */
    st = ps_backend_open("goodplugin", &b);
    CHECK(st == 0, "goodplugin: %s", ps_error_detail());
    if (!st) {
        CHECK(strstr(ps_backend_path(b), "pstencil_goodplugin.so") != NULL, "path %s",
              ps_backend_path(b));
        st = ps_backend_probe(b, devs, 4, &n);
        CHECK(st == 0 && n == 1, "goodplugin probe: %d devices, %s", n, ps_error_detail());
        ps_backend_close(b);
    }

    /* built-ins are always there */
    st = ps_backend_open("reference", &b);
    CHECK(st == 0 && !strcmp(ps_backend_path(b), "built-in"), "reference: %s",
          ps_error_detail());
    ps_backend_close(b);

    /* auto: nothing GPU on this plugin path, so a CPU backend, saying what it passed over */
    st = ps_backend_open_auto(&b, why, sizeof why);
    printf("auto: %s\n", why);
    CHECK(st == 0, "auto failed: %s", why);
    if (!st) {
        CHECK(!strcmp(ps_backend_name(b), "openmp") || !strcmp(ps_backend_name(b), "reference"),
              "auto picked %s", ps_backend_name(b));
        CHECK(strstr(why, "auto picked") != NULL, "why: %s", why);
        if (ps_backend_is_built("cuda"))
            CHECK(strstr(why, "cuda") != NULL, "auto does not say why cuda was passed over");
        ps_backend_close(b);
    }

    /* ps_error must survive being handed its own detail */
    ps_error(PS_EIO, "first message %d", 7);
    st = ps_error(PS_EIO, "%s", ps_error_detail());
    CHECK(st == PS_EIO && !strcmp(ps_error_detail(), "first message 7"), "detail now '%s'",
          ps_error_detail());

    if (failures)
        printf("%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
