/*
 * The exact accumulator (core/ps_exactsum.h): the correctly rounded sum,
 * checked on cases whose exact sum is known and against an independent
 * correctly rounded sum (Shewchuk's partials with the final half-way
 * correction, the algorithm of Python's math.fsum); bitwise the same for
 * shuffled orders, for any split into partial accumulators merged in any
 * order, and through packs summed as integers (what MPI_Allreduce does);
 * cancellation (1e308, 1, -1e308), overflow, subnormals, ties, signed zeros,
 * inf and NaN; the lazy carries past their bound (2^31 additions in
 * check-full); the large front (ps_xsum_large) gives the same sums, its
 * chunks carried every PS_XSUM_LARGE_RUN additions.
 */
#include "pstencil.h"
#include "ps_exactsum.h"
#include "../ps_test.h"

#include <float.h>

/* Shewchuk's msum with Python fsum's rounding of the partials: correctly rounded
 * for terms whose partial sums stay finite. */
static double ref_fsum(const double *v, size_t n)
{
    double *p = malloc((n + 1) * sizeof *p), hi = 0.0, lo = 0.0, x, y, yr;
    size_t np = 0, i, j, q;
    for (q = 0; q < n; q++) {
        x = v[q];
        for (i = j = 0; j < np; j++) {
            y = p[j];
            if (fabs(x) < fabs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0)
                p[i++] = lo;
            x = hi;
        }
        np = i;
        p[np++] = x;
    }
    hi = 0.0;
    if (np > 0) {
        hi = p[--np];
        while (np > 0) {
            x = hi;
            y = p[--np];
            hi = x + y;
            yr = hi - x;
            lo = y - yr;
            if (lo != 0.0)
                break;
        }
        if (np > 0 && ((lo < 0.0 && p[np - 1] < 0.0) || (lo > 0.0 && p[np - 1] > 0.0))) {
            y = lo * 2.0;
            x = hi + y;
            yr = x - hi;
            if (y == yr)
                hi = x;
        }
    }
    free(p);
    return hi;
}

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static double xsum_of(const double *v, size_t n)
{
    ps_xsum a;
    size_t i;
    ps_xsum_init(&a);
    for (i = 0; i < n; i++)
        ps_xsum_add(&a, v[i]);
    return ps_xsum_round(&a);
}

