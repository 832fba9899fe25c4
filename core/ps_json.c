/* The JSON writer (core/ps_json.h): escaping, numbers, containers. */
#include "config.h"
#include "ps_json.h"
#include "ps_status.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at @p p (2..4; RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), with its code point
 * in @p cp; or, if it is ill-formed, minus the length of its maximal subpart
 * (the lead byte and the continuation bytes that could still have started a
 * valid sequence), which becomes one U+FFFD, as the Unicode standard
 * (section 3.9) and the WHATWG decoders do. */
static int utf8_seq(const unsigned char *p, unsigned long *cp)
{
    unsigned c = p[0], lo = 0x80, hi = 0xBF;
    int n, k;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return -1;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (p[1] < lo || p[1] > hi)
        return -1;
    for (k = 2; k < n; k++)
        if (p[k] < 0x80 || p[k] > 0xBF)
            return -k;
    *cp = c & (0xFFu >> (n + 1));
    for (k = 1; k < n; k++)
        *cp = (*cp << 6) | (p[k] & 0x3Fu);
    return n;
}

void ps_json_write_string(FILE *f, const char *s, unsigned flags)
{
    const unsigned char *p = (const unsigned char *)s;
    int html = (flags & PS_JSON_HTML_SAFE) != 0;
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    while (*p) {
        unsigned c = *p;
        unsigned long cp;
        int n;
        if (c < 0x80) {
            switch (c) {
            case '"': fputs("\\\"", f); break;
            case '\\': fputs("\\\\", f); break;
            case '\b': fputs("\\b", f); break;
            case '\f': fputs("\\f", f); break;
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default:
                if (c < 0x20 || c == 0x7F || (html && (c == '<' || c == '>' || c == '&')))
                    fprintf(f, "\\u%04x", c);
                else
                    fputc((int)c, f);
            }
            p++;
            continue;
        }
        n = utf8_seq(p, &cp);
        if (n < 0) {
            fputs("\\ufffd", f); /* not UTF-8: the replacement character */
            p += -n;
            continue;
        }
        if (html && (cp == 0x2028 || cp == 0x2029))
            fprintf(f, "\\u%04lx", cp); /* line separators end a JavaScript line */
        else
            fwrite(p, 1, (size_t)n, f);
        p += n;
    }
    fputc('"', f);
}

void ps_json_write_number(FILE *f, double v, const char *fmt)
{
    if (!isfinite(v))
        fputs("null", f);
    else
        fprintf(f, fmt ? fmt : "%.17g", v);
}

/* Record the first misuse; ps_json_finish() reports it. */
static void misuse(ps_json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void misuse(ps_json *j, const char *fmt, ...)
{
    va_list ap;
    if (j->error)
        return;
    va_start(ap, fmt);
    vsnprintf(j->detail, sizeof j->detail, fmt, ap);
    va_end(ap);
    j->error = PS_EINVAL;
}

void ps_json_init(ps_json *j, FILE *f, unsigned flags)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    j->flags = flags;
}

static int pretty(const ps_json *j)
{
    return (j->flags & PS_JSON_PRETTY) && !j->flat[j->depth];
}

static void newline(ps_json *j, int depth)
{
    fputc('\n', j->f);
    fprintf(j->f, "%*s", 2 * depth, "");
}

/* Before any value: the separator, the indentation, the key rule. */
static int before_value(ps_json *j)
{
    if (j->error)
        return -1;
    if (j->depth == 0) {
        if (j->count[0]) {
            misuse(j, "more than one top-level value");
            return -1;
        }
    } else if (j->kind[j->depth] == '{') {
        if (!j->key_pending) {
            misuse(j, "an object member without a key");
            return -1;
        }
        j->key_pending = 0;
        j->count[j->depth]++;
        return 0;
    } else {
        if (j->count[j->depth])
            fputc(',', j->f);
        if (pretty(j))
            newline(j, j->depth);
        else if (j->count[j->depth])
            fputc(' ', j->f);
    }
    j->count[j->depth]++;
    return 0;
}

