/* Exactly rounded, order-independent sums of doubles (core/ps_exactsum.h):
 * a fixed-point integer with 2^-1074 as its unit, in 32-bit digits held in
 * signed 64-bit limbs, carries propagated lazily. */
#include "ps_exactsum.h"

#include <math.h>
#include <string.h>

/* additions a limb takes between carry passes: |limb| < 2^30 * 2^32 + 2^32 < 2^63 */
#define PS_XSUM_UNITS_MAX ((int64_t)1 << 30)
#define PS_XSUM_MASK ((uint64_t)0xffffffffu)

void ps_xsum_init(ps_xsum *a)
{
    memset(a, 0, sizeof *a);
}

void ps_xsum_normalize(ps_xsum *a)
{
    int64_t carry = 0;
    int i;
    for (i = 0; i < PS_XSUM_LIMBS - 1; i++) {
        int64_t v = a->limb[i] + carry;
        int64_t d = (int64_t)((uint64_t)v & PS_XSUM_MASK);
        carry = (v - d) / ((int64_t)1 << 32); /* exact: v - d is a multiple of 2^32 */
        a->limb[i] = d;
    }
    a->limb[PS_XSUM_LIMBS - 1] += carry;
    a->units = 1;
}

/* Add (or with @p neg subtract) m * 2^pos units: up to 64 + 31 bits from digit pos / 32,
 * three digits each below 2^32 */
static void add_at(ps_xsum *a, uint64_t m, int neg, unsigned pos)
{
    int i = (int)(pos >> 5);
    unsigned off = pos & 31u;
    uint64_t rest = off ? m >> (32 - off) : m >> 32;
    if (neg) {
        a->limb[i] -= (int64_t)((m << off) & PS_XSUM_MASK);
        a->limb[i + 1] -= (int64_t)(rest & PS_XSUM_MASK);
        a->limb[i + 2] -= (int64_t)(rest >> 32);
    } else {
        a->limb[i] += (int64_t)((m << off) & PS_XSUM_MASK);
        a->limb[i + 1] += (int64_t)(rest & PS_XSUM_MASK);
        a->limb[i + 2] += (int64_t)(rest >> 32);
    }
    if (++a->units >= PS_XSUM_UNITS_MAX)
        ps_xsum_normalize(a);
}

void ps_xsum_add(ps_xsum *a, double x)
{
    uint64_t b, m;
    unsigned e;
    memcpy(&b, &x, sizeof b);
    e = (unsigned)(b >> 52) & 0x7ffu;
    m = b & (((uint64_t)1 << 52) - 1);
    a->terms++;
    if (e == 0x7ffu) {
        if (m)
            a->nan++;
        else if (b >> 63)
            a->ninf++;
        else
            a->pinf++;
        return;
    }
    if (e) { /* normal: the hidden bit, value m * 2^(e - 1) units */
        m |= (uint64_t)1 << 52;
        e--;
    }
    if (!m) {
        a->negzero += (int64_t)(b >> 63);
        return;
    }
    add_at(a, m, (int)(b >> 63), e);
}

void ps_xsum_merge(ps_xsum *a, const ps_xsum *b)
{
    ps_xsum nb;
    int i;
    if (a->units + b->units >= PS_XSUM_UNITS_MAX) {
        ps_xsum_normalize(a);
        if (b->units >= PS_XSUM_UNITS_MAX - 1) {
            nb = *b;
            ps_xsum_normalize(&nb);
            b = &nb;
        }
    }
    for (i = 0; i < PS_XSUM_LIMBS; i++)
        a->limb[i] += b->limb[i];
    a->units += b->units;
    a->terms += b->terms;
    a->negzero += b->negzero;
    a->pinf += b->pinf;
    a->ninf += b->ninf;
    a->nan += b->nan;
}

/* bit @p pos of the non-negative normalised digits @p d */
static unsigned bit_at(const int64_t *d, int pos)
{
    return (unsigned)((uint64_t)d[pos >> 5] >> (pos & 31)) & 1u;
}