/* the same through the large front (ps_xsum_large) */
static double large_of(const double *v, size_t n)
{
    static ps_xsum_large l;
    ps_xsum a;
    size_t i;
    ps_xsum_init(&a);
    ps_xsum_large_init(&l);
    for (i = 0; i < n; i++)
        ps_xsum_large_add(&l, &a, v[i]);
    ps_xsum_large_flush(&l, &a);
    CHECK(a.terms == (int64_t)n, "the large front counted %lld terms of %zu",
          (long long)a.terms, n);
    return ps_xsum_round(&a);
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static void shuffle(double *v, size_t n, uint64_t *s)
{
    size_t i;
    for (i = n; i > 1; i--) {
        size_t r = (size_t)(next(s) % i);
        double t = v[i - 1];
        v[i - 1] = v[r];
        v[r] = t;
    }
}

/* A case: the terms and the exact result expected. */
static void known(const char *what, const double *v, size_t n, double want)
{
    double got = xsum_of(v, n);
    CHECK(same(got, want), "%s: %.17g (%a), expected %.17g (%a)", what, got, got, want, want);
    got = large_of(v, n);
    CHECK(same(got, want), "%s through the large front: %a, expected %a", what, got, want);
}

static void known_cases(void)
{
    const double tiny = 4.9406564584124654e-324; /* 2^-1074 */
    {
        double v[] = {1e308, 1.0, -1e308};
        known("1e308 + 1 - 1e308", v, 3, 1.0);
    }
    {
        double v[] = {1.0, 1e308, -1e308, 1e-308, -1.0};
        known("1 + 1e308 - 1e308 + 1e-308 - 1", v, 5, 1e-308);
    }
    {
        double v[] = {DBL_MAX, DBL_MAX, -DBL_MAX};
        known("DBL_MAX + DBL_MAX - DBL_MAX (past the largest double on the way)", v, 3, DBL_MAX);
    }
    {
        double v[] = {DBL_MAX, DBL_MAX};
        known("DBL_MAX + DBL_MAX overflows", v, 2, INFINITY);
    }
    {
        double v[] = {-DBL_MAX, -DBL_MAX};
        known("-DBL_MAX - DBL_MAX overflows", v, 2, -INFINITY);
    }
    {
        /* DBL_MAX + half an ulp of it is the tie that rounds to inf (even) */
        double v[] = {DBL_MAX, ldexp(1.0, 970)};
        known("DBL_MAX + half an ulp", v, 2, INFINITY);
    }
    {
        double v[] = {DBL_MAX, ldexp(1.0, 969)};
        known("DBL_MAX + a quarter ulp", v, 2, DBL_MAX);
    }
    {
        double v[] = {1.0, ldexp(1.0, -53)};
        known("1 + 2^-53: a tie, to even", v, 2, 1.0);
    }
    {
        double v[] = {1.0, ldexp(1.0, -53), tiny};
        known("1 + 2^-53 + 2^-1074: past the tie", v, 3, nextafter(1.0, 2.0));
    }
    {
        double v[] = {1.0 + ldexp(1.0, -52), ldexp(1.0, -53)};
        known("(1 + 2^-52) + 2^-53: a tie, odd rounds up", v, 2, 1.0 + ldexp(1.0, -51));
    }
    {
        double v[] = {-1.0, -ldexp(1.0, -53), -tiny};
        known("negative, past the tie", v, 3, -nextafter(1.0, 2.0));
    }
    {
        double v[] = {tiny, tiny, tiny};
        known("three smallest subnormals", v, 3, 3 * tiny);
    }
    {
        double v[] = {DBL_MIN, -tiny};
        known("smallest normal less the smallest subnormal", v, 2, nextafter(DBL_MIN, 0.0));
    }
    {
        double v[] = {tiny, -tiny};
        known("x - x is +0", v, 2, 0.0);
    }
    {
        double v[] = {-0.0, -0.0};
        known("-0 + -0 is -0", v, 2, -0.0);
    }
    {
        double v[] = {-0.0, 0.0};
        known("-0 + +0 is +0", v, 2, 0.0);
    }
    {
        double v[] = {-0.0};
        known("-0 alone", v, 1, -0.0);
    }
    known("the empty sum", NULL, 0, 0.0);
    {
        double v[] = {1.0, INFINITY, -5.0};
        known("+inf wins over finite terms", v, 3, INFINITY);
    }
    {
        double v[] = {DBL_MAX, DBL_MAX, -INFINITY};
        known("-inf wins over a finite overflow", v, 3, -INFINITY);
    }
    {
        double v[] = {INFINITY, 1.0, -INFINITY};
        double r = xsum_of(v, 3);
        CHECK(isnan(r), "inf - inf: %g, expected NaN", r);
    }
    {
        double v[] = {1.0, NAN, 2.0};
        double r = xsum_of(v, 3);
        CHECK(isnan(r), "a NaN term: %g, expected NaN", r);
    }
    {
        /* partial sums far past the largest double stay exact */
        double v[] = {DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX, -DBL_MAX, -DBL_MAX, -DBL_MAX, 0.5};
        known("4 DBL_MAX - 3 DBL_MAX + 0.5", v, 8, DBL_MAX);
        v[4] = DBL_MAX;
        known("5 DBL_MAX - 2 DBL_MAX + 0.5", v, 8, INFINITY);
    }
}

/* random terms over the whole exponent range, with cancelling pairs */
static size_t make_terms(double *v, size_t n, int kind, uint64_t *s)
{
    size_t i = 0;
    while (i < n) {
        double m = (double)(next(s) >> 11) / 9007199254740992.0 + 0.5;
        int e;
        if (kind == 0)
            e = (int)(next(s) % 2000) - 1000; /* wide: subnormal-near to 2^1000 */
        else if (kind == 1)
            e = (int)(next(s) % 60) + 30; /* values of one magnitude, like V*T */
        else
            e = (int)(next(s) % 2090) - 1074; /* subnormals up to 2^1015 */
        v[i] = ldexp(m, e) * ((next(s) >> 63) ? -1.0 : 1.0);
        if (kind == 2 && i + 1 < n && (next(s) & 3) == 0) { /* an exact cancellation */
            v[i + 1] = -v[i];
            i++;
        }
        i++;
    }
    return n;
}

static void order_and_splits(int kind, size_t n, uint64_t seed)
{
    double *v = malloc(n * sizeof *v), ref, first;
    uint64_t s = seed;
    int trial;
    make_terms(v, n, kind, &s);
    ref = ref_fsum(v, n);
    first = xsum_of(v, n);
    CHECK(same(first, ref), "kind %d, %zu terms: %a, the reference says %a", kind, n, first, ref);
    CHECK(same(large_of(v, n), ref), "kind %d, %zu terms, large front: %a, the reference %a",
          kind, n, large_of(v, n), ref);
    for (trial = 0; trial < 12; trial++) {
        double r;
        shuffle(v, n, &s);
        r = xsum_of(v, n);
        CHECK(same(r, first), "kind %d, shuffle %d: %a differs from %a", kind, trial, r, first);
    }
    for (trial = 0; trial < 12; trial++) {
        int parts = 1 + (int)(next(&s) % 16), p, order[16];
        ps_xsum acc[16], total;
        long long packs[PS_XSUM_WORDS], words[PS_XSUM_WORDS];
        size_t i;
        double r;
        for (p = 0; p < parts; p++) {
            ps_xsum_init(&acc[p]);
            order[p] = p;
        }
        for (i = 0; i < n; i++)
            ps_xsum_add(&acc[next(&s) % (uint64_t)parts], v[i]);
        for (p = parts; p > 1; p--) {
            int r2 = (int)(next(&s) % (uint64_t)p), t = order[p - 1];
            order[p - 1] = order[r2];
            order[r2] = t;
        }
        ps_xsum_init(&total);
        for (p = 0; p < parts; p++)
            ps_xsum_merge(&total, &acc[order[p]]);
        r = ps_xsum_round(&total);
        CHECK(same(r, first), "kind %d, %d parts merged: %a differs from %a", kind, parts, r,
              first);
        /* the packs summed as integers, as MPI_SUM over ranks does */
        memset(packs, 0, sizeof packs);
        for (p = 0; p < parts; p++) {
            int w;
            ps_xsum_pack(&acc[order[p]], words);
            for (w = 0; w < PS_XSUM_WORDS; w++)
                packs[w] += words[w];
        }
        ps_xsum_unpack(&total, packs);
        r = ps_xsum_round(&total);
        CHECK(same(r, first), "kind %d, %d packs summed: %a differs from %a", kind, parts, r,
              first);
        CHECK(total.terms == (int64_t)n, "kind %d: %lld terms counted of %zu", kind,
              (long long)total.terms, n);
    }
    free(v);
}

/* the lazy carries: an accumulator at its bound is normalised, same value */
static void carries(void)
{
    double v[4000];
    uint64_t s = 99;
    ps_xsum a, b;
    double want, got;
    size_t i;
    make_terms(v, 4000, 0, &s);
    want = xsum_of(v, 4000);
    {
        /* one sign and exponent 3 * 2048 + 5 times: the large front's chunk carried
         * three times, then flushed; significands near 2^53 overflow a chunk that takes
         * one more */
        static double run[3 * PS_XSUM_LARGE_RUN + 5];
        for (i = 0; i < sizeof run / sizeof run[0]; i++)
            run[i] = 2.0 - (double)(i % 977 + 1) * 0x1p-40; /* significands near 2^53 */
        CHECK(same(large_of(run, sizeof run / sizeof run[0]),
                   ref_fsum(run, sizeof run / sizeof run[0])),
              "a run of one exponent through the large front: %a, the reference %a",
              large_of(run, sizeof run / sizeof run[0]),
              ref_fsum(run, sizeof run / sizeof run[0]));
    }
    ps_xsum_init(&a);
    ps_xsum_init(&b);
    for (i = 0; i < 2000; i++)
        ps_xsum_add(&a, v[i]);
    for (; i < 4000; i++)
        ps_xsum_add(&b, v[i]);
    /* units is a bound on the limbs: raising it is allowed, and forces the passes */
    a.units = ((int64_t)1 << 30) - 2;
    b.units = ((int64_t)1 << 30) - 1;
    ps_xsum_add(&a, 0.0);
    ps_xsum_merge(&a, &b);
    got = ps_xsum_round(&a);
    CHECK(same(got, want), "after forced carry passes: %a, expected %a", got, want);
    if (ps_test_full()) {
        /* 2^31 + 5 additions of one large value: past the lazy bound twice */
        const double x = ldexp(1.0, 990);
        const int64_t n = ((int64_t)1 << 31) + 5;
        int64_t q;
        ps_xsum_init(&a);
        for (q = 0; q < n; q++)
            ps_xsum_add(&a, x);
        got = ps_xsum_round(&a);
        want = x * (double)n;
        CHECK(same(got, want), "2^31 + 5 additions of 2^990: %a, expected %a", got, want);
    }
}

int main(void)
{
    known_cases();
    order_and_splits(0, 5000, 1);
    order_and_splits(1, 20000, 2);
    order_and_splits(2, 5000, 3);
    order_and_splits(0, 1, 4);
    order_and_splits(2, 3, 5);
    carries();
    return ps_test_finish("test_exactsum");
}
