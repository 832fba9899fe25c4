/*
 * The tuning cache's reader and writer (core/ps_tunecache.h): valid entries
 * found (the last of a key wins), every kind of bad line ignored and counted,
 * ranges applied, a missing file is "not found" without complaint, a store
 * replaces its key, keeps the others and comments, drops junk, creates the
 * directory, and refuses a target that is not a regular file.
 */
#include "config.h"
#include "ps_status.h"
#include "ps_tunecache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;
#define CHECK(c)                                                                         \
    do {                                                                                 \
        if (!(c)) {                                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);        \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

static const long lo[2] = {0, 1}, hi[2] = {8, 1L << 30};

static void write_file(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, n, f) != n) {
        perror(path);
        exit(99);
    }
    fclose(f);
}

static int lookup(const char *path, const char *key, ps_tune_entry *e, int *bad)
{
    char why[256] = "";
    return ps_tune_cache_lookup(path, key, lo, hi, e, bad, why, sizeof why);
}

int main(void)
{
    char dir[] = "/tmp/ps-tunecache.XXXXXX", path[512], sub[512], buf[4096];
    static const char text[] =
        "# comment\n"
        "\n"
        "a\t4\t110\t0.64\n"
        "b\t9\t10\t1.0\n"                  /* T out of range */
        "c\t4\t0\t1.0\n"                   /* TJ out of range */
        "d\t-1\t10\t1.0\n"                 /* negative */
        "e\t4\t99999999999999999999\t1\n"  /* overflows a long */
        "f\t4\t10\tinf\n"                  /* not finite */
        "g\t4\t10\n"                       /* 3 fields */
        "h\t4\t10\t1\tx\n"                 /* 5 fields */
        "i\t4 \t10\t1\n"                   /* trailing blank in a number */
        "j\x01\t4\t10\t1\n"                /* control byte */
        "a\t8\t111\t0.57\r\n"              /* the last of a key wins; CRLF accepted */
        "k\t4\t1";                         /* truncated, no newline */
    ps_tune_entry e;
    int bad, r;
    FILE *f;
    if (!mkdtemp(dir))
        return 99;
    snprintf(path, sizeof path, "%s/cache.txt", dir);

    /* missing file: not found, no complaint */
    CHECK(lookup(path, "a", &e, &bad) == 0 && bad == 0);

    write_file(path, text, sizeof text - 1);
    r = lookup(path, "a", &e, &bad);
    CHECK(r == 1 && e.val[0] == 8 && e.val[1] == 111 && e.ms > 0.56 && e.ms < 0.58);
    CHECK(bad == 10);
    for (const char *k = "bcdefghijk"; *k; k++) {
        char key[2] = {*k, 0};
        CHECK(lookup(path, key, &e, &bad) == 0);
    }
    CHECK(lookup(path, "zz", &e, &bad) == 0);

    /* binary junk with a NUL in the middle of a would-be entry */
    {
        static const char junk[] = "a\t4\0\t10\t1\n\xff\xfe\n";
        write_file(path, junk, sizeof junk - 1);
    }
    CHECK(lookup(path, "a", &e, &bad) == 0 && bad == 2);

    /* a directory is unreadable as a cache: -1, counted */
    CHECK(lookup(dir, "a", &e, &bad) == -1 && bad == 1);

    /* store: a new file in a new directory, with the header */
    snprintf(sub, sizeof sub, "%s/x/y/cache.txt", dir);
    e.val[0] = 4, e.val[1] = 64, e.ms = 1.5;
    CHECK(ps_tune_cache_store(sub, "key one", &e, "# header\n") == PS_OK);
    e.val[0] = 2, e.val[1] = 16, e.ms = 2.5;
    CHECK(ps_tune_cache_store(sub, "key two", &e, "# header\n") == PS_OK);
    e.val[0] = 8, e.val[1] = 32, e.ms = 0.5;
    CHECK(ps_tune_cache_store(sub, "key one", &e, "# header\n") == PS_OK);
    f = fopen(sub, "r");
    CHECK(f != NULL);
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        CHECK(!strcmp(buf, "# header\nkey two\t2\t16\t2.5000\nkey one\t8\t32\t0.5000\n"));
    }
    CHECK(lookup(sub, "key one", &e, &bad) == 1 && e.val[0] == 8 && e.val[1] == 32 && !bad);

    /* junk in an existing cache is dropped by a store, comments kept */
    write_file(path, "# mine\njunk\nkey two\t2\t16\t2.5\n",
               strlen("# mine\njunk\nkey two\t2\t16\t2.5\n"));
    e.val[0] = 3, e.val[1] = 7, e.ms = 1;
    CHECK(ps_tune_cache_store(path, "key one", &e, "# header\n") == PS_OK);
    CHECK(lookup(path, "key two", &e, &bad) == 1 && bad == 0);
    CHECK(lookup(path, "key one", &e, &bad) == 1 && e.val[0] == 3 && e.val[1] == 7);

    /* bad keys and targets are refused */
    CHECK(ps_tune_cache_store(path, "tab\tkey", &e, NULL) == PS_EINVAL);
    CHECK(ps_tune_cache_store(path, "", &e, NULL) == PS_EINVAL);
    CHECK(ps_tune_cache_store(dir, "k", &e, NULL) == PS_EINVAL);
    CHECK(ps_tune_cache_writable("/dev/null") == PS_EINVAL);

    /* the path: the variable, else XDG_CACHE_HOME (absolute only), else HOME */
    setenv(PS_TUNE_FILE_ENV, "/some/file", 1);
    CHECK(ps_tune_cache_path("n.txt", buf, sizeof buf) == 0 && !strcmp(buf, "/some/file"));
    unsetenv(PS_TUNE_FILE_ENV);
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    CHECK(ps_tune_cache_path("n.txt", buf, sizeof buf) == 0 &&
          !strcmp(buf, "/xdg/pstencil/n.txt"));
    setenv("XDG_CACHE_HOME", "relative", 1);
    setenv("HOME", "/h/u", 1);
    CHECK(ps_tune_cache_path("n.txt", buf, sizeof buf) == 0 &&
          !strcmp(buf, "/h/u/.cache/pstencil/n.txt"));
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    CHECK(ps_tune_cache_path("n.txt", buf, sizeof buf) == -1 && buf[0] == '\0');

    snprintf(buf, sizeof buf, "rm -rf '%s'", dir);
    if (system(buf) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
