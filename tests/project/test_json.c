/*
 * The JSON writer (core/ps_json.h): RFC 8259 escaping of every control
 * character, ill-formed UTF-8 replaced by U+FFFD (maximal subparts), the HTML-safe
 * escapes, non-finite numbers as null, compact and pretty layouts, and
 * misuse reported by ps_json_finish(). With a path argument it also writes a
 * document of every edge case (and 4 KiB of random bytes as a string) there,
 * for tests/project/json_valid.sh to check with Python's json module.
 */
#include "config.h"
#include "ps_json.h"
#include "../ps_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The JSON of one string literal. */
static char *str_json(const char *s, unsigned flags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    ps_json_write_string(f, s, flags);
    fclose(f);
    return buf;
}

static void check_str(const char *in, unsigned flags, const char *want)
{
    char *got = str_json(in, flags);
    CHECK(got && !strcmp(got, want), "string escaping: want %s, got %s", want, got ? got : "(null)");
    free(got);
}

static char *num_json(double v, const char *fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    ps_json_write_number(f, v, fmt);
    fclose(f);
    return buf;
}

static void check_num(double v, const char *fmt, const char *want)
{
    char *got = num_json(v, fmt);
    CHECK(got && !strcmp(got, want), "number %g: want %s, got %s", v, want, got ? got : "(null)");
    free(got);
}

/* A small document in both layouts. */
static int write_doc(FILE *f, unsigned flags)
{
    ps_json j;
    ps_json_init(&j, f, flags);
    ps_json_object_begin(&j);
    ps_json_kstring(&j, "name", "a\"b");
    ps_json_kint(&j, "n", -3);
    ps_json_key(&j, "list");
    ps_json_array_begin(&j);
    ps_json_compact(&j);
    ps_json_number(&j, 0.5);
    ps_json_number(&j, NAN);
    ps_json_array_end(&j);
    ps_json_key(&j, "empty");
    ps_json_object_begin(&j);
    ps_json_object_end(&j);
    ps_json_key(&j, "nested");
    ps_json_array_begin(&j);
    ps_json_bool(&j, 1);
    ps_json_null(&j);
    ps_json_string(&j, NULL);
    ps_json_array_end(&j);
    ps_json_object_end(&j);
    return ps_json_finish(&j);
}

static void check_doc(unsigned flags, const char *want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int st = f ? write_doc(f, flags) : PS_ENOMEM;
    if (f)
        fclose(f);
    CHECK(st == PS_OK, "document (flags %u): status %d (%s)", flags, st, ps_error_detail());
    CHECK(buf && !strcmp(buf, want), "document (flags %u):\nwant <<%s>>\ngot  <<%s>>", flags, want,
          buf ? buf : "(null)");
    free(buf);
}

