/**
 * @file ps_json.h
 * @brief One small JSON writer for every JSON pstencil writes (the run
 *        profile, the benchmark results, the data of the HTML pages).
 *
 * Strings are escaped as RFC 8259 requires: the quote, the backslash and
 * every control character (U+0000-U+001F, and U+007F too), the short forms
 * (\\b \\f \\n \\r \\t) where JSON has them, \\u00XX otherwise. Bytes that are
 * not well-formed UTF-8 (stray continuation bytes, overlong forms, UTF-16
 * surrogates, code points above U+10FFFF, truncated sequences) are written as
 * U+FFFD, one per maximal ill-formed subpart (as Python and browsers decode
 * with replacement), so the output is always valid UTF-8 and valid JSON
 * whatever the input (a file name, a device name). With ::PS_JSON_HTML_SAFE
 * the characters < > & and U+2028/U+2029 are escaped too, so a string can be
 * embedded in an HTML script element. Numbers that are not finite (NaN, Inf)
 * are written as null.
 *
 * Usage: ps_json_init(), then values: containers with
 * ps_json_object_begin()/ps_json_object_end() and
 * ps_json_array_begin()/ps_json_array_end(), a ps_json_key() before each
 * member of an object, scalars with ps_json_string(), ps_json_number(),
 * ps_json_int(), ...; ps_json_finish() checks that exactly one complete value
 * was written and that the stream has no error. Misuse (a value without its
 * key in an object, unbalanced containers, nesting deeper than
 * ::PS_JSON_MAX_DEPTH) is recorded and reported by ps_json_finish().
 */
#ifndef PS_JSON_H
#define PS_JSON_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Writer flags for ps_json_init() and ps_json_write_string(). */
enum ps_json_flags {
    PS_JSON_PRETTY = 1u,   /**< one member or element per line, two-space indentation */
    PS_JSON_HTML_SAFE = 2u /**< also escape < > & U+2028 U+2029 (safe inside script) */
};

/** Deepest nesting of containers the writer follows. */
#define PS_JSON_MAX_DEPTH 32

/** A JSON writer on a stdio stream (fill with ps_json_init()). */
typedef struct ps_json {
    FILE *f;                           /**< the stream written to */
    unsigned flags;                    /**< ::ps_json_flags */
    int depth;                         /**< open containers */
    int count[PS_JSON_MAX_DEPTH + 1];  /**< values written at each depth */
    char kind[PS_JSON_MAX_DEPTH + 1];  /**< '{' or '[' per open container */
    char flat[PS_JSON_MAX_DEPTH + 1];  /**< container printed on one line */
    int key_pending;                   /**< a key was written, its value not yet */
    int error;                         /**< first misuse, as a PS_E* status (0: none) */
    char detail[160];                  /**< what the misuse was */
} ps_json;

/** Start writing one JSON value to @p f with ::ps_json_flags @p flags. */
void ps_json_init(ps_json *j, FILE *f, unsigned flags);

/** Open an object ({). */
void ps_json_object_begin(ps_json *j);
/** Close the innermost object (}). */
void ps_json_object_end(ps_json *j);
/** Open an array ([). */
void ps_json_array_begin(ps_json *j);
/** Close the innermost array (]). */
void ps_json_array_end(ps_json *j);

/**
 * Print the container just opened, and everything inside it, on one line
 * even in ::PS_JSON_PRETTY mode (for long lists of numbers).
 */
void ps_json_compact(ps_json *j);

/** The name of the next member of the innermost object. */
void ps_json_key(ps_json *j, const char *key);

/** A string value (escaped as described above); NULL writes null. */
void ps_json_string(ps_json *j, const char *s);

/** A number with 17 significant digits (exact round trip); NaN and Inf write null. */
void ps_json_number(ps_json *j, double v);

/**
 * A number printed with @p fmt, one printf conversion of a double ("%.4g",
 * "%.9f"); NaN and Inf write null.
 */
void ps_json_number_fmt(ps_json *j, double v, const char *fmt);

/** An integer value. */
void ps_json_int(ps_json *j, long long v);

/** An unsigned integer value. */
void ps_json_uint(ps_json *j, unsigned long long v);

/** true (@p v nonzero) or false. */
void ps_json_bool(ps_json *j, int v);

/** null. */
void ps_json_null(ps_json *j);

/** ps_json_key() then ps_json_string(). */
void ps_json_kstring(ps_json *j, const char *key, const char *s);
/** ps_json_key() then ps_json_number(). */
void ps_json_knumber(ps_json *j, const char *key, double v);
/** ps_json_key() then ps_json_number_fmt(). */
void ps_json_knumber_fmt(ps_json *j, const char *key, double v, const char *fmt);
/** ps_json_key() then ps_json_int(). */
void ps_json_kint(ps_json *j, const char *key, long long v);
/** ps_json_key() then ps_json_bool(). */
void ps_json_kbool(ps_json *j, const char *key, int v);

/**
 * End the document (a newline after a complete value). Returns PS_OK, or
 * PS_EINVAL on misuse (unbalanced, missing key, too deep, no value) or
 * PS_EIO if the stream has an error; the detail names the problem.
 */
int ps_json_finish(ps_json *j);

/**
 * Write @p s as one JSON string literal to @p f (NULL: null) with the
 * escaping described above; @p flags: ::PS_JSON_HTML_SAFE or 0. For
 * writers that emit JSON inside other text (the HTML pages' script).
 */
void ps_json_write_string(FILE *f, const char *s, unsigned flags);

/** Write @p v with printf format @p fmt (NULL: "%.17g"), or null if not finite. */
void ps_json_write_number(FILE *f, double v, const char *fmt);

#ifdef __cplusplus
}
#endif
#endif /* PS_JSON_H */
