/*
 * Loader unit tests: a missing plugin, an unknown or malformed name, a plugin
 * built for another ABI, plugins that cannot load (undefined symbol; a
 * "vendor" library out of reach), a plugin without the entry point, a working
 * plugin, and `auto` passing over what cannot run. Each failure must come
 * back as a status with a message naming the reason, never a crash. And the
 * backend list (backends/ps_backends.h) as the loader serves it, and the
 * check backend made by following docs/adding-a-backend.md running every
 * stencil bitwise equal to the reference.
 */
#include "config.h"
#include "pstencil.h"
#include "../ps_test.h"

#include <unistd.h>

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

/*
 * Declared priorities (PS_PLUGIN_DECLARE), read without dlopen: the test
 * plugins' values, none for an undeclared plugin or a foreign file, never a
 * crash or a wrong value for a truncated or damaged copy; every plugin of
 * this build on @p envpath declares the priority of its ops table.
 */
static void check_declared(const char *plugdir, const char *envpath)
{
    static char buf[1 << 22];
    char path[2200], tmp[] = "/tmp/ps-decl-XXXXXX";
    const ps_backend_entry *list;
    int prio = 12345, n, i, fd, bad = 0, tries = 0, stride;
    long size;
    FILE *f;

    snprintf(path, sizeof path, "%s/pstencil_declow.so", plugdir);
    CHECK(ps_backend_declared_priority(path, &prio) == 1 && prio == -5,
          "declow: declared %d", prio);
    snprintf(path, sizeof path, "%s/pstencil_dechigh.so", plugdir);
    CHECK(ps_backend_declared_priority(path, &prio) == 1 && prio == 1000,
          "dechigh: declared %d", prio);
    snprintf(path, sizeof path, "%s/pstencil_goodplugin.so", plugdir);
    CHECK(ps_backend_declared_priority(path, &prio) == 0, "goodplugin declares nothing");
    CHECK(ps_backend_declared_priority("/nonexistent/pstencil_x.so", &prio) == 0, "missing");
    CHECK(ps_backend_declared_priority("/etc/passwd", &prio) == 0, "a text file");
    CHECK(ps_backend_declared_priority("/", &prio) == 0, "a directory");

    /* every prefix of a declaring plugin, and copies with one byte damaged */
    snprintf(path, sizeof path, "%s/pstencil_declow.so", plugdir);
    f = fopen(path, "rb");
    size = f ? (long)fread(buf, 1, sizeof buf, f) : -1;
    if (f)
        fclose(f);
    CHECK(size > 64 && size < (long)sizeof buf, "read %s: %ld bytes", path, size);
    fd = mkstemp(tmp);
    CHECK(fd >= 0, "mkstemp");
    stride = size / 1500 > 7 ? (int)(size / 1500) : 7; /* about 3000 copies */
    for (i = 0; fd >= 0 && size > 64 && size < (long)sizeof buf && i < 2 * size; i += stride) {
        int r, len = i < size ? i : (int)size, at = i - (int)size;
        unsigned char keep = 0;
        if (at >= 0) {
            keep = (unsigned char)buf[at];
            buf[at] = (char)(keep ^ 0xff);
        }
        if (ftruncate(fd, 0) || pwrite(fd, buf, (size_t)len, 0) != len) {
            CHECK(0, "cannot write %s", tmp);
            break;
        }
        if (at >= 0)
            buf[at] = (char)keep;
        prio = 12345;
        r = ps_backend_declared_priority(tmp, &prio);
        tries++;
        if (!(r == 0 || (r == 1 && prio == -5)) || (r == 0 && prio != 12345))
            bad++;
    }
    CHECK(bad == 0, "%d of %d damaged copies read wrongly", bad, tries);
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }

    /* this build's plugins declare what their tables say */
    ps_backend_list(&list, &n);
    for (i = 0; envpath && i < n; i++) {
        char dirs[4096], *save = NULL, *dir;
        if (list[i].kind != PS_BACKEND_KIND_PLUGIN || !list[i].built)
            continue;
        snprintf(dirs, sizeof dirs, "%s", envpath);
        for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
            ps_backend *b = NULL;
            snprintf(path, sizeof path, "%s/pstencil_%s.so", dir, list[i].name);
            if (access(path, F_OK))
                continue;
            prio = 12345;
            CHECK(ps_backend_declared_priority(path, &prio) == 1, "%s declares no priority",
                  path);
            setenv(PS_PLUGIN_PATH_ENV, dir, 1);
            if (ps_backend_open(list[i].name, &b) == 0) {
                CHECK(ps_backend_get_ops(b)->priority == prio,
                      "%s declares %d, its table says %d", path, prio,
                      ps_backend_get_ops(b)->priority);
                printf("%s: declared priority %d, the table's\n", list[i].name, prio);
                ps_backend_close(b);
            } else {
                printf("%s: declared priority %d (does not load here: %s)\n", list[i].name,
                       prio, ps_error_detail());
            }
            setenv(PS_PLUGIN_PATH_ENV, plugdir, 1);
        }
    }
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