double ps_xsum_round(const ps_xsum *in)
{
    ps_xsum a;
    int neg, top, len, s, i;
    uint64_t m = 0, t;
    unsigned round, sticky = 0;
    double r;
    if (in->nan || (in->pinf && in->ninf))
        return NAN;
    if (in->pinf)
        return INFINITY;
    if (in->ninf)
        return -INFINITY;
    a = *in;
    ps_xsum_normalize(&a);
    neg = a.limb[PS_XSUM_LIMBS - 1] < 0;
    if (neg) { /* the magnitude: negate every limb and propagate again */
        for (i = 0; i < PS_XSUM_LIMBS; i++)
            a.limb[i] = -a.limb[i];
        ps_xsum_normalize(&a);
    }
    for (top = PS_XSUM_LIMBS - 1; top >= 0 && !a.limb[top]; top--)
        ;
    if (top < 0)
        return in->terms && in->negzero == in->terms ? -0.0 : 0.0;
    /* the magnitude's bit length; the top limb may exceed 32 bits only when the
     * sum is far beyond the largest double, which rounds to inf below anyway */
    t = (uint64_t)a.limb[top];
    for (len = 0; t; t >>= 1)
        len++;
    len += 32 * top;
    if (len <= 53) { /* exact: at most two digits */
        m = (uint64_t)a.limb[0] | (top >= 1 ? (uint64_t)a.limb[1] << 32 : 0);
        r = ldexp((double)m, -1074);
        return neg ? -r : r;
    }
    if (len > 32 * PS_XSUM_LIMBS - 1 || len - 1074 > 1024) {
        r = INFINITY;
        return neg ? -r : r;
    }
    s = len - 53; /* the 53 leading bits are bits s .. len-1 */
    for (i = 0; i < 53; i++)
        m |= (uint64_t)bit_at(a.limb, s + i) << i;
    round = bit_at(a.limb, s - 1);
    for (i = 0; i < (s - 1) >> 5 && !sticky; i++)
        sticky = a.limb[i] != 0;
    for (i = ((s - 1) >> 5) << 5; i < s - 1 && !sticky; i++)
        sticky = bit_at(a.limb, i);
    if (round && (sticky || (m & 1u)))
        m++;
    if (m >> 53) {
        m >>= 1;
        s++;
    }
    r = ldexp((double)m, s - 1074); /* +inf past the largest double */
    return neg ? -r : r;
}

void ps_xsum_pack(const ps_xsum *a, long long *w)
{
    ps_xsum n = *a;
    int i;
    ps_xsum_normalize(&n);
    for (i = 0; i < PS_XSUM_LIMBS; i++)
        w[i] = (long long)n.limb[i];
    w[PS_XSUM_LIMBS] = (long long)n.units;
    w[PS_XSUM_LIMBS + 1] = (long long)n.terms;
    w[PS_XSUM_LIMBS + 2] = (long long)n.negzero;
    w[PS_XSUM_LIMBS + 3] = (long long)n.pinf;
    w[PS_XSUM_LIMBS + 4] = (long long)n.ninf;
    w[PS_XSUM_LIMBS + 5] = (long long)n.nan;
}

void ps_xsum_unpack(ps_xsum *a, const long long *w)
{
    int i;
    for (i = 0; i < PS_XSUM_LIMBS; i++)
        a->limb[i] = (int64_t)w[i];
    a->units = (int64_t)w[PS_XSUM_LIMBS];
    a->terms = (int64_t)w[PS_XSUM_LIMBS + 1];
    a->negzero = (int64_t)w[PS_XSUM_LIMBS + 2];
    a->pinf = (int64_t)w[PS_XSUM_LIMBS + 3];
    a->ninf = (int64_t)w[PS_XSUM_LIMBS + 4];
    a->nan = (int64_t)w[PS_XSUM_LIMBS + 5];
    if (a->units >= PS_XSUM_UNITS_MAX)
        ps_xsum_normalize(a);
}

void ps_xsum_large_init(ps_xsum_large *l)
{
    memset(l->chunk, 0, sizeof l->chunk);
    l->nused = 0;
    l->left = PS_XSUM_LARGE_RUN;
}

void ps_xsum_large_flush(ps_xsum_large *l, ps_xsum *into)
{
    int q;
    into->terms += PS_XSUM_LARGE_RUN - l->left;
    for (q = 0; q < l->nused; q++) {
        unsigned i = l->used[q], e = i & 0x7ffu;
        /* significands of terms worth 2^(e - 1) units each (e = 0, subnormal: 2^0) */
        add_at(into, l->chunk[i], (int)(i >> 11), e ? e - 1 : 0);
        l->chunk[i] = 0;
    }
    l->nused = 0;
    l->left = PS_XSUM_LARGE_RUN;
}
