/*
 * The tuning cache (ps_tunecache.h): a text file of KEY, two integers and a
 * time per line, read without trusting it and rewritten atomically.
 */
#include "config.h"
#include "ps_tunecache.h"
#include "ps_outfile.h"
#include "ps_status.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TUNE_BYTES_MAX (1u << 20) /* read at most this much of a cache */
#define TUNE_LINES_MAX 10000      /* and at most this many lines */

int ps_tune_cache_path(const char *name, char *buf, size_t len)
{
    const char *f = getenv(PS_TUNE_FILE_ENV), *x = getenv("XDG_CACHE_HOME");
    const char *h = getenv("HOME");
    int n = -1;
    if (f && *f)
        n = snprintf(buf, len, "%s", f);
    else if (x && x[0] == '/')
        n = snprintf(buf, len, "%s/pstencil/%s", x, name);
    else if (h && h[0] == '/')
        n = snprintf(buf, len, "%s/.cache/pstencil/%s", h, name);
    if (n < 0 || (size_t)n >= len) {
        if (len)
            buf[0] = '\0';
        return -1;
    }
    return 0;
}

int ps_tune_key_ok(const char *key)
{
    size_t n = 0;
    if (!key || !*key)
        return 0;
    for (; key[n]; n++) {
        unsigned char ch = (unsigned char)key[n];
        if (ch < 0x20 || ch == 0x7f || n >= PS_TUNE_LINE_MAX / 2)
            return 0;
    }
    return 1;
}

/*
 * Read at most TUNE_BYTES_MAX bytes of @p path into a NUL-terminated buffer
 * (the file must be a regular file or a character device such as /dev/null:
 * opening a FIFO must not block). Returns 1 (read), 0 (no such file) or -1
 * (unreadable, reason in @p why).
 */
static int read_capped(const char *path, char **out, size_t *len, char *why, size_t whylen)
{
    struct stat sb;
    char *b = NULL;
    size_t n = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    *out = NULL;
    *len = 0;
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(why, whylen, "cannot open it: %s", strerror(errno));
        return -1;
    }
    if (fstat(fd, &sb) || !(S_ISREG(sb.st_mode) || S_ISCHR(sb.st_mode))) {
        snprintf(why, whylen, "not a regular file");
        close(fd);
        return -1;
    }
    b = malloc(TUNE_BYTES_MAX + 1);
    if (!b) {
        snprintf(why, whylen, "out of memory");
        close(fd);
        return -1;
    }
    while (n < TUNE_BYTES_MAX) {
        ssize_t r = read(fd, b + n, TUNE_BYTES_MAX - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(why, whylen, "cannot read it: %s", strerror(errno));
            free(b);
            close(fd);
            return -1;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    b[n] = '\0';
    *out = b;
    *len = n;
    return 1;
}

static int parse_long(const char *s, long *v)
{
    char *end;
    errno = 0;
    if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
        return -1;
    *v = strtol(s, &end, 10);
    return errno || *end ? -1 : 0;
}

/*
 * One line of @p n bytes (no newline; modified in place): 1 an entry (*key
 * and *e set), 0 a comment or blank line, -1 a bad line (*reason set).
 */
static int parse_line(char *line, size_t n, const long lo[2], const long hi[2], char **key,
                      ps_tune_entry *e, const char **reason)
{
    char *f[4], *p = line, *end;
    size_t i;
    int nf = 0;
    if (n && line[n - 1] == '\r')
        line[--n] = '\0';
    if (n == 0 || line[0] == '#')
        return 0;
    if (n >= PS_TUNE_LINE_MAX) {
        *reason = "too long";
        return -1;
    }
    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)line[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
            *reason = "a control or NUL byte";
            return -1;
        }
    }
    for (;;) {
        char *t = strchr(p, '\t');
        if (nf == 4) {
            *reason = "more than 4 tab-separated fields";
            return -1;
        }
        f[nf++] = p;
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    if (nf != 4) {
        *reason = "not 4 tab-separated fields (key, two integers, ms per step)";
        return -1;
    }
    if (!ps_tune_key_ok(f[0])) {
        *reason = "an empty or unprintable key";
        return -1;
    }
    for (i = 0; i < 2; i++)
        if (parse_long(f[1 + i], &e->val[i]) || e->val[i] < lo[i] || e->val[i] > hi[i]) {
            *reason = "a value that is not an integer in range";
            return -1;
        }
    errno = 0;
    e->ms = strtod(f[3], &end);
    if (errno || end == f[3] || *end || !isfinite(e->ms) || e->ms < 0) {
        *reason = "a time that is not a finite number >= 0";
        return -1;
    }
    *key = f[0];
    return 1;
}

/*
 * Call @p fn for every line of @p buf (modified in place) up to
 * TUNE_LINES_MAX: with the line, its length and whether it ended with a
 * newline. Stops early when fn returns nonzero.
 */
typedef int (*line_fn)(void *user, char *line, size_t n, int lineno);