/*
 * The check backend (a folder and a list entry, nothing else) runs every
 * registered stencil in both precisions bitwise equal to the reference, on a
 * whole grid and on an inner box with ghost layers.
 */
static void check_every_stencil(const char *top)
{
    const ps_grid g = {9, 11, 14};
    char dir[2100];
    ps_backend *chk = NULL, *ref = NULL;
    int si, p, inner;
    snprintf(dir, sizeof dir, "%s/backends/check/.libs", top);
    setenv(PS_PLUGIN_PATH_ENV, dir, 1);
    if (ps_backend_open("check", &chk) || ps_backend_open("reference", &ref)) {
        FAILF("cannot open the check backend from %s: %s", dir, ps_error_detail());
        ps_backend_close(chk);
        return;
    }
    for (si = 0; si < ps_stencil_count(); si++) {
        const ps_stencil *s = ps_stencil_at(si);
        ps_params pp;
        if (ps_test_params(s, g, &pp)) {
            FAILF("%s: parameters: %s", s->name, ps_error_detail());
            continue;
        }
        for (p = 0; p < 2; p++)
            for (inner = 0; inner < 2; inner++) {
                ps_precision prec = p ? PS_FLOAT64 : PS_FLOAT32;
                ps_field in, want, got;
                ps_config cfg;
                int st;
                ps_config_init(&cfg, g, prec);
                ps_params_free(&cfg.params);
                cfg.stencil = s;
                cfg.params = pp;
                if (inner) {
                    /* a box of the global grid with ghost layers on its inner faces */
                    cfg.box.extent.nz = g.nz - 2;
                    cfg.box.extent.nx = g.nx - 3;
                    cfg.box.origin[0] = 2;
                    cfg.box.ghost = (unsigned)(2 * s->radius);
                    cfg.box.global_faces = PS_FACE_ALL & ~(unsigned)(PS_FACE_K_LO | PS_FACE_I_HI);
                }
                if (ps_field_alloc(&in, cfg.box.extent, prec) ||
                    ps_field_alloc(&want, cfg.box.extent, prec) ||
                    ps_field_alloc(&got, cfg.box.extent, prec)) {
                    FAILF("out of memory");
                    return;
                }
                ps_test_fill(&in, 11 + (uint64_t)si, 0.3);
                st = ps_test_run(ref, &cfg, &in, &want, 4);
                CHECK(!st, "reference %s %s: %s", s->name, ps_precision_name(prec),
                      ps_error_detail());
                st = st ? st : ps_test_run(chk, &cfg, &in, &got, 4);
                CHECK(!st && ps_test_same(&want, &got), "check %s %s%s: %s", s->name,
                      ps_precision_name(prec), inner ? " (inner box)" : "",
                      st ? ps_error_detail() : "differs from the reference");
                ps_field_free(&in);
                ps_field_free(&want);
                ps_field_free(&got);
            }
        ps_params_free(&pp);
    }
    printf("check backend: %d stencils x 2 precisions x 2 boxes against the reference\n",
           ps_stencil_count());
    ps_backend_close(chk);
    ps_backend_close(ref);
}

int main(void)
{
    const char *top = getenv("top_builddir");
    char plugdir[2048], tmpdir[] = "/tmp/ps-loader-XXXXXX", path[4200], envpath[4096] = "";
    ps_backend *b = NULL;
    ps_device_info devs[4];
    char why[4096];
    int n = 0, st;

    if (!top) {
        printf("SKIP: top_builddir not set (run through make check)\n");
        return 77;
    }
    snprintf(plugdir, sizeof plugdir, "%s/tests/backends/.libs", top);
    if (getenv(PS_PLUGIN_PATH_ENV))
        snprintf(envpath, sizeof envpath, "%s", getenv(PS_PLUGIN_PATH_ENV));
    setenv(PS_PLUGIN_PATH_ENV, plugdir, 1);

    check_list();
    check_declared(plugdir, envpath[0] ? envpath : NULL);

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
    expect_open("badabi", PS_EABI, "plugin ABI version 999, this pstencil needs version "
                                         PS_PLUGIN_STR(PS_BACKEND_ABI_VERSION));
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

    check_every_stencil(top);

    /* ps_error must survive being handed its own detail */
    ps_error(PS_EIO, "first message %d", 7);
    st = ps_error(PS_EIO, "%s", ps_error_detail());
    CHECK(st == PS_EIO && !strcmp(ps_error_detail(), "first message 7"), "detail now '%s'",
          ps_error_detail());

    return ps_test_finish("test_loader");
}