void ps_json_key(ps_json *j, const char *key)
{
    if (j->error)
        return;
    if (j->depth == 0 || j->kind[j->depth] != '{' || j->key_pending) {
        misuse(j, "key '%s' outside an object or twice", key ? key : "");
        return;
    }
    if (j->count[j->depth])
        fputc(',', j->f);
    if (pretty(j))
        newline(j, j->depth);
    else if (j->count[j->depth])
        fputc(' ', j->f);
    ps_json_write_string(j->f, key ? key : "", j->flags & PS_JSON_HTML_SAFE);
    fputs(": ", j->f);
    j->key_pending = 1;
}

static void open_container(ps_json *j, char kind)
{
    if (before_value(j))
        return;
    if (j->depth >= PS_JSON_MAX_DEPTH) {
        misuse(j, "nesting deeper than %d", PS_JSON_MAX_DEPTH);
        return;
    }
    fputc(kind, j->f);
    j->depth++;
    j->kind[j->depth] = kind;
    j->count[j->depth] = 0;
    j->flat[j->depth] = j->flat[j->depth - 1];
}

static void close_container(ps_json *j, char kind)
{
    int had;
    if (j->error)
        return;
    if (j->depth == 0 || j->kind[j->depth] != kind || j->key_pending) {
        misuse(j, "'%c' does not close an open %s", kind == '{' ? '}' : ']',
               kind == '{' ? "object" : "array");
        return;
    }
    had = j->count[j->depth];
    if (had && pretty(j))
        newline(j, j->depth - 1);
    j->depth--;
    fputc(kind == '{' ? '}' : ']', j->f);
}

void ps_json_object_begin(ps_json *j) { open_container(j, '{'); }
void ps_json_object_end(ps_json *j) { close_container(j, '{'); }
void ps_json_array_begin(ps_json *j) { open_container(j, '['); }
void ps_json_array_end(ps_json *j) { close_container(j, '['); }

void ps_json_compact(ps_json *j)
{
    if (!j->error && j->depth > 0)
        j->flat[j->depth] = 1;
}

void ps_json_string(ps_json *j, const char *s)
{
    if (!before_value(j))
        ps_json_write_string(j->f, s, j->flags & PS_JSON_HTML_SAFE);
}

void ps_json_number(ps_json *j, double v)
{
    if (!before_value(j))
        ps_json_write_number(j->f, v, NULL);
}

void ps_json_number_fmt(ps_json *j, double v, const char *fmt)
{
    if (!before_value(j))
        ps_json_write_number(j->f, v, fmt);
}

void ps_json_int(ps_json *j, long long v)
{
    if (!before_value(j))
        fprintf(j->f, "%lld", v);
}

void ps_json_uint(ps_json *j, unsigned long long v)
{
    if (!before_value(j))
        fprintf(j->f, "%llu", v);
}

void ps_json_bool(ps_json *j, int v)
{
    if (!before_value(j))
        fputs(v ? "true" : "false", j->f);
}

void ps_json_null(ps_json *j)
{
    if (!before_value(j))
        fputs("null", j->f);
}

void ps_json_kstring(ps_json *j, const char *key, const char *s)
{
    ps_json_key(j, key);
    ps_json_string(j, s);
}

void ps_json_knumber(ps_json *j, const char *key, double v)
{
    ps_json_key(j, key);
    ps_json_number(j, v);
}

void ps_json_knumber_fmt(ps_json *j, const char *key, double v, const char *fmt)
{
    ps_json_key(j, key);
    ps_json_number_fmt(j, v, fmt);
}

void ps_json_kint(ps_json *j, const char *key, long long v)
{
    ps_json_key(j, key);
    ps_json_int(j, v);
}

void ps_json_kbool(ps_json *j, const char *key, int v)
{
    ps_json_key(j, key);
    ps_json_bool(j, v);
}

int ps_json_finish(ps_json *j)
{
    if (!j->error && j->depth != 0)
        misuse(j, "%d container%s left open", j->depth, j->depth == 1 ? "" : "s");
    if (!j->error && j->count[0] != 1)
        misuse(j, "no value written");
    if (j->error)
        return ps_error(j->error, "JSON writer: %s", j->detail);
    fputc('\n', j->f);
    if (ferror(j->f))
        return ps_error(PS_EIO, "JSON writer: the stream has an error");
    return PS_OK;
}