static void each_line(char *buf, size_t len, line_fn fn, void *user)
{
    size_t at = 0;
    int lineno = 0;
    while (at < len && lineno < TUNE_LINES_MAX) {
        char *nl = memchr(buf + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;
        buf[at + n] = '\0';
        if (fn(user, buf + at, n, ++lineno))
            return;
        at += n + 1;
    }
}

typedef struct lookup_state {
    const char *key;
    const long *lo, *hi;
    ps_tune_entry *e;
    int found, bad;
    char *why;
    size_t whylen;
} lookup_state;

static int lookup_line(void *user, char *line, size_t n, int lineno)
{
    lookup_state *s = user;
    ps_tune_entry e;
    const char *reason = NULL;
    char *key;
    int r = parse_line(line, n, s->lo, s->hi, &key, &e, &reason);
    if (r < 0 && s->bad++ == 0)
        snprintf(s->why, s->whylen, "line %d ignored (%s)", lineno, reason);
    if (r > 0 && !strcmp(key, s->key)) {
        *s->e = e;
        s->found = 1;
    }
    return 0;
}

int ps_tune_cache_lookup(const char *path, const char *key, const long lo[2],
                         const long hi[2], ps_tune_entry *e, int *bad, char *why,
                         size_t whylen)
{
    lookup_state s = {key, lo, hi, e, 0, 0, why, whylen};
    char *buf;
    size_t len;
    int r = read_capped(path, &buf, &len, why, whylen);
    *bad = r < 0;
    if (r <= 0)
        return r;
    each_line(buf, len, lookup_line, &s);
    free(buf);
    *bad = s.bad;
    return s.found;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

typedef struct store_state {
    const char *key;
    char *out;
    size_t len, cap;
    int fail;
} store_state;

static void append(store_state *s, const char *p, size_t n)
{
    if (s->fail)
        return;
    if (s->len + n + 1 > s->cap) {
        size_t cap = (s->len + n + 1) * 2;
        char *o = realloc(s->out, cap);
        if (!o) {
            s->fail = 1;
            return;
        }
        s->out = o;
        s->cap = cap;
    }
    memcpy(s->out + s->len, p, n);
    s->len += n;
    s->out[s->len] = '\0';
}

static const long any_lo[2] = {LONG_MIN, LONG_MIN}, any_hi[2] = {LONG_MAX, LONG_MAX};

/* keep comments and the valid entries of other keys, each rewritten as read */
static int store_line(void *user, char *line, size_t n, int lineno)
{
    store_state *s = user;
    ps_tune_entry e;
    const char *reason;
    char *key, copy[PS_TUNE_LINE_MAX];
    int r;
    (void)lineno;
    if (n >= sizeof copy)
        return 0;
    memcpy(copy, line, n + 1);
    r = parse_line(line, n, any_lo, any_hi, &key, &e, &reason);
    if ((r == 0 && n > 0 && copy[0] == '#') || (r > 0 && strcmp(key, s->key))) {
        append(s, copy, strlen(copy));
        append(s, "\n", 1);
    }
    return 0;
}

/* mkdir -p of the directory holding @p path */
static int make_parent(const char *path)
{
    char dir[4096];
    char *p;
    size_t n = strlen(path);
    if (n >= sizeof dir)
        return ps_error(PS_EINVAL, "tuning cache path too long: %s", path);
    memcpy(dir, path, n + 1);
    p = strrchr(dir, '/');
    if (!p || p == dir)
        return PS_OK;
    *p = '\0';
    for (p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0777) && errno != EEXIST)
            return ps_error(PS_EIO, "cannot create directory %s: %s", dir, strerror(errno));
        *p = '/';
    }
    if (mkdir(dir, 0777) && errno != EEXIST)
        return ps_error(PS_EIO, "cannot create directory %s: %s", dir, strerror(errno));
    return PS_OK;
}

int ps_tune_cache_writable(const char *path)
{
    struct stat sb;
    if (!path || !*path)
        return ps_error(PS_EINVAL, "no tuning cache path (set %s, XDG_CACHE_HOME or HOME)",
                        PS_TUNE_FILE_ENV);
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return ps_error(PS_EINVAL, "tuning cache %s is not a regular file", path);
    return PS_OK;
}

int ps_tune_cache_store(const char *path, const char *key, const ps_tune_entry *e,
                        const char *header)
{
    store_state s = {key, NULL, 0, 0, 0};
    ps_outfile o;
    char why[256], line[PS_TUNE_LINE_MAX + 64], *old = NULL;
    size_t oldlen = 0, off = 0;
    int r, st, n;
    if (!ps_tune_key_ok(key))
        return ps_error(PS_EINVAL, "tuning cache key is empty, too long or unprintable");
    if (!isfinite(e->ms) || e->ms < 0)
        return ps_error(PS_EINVAL, "tuning cache time %g is not a finite number >= 0", e->ms);
    if ((st = ps_tune_cache_writable(path)) || (st = make_parent(path)))
        return st;
    r = read_capped(path, &old, &oldlen, why, sizeof why);
    if (r < 0)
        return ps_error(PS_EIO, "tuning cache %s: %s", path, why);
    if (r == 0 && header)
        append(&s, header, strlen(header));
    if (r > 0)
        each_line(old, oldlen, store_line, &s);
    free(old);
    n = snprintf(line, sizeof line, "%s\t%ld\t%ld\t%.4f\n", key, e->val[0], e->val[1], e->ms);
    append(&s, line, (size_t)n);
    if (s.fail) {
        free(s.out);
        return ps_error(PS_ENOMEM, "out of memory writing the tuning cache");
    }
    if ((st = ps_outfile_begin(&o, path, 1))) {
        free(s.out);
        return st;
    }
    while (off < s.len) {
        ssize_t w = write(o.fd, s.out + off, s.len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            st = ps_error(PS_EIO, "cannot write %s: %s", o.tmp, strerror(errno));
            ps_outfile_abort(&o);
            free(s.out);
            return st;
        }
        off += (size_t)w;
    }
    free(s.out);
    return ps_outfile_publish(&o);
}