/* Misuse: run @p what on a fresh writer; finish must refuse with PS_EINVAL. */
static void check_misuse(const char *name, void (*what)(ps_json *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ps_json j;
    int st;
    if (!f)
        return;
    ps_json_init(&j, f, 0);
    what(&j);
    st = ps_json_finish(&j);
    fclose(f);
    free(buf);
    CHECK(st == PS_EINVAL, "misuse '%s' not reported (status %d)", name, st);
    CHECK(strstr(ps_error_detail(), "JSON writer"), "misuse '%s': detail '%s'", name,
          ps_error_detail());
}

static void m_nokey(ps_json *j)
{
    ps_json_object_begin(j);
    ps_json_int(j, 1);
    ps_json_object_end(j);
}

static void m_open(ps_json *j)
{
    ps_json_array_begin(j);
    ps_json_int(j, 1);
}

static void m_wrongclose(ps_json *j)
{
    ps_json_array_begin(j);
    ps_json_object_end(j);
}

static void m_two(ps_json *j)
{
    ps_json_int(j, 1);
    ps_json_int(j, 2);
}

static void m_keyinarray(ps_json *j)
{
    ps_json_array_begin(j);
    ps_json_key(j, "k");
    ps_json_int(j, 1);
    ps_json_array_end(j);
}

static void m_none(ps_json *j) { (void)j; }

static void m_deep(ps_json *j)
{
    int i;
    for (i = 0; i <= PS_JSON_MAX_DEPTH; i++)
        ps_json_array_begin(j);
    for (i = 0; i <= PS_JSON_MAX_DEPTH; i++)
        ps_json_array_end(j);
}

/* Every edge case in one document (checked by Python in tests/project/json_valid.sh). */
static int dump(const char *path)
{
    static const char *const cases[] = {
        "plain", "quote \" backslash \\ slash /", "\b\f\n\r\t", "\x01\x02\x1f\x7f",
        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e", "\xc3", "\xc0\xaf", "\xed\xa0\x80",
        "\xf4\x90\x80\x80", "\x80\xbf", "\xff\xfe", "\xe2\x82" "A", "</script><!--&",
        "\xe2\x80\xa8\xe2\x80\xa9", ""};
    FILE *f = fopen(path, "w");
    ps_json j;
    char rnd[4097];
    uint64_t seed = 12345;
    size_t i;
    int st;
    if (!f)
        return 1;
    for (i = 0; i < sizeof rnd - 1; i++) {
        rnd[i] = (char)(1 + (int)(ps_test_rand(&seed) * 255.0));
        if (!rnd[i])
            rnd[i] = 1;
    }
    rnd[sizeof rnd - 1] = '\0';
    {
        /* the raw bytes beside it, as decimal numbers, for Python to decode */
        char bpath[4096];
        FILE *b;
        snprintf(bpath, sizeof bpath, "%s.bytes", path);
        if (!(b = fopen(bpath, "w"))) {
            fclose(f);
            return 1;
        }
        for (i = 0; i < sizeof rnd - 1; i++)
            fprintf(b, "%u\n", (unsigned char)rnd[i]);
        if (fclose(b) != 0) {
            fclose(f);
            return 1;
        }
    }
    ps_json_init(&j, f, PS_JSON_PRETTY);
    ps_json_object_begin(&j);
    ps_json_key(&j, "strings");
    ps_json_array_begin(&j);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ps_json_string(&j, cases[i]);
    ps_json_array_end(&j);
    ps_json_key(&j, "html_safe");
    ps_json_array_begin(&j);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fputs(i ? ",\n    " : "\n    ", f); /* written raw, as the HTML pages do */
        ps_json_write_string(f, cases[i], PS_JSON_HTML_SAFE);
        j.count[j.depth]++;
    }
    ps_json_array_end(&j);
    ps_json_kstring(&j, "random", rnd);
    ps_json_key(&j, "\x01key\xff");
    ps_json_array_begin(&j);
    ps_json_compact(&j);
    ps_json_number(&j, NAN);
    ps_json_number(&j, INFINITY);
    ps_json_number(&j, -INFINITY);
    ps_json_number(&j, -0.0);
    ps_json_number(&j, 1e308);
    ps_json_number(&j, 4.9e-324);
    ps_json_number_fmt(&j, 123.456, "%.4g");
    ps_json_int(&j, -9223372036854775807LL - 1);
    ps_json_uint(&j, 18446744073709551615ULL);
    ps_json_array_end(&j);
    ps_json_object_end(&j);
    st = ps_json_finish(&j);
    if (fclose(f) != 0 || st)
        return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return dump(argv[1]);

    /* the two characters JSON requires escaped, and '/' left alone */
    check_str("a\"b\\c/d", 0, "\"a\\\"b\\\\c/d\"");
    /* every control character: the short forms, \u00XX for the rest, and DEL */
    check_str("\b\f\n\r\t", 0, "\"\\b\\f\\n\\r\\t\"");
    check_str("\x01\x1f\x7f", 0, "\"\\u0001\\u001f\\u007f\"");
    {
        char all[32];
        char *got;
        int c, bad = 0;
        for (c = 1; c < 32; c++)
            all[c - 1] = (char)c;
        all[31] = '\0';
        got = str_json(all, 0);
        for (c = 0; got && got[c]; c++)
            bad |= (unsigned char)got[c] < 0x20;
        CHECK(got && !bad, "a raw control character in %s", got ? got : "(null)");
        free(got);
    }
    /* well-formed UTF-8 passes through: 2, 3 and 4 bytes */
    check_str("caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e", 0,
              "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e\"");
    check_str("\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf", 0,
              "\"\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf\""); /* U+D7FF U+E000 U+10FFFF */
    /* ill-formed UTF-8: one U+FFFD per maximal subpart */
    check_str("\xc3", 0, "\"\\ufffd\"");                               /* truncated */
    check_str("\xe2\x82" "A", 0, "\"\\ufffdA\"");               /* truncated, then ASCII */
    check_str("\xc0\xaf", 0, "\"\\ufffd\\ufffd\"");                     /* overlong '/' */
    check_str("\xe0\x80\xaf", 0, "\"\\ufffd\\ufffd\\ufffd\"");          /* overlong, 3 bytes */
    check_str("\xed\xa0\x80", 0, "\"\\ufffd\\ufffd\\ufffd\"");          /* UTF-16 surrogate */
    check_str("\xf4\x90\x80\x80", 0, "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* above U+10FFFF */
    check_str("\x80x\xff", 0, "\"\\ufffdx\\ufffd\"");                   /* stray bytes */
    check_str("\xf0\x9d\x84", 0, "\"\\ufffd\"");          /* 4-byte cut short */
    /* HTML-safe: nothing can close the script element or end a JS line */
    check_str("</script>&", PS_JSON_HTML_SAFE, "\"\\u003c/script\\u003e\\u0026\"");
    check_str("\xe2\x80\xa8\xe2\x80\xa9", PS_JSON_HTML_SAFE, "\"\\u2028\\u2029\"");
    check_str("</script>&", 0, "\"</script>&\"");
    check_str("", 0, "\"\"");
    check_str(NULL, 0, "null");

    /* numbers: exact round trip by default, non-finite as null */
    check_num(0.1, NULL, "0.10000000000000001");
    check_num(-2.5, NULL, "-2.5");
    check_num(1e300, NULL, "1.0000000000000001e+300");
    check_num(NAN, NULL, "null");
    check_num(INFINITY, NULL, "null");
    check_num(-INFINITY, "%.4g", "null");
    check_num(123.456, "%.4g", "123.5");
    {
        char *got = num_json(0.1, NULL);
        CHECK(got && strtod(got, NULL) == 0.1, "0.1 does not round-trip: %s", got ? got : "(null)");
        free(got);
    }

    /* layouts */
    check_doc(0, "{\"name\": \"a\\\"b\", \"n\": -3, \"list\": [0.5, null], \"empty\": {}, "
                 "\"nested\": [true, null, null]}\n");
    check_doc(PS_JSON_PRETTY, "{\n  \"name\": \"a\\\"b\",\n  \"n\": -3,\n  \"list\": [0.5, null],\n"
                              "  \"empty\": {},\n  \"nested\": [\n    true,\n    null,\n    null\n"
                              "  ]\n}\n");

    /* misuse is reported, never silently written */
    check_misuse("member without a key", m_nokey);
    check_misuse("container left open", m_open);
    check_misuse("wrong closer", m_wrongclose);
    check_misuse("two top-level values", m_two);
    check_misuse("key in an array", m_keyinarray);
    check_misuse("no value", m_none);
    check_misuse("too deep", m_deep);
    return ps_test_finish("test_json");
}
