/**
 * @file ps_exactsum.h
 * @brief Exactly rounded, order-independent sums of doubles: a fixed-point
 *        accumulator wide enough for every finite double.
 *
 * The accumulator holds the exact sum of the terms added, as an integer
 * multiple of 2^-1074 (the smallest subnormal double) in PS_XSUM_LIMBS
 * limbs: limb i is a signed 64-bit integer whose weight is 2^(32 i - 1074),
 * normally holding a 32-bit digit; the headroom of the other 31 bits takes
 * up to 2^30 additions before the carries are propagated (lazily, by
 * ps_xsum_add() and ps_xsum_merge() themselves). 68 limbs cover 2176 bits:
 * the largest finite double (below 2^1024) times 2^63 terms, and its sign.
 *
 * Since the state is the exact sum, adding the same terms in any order, in
 * any grouping into partial accumulators merged in any order (threads,
 * boxes, MPI ranks), gives the same accumulator value, and ps_xsum_round()
 * rounds it once, to nearest with ties to even, so the result is bitwise
 * the same in every case and is the correctly rounded sum
 * (docs/numerical-contract.md, "Reductions").
 *
 * Non-finite terms are counted, not summed: the result is NaN when a NaN
 * was added or both +inf and -inf were, else +inf or -inf when one of them
 * was, as IEEE addition in any order gives. A finite exact sum beyond the
 * largest double rounds to +-inf. An exactly zero sum is -0.0 when every
 * term was -0.0 and +0.0 otherwise (an empty sum included), as IEEE
 * round-to-nearest addition gives in any order.
 */
#ifndef PS_EXACTSUM_H
#define PS_EXACTSUM_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Limbs of an accumulator: 32-bit digits weighing 2^(32 i - 1074). */
#define PS_XSUM_LIMBS 68

/** Words of ps_xsum_pack(): the limbs, then the counts. */
#define PS_XSUM_WORDS (PS_XSUM_LIMBS + 6)

/** An exact sum (zero-initialise, or ps_xsum_init()). */
typedef struct ps_xsum {
    int64_t limb[PS_XSUM_LIMBS]; /**< limb i weighs 2^(32 i - 1074) */
    int64_t units;  /**< additions of at most 2^32 per limb since the carries were
                         propagated (bounds every |limb| by units * 2^32) */
    int64_t terms;  /**< terms added */
    int64_t negzero; /**< terms that were -0.0 */
    int64_t pinf;   /**< terms that were +inf */
    int64_t ninf;   /**< terms that were -inf */
    int64_t nan;    /**< terms that were NaN */
} ps_xsum;

/** An empty sum. */
void ps_xsum_init(ps_xsum *a);

/** Add @p x exactly. */
void ps_xsum_add(ps_xsum *a, double x);

/** Add the sum held by @p b to @p a exactly (associative and commutative). */
void ps_xsum_merge(ps_xsum *a, const ps_xsum *b);

/** Propagate the carries: every limb but the last in [0, 2^32). Same value. */
void ps_xsum_normalize(ps_xsum *a);

/** The sum rounded once to the nearest double (ties to even); see the file
 *  comment for non-finite terms, overflow and the sign of zero. */
double ps_xsum_round(const ps_xsum *a);

/**
 * The accumulator as PS_XSUM_WORDS integers (normalised limbs, then units,
 * terms, -0.0, +inf, -inf and NaN counts). The element-wise integer sum of
 * the packs of several accumulators is the pack of their merge, so packs can
 * be summed by any transport of integers (MPI_Allreduce with MPI_SUM) for
 * up to 2^30 accumulators.
 */
void ps_xsum_pack(const ps_xsum *a, long long *words);

/** The accumulator a pack (or a sum of packs) holds. */
void ps_xsum_unpack(ps_xsum *a, const long long *words);

/** Additions ps_xsum_large takes between carries: a chunk holds 2^64 / 2^53 significands. */
#define PS_XSUM_LARGE_RUN 2048

/**
 * A front for long runs of additions into a ps_xsum (after Neal's "large
 * superaccumulator", arXiv:1505.05571): one 64-bit chunk per sign and
 * exponent of the terms, to which a term adds its 53-bit significand as it
 * is, with no shift; the chunks in use are carried into the ps_xsum every
 * PS_XSUM_LARGE_RUN additions and by ps_xsum_large_flush(). The sum is the
 * same exact sum; zeros and non-finite terms go to the ps_xsum directly.
 */
typedef struct ps_xsum_large {
    uint64_t chunk[4096];   /**< sum of the significands of the terms of sign and exponent i */
    uint16_t used[4096];    /**< the chunks not zero, in the order they were first added to */
    int nused;              /**< how many */
    int left;               /**< additions before the chunks must be carried */
} ps_xsum_large;

/** Empty chunks. */
void ps_xsum_large_init(ps_xsum_large *l);

/** Carry every chunk into @p into and empty them: then @p into holds every term added. */
void ps_xsum_large_flush(ps_xsum_large *l, ps_xsum *into);

/** Add @p x exactly: into @p l, or for a zero, inf or NaN into @p into. */
static inline void ps_xsum_large_add(ps_xsum_large *l, ps_xsum *into, double x)
{
    uint64_t b, c;
    unsigned i, e;
    memcpy(&b, &x, sizeof b);
    i = (unsigned)(b >> 52);
    e = i & 0x7ffu;
    if (e == 0x7ffu || !(b << 1)) {
        ps_xsum_add(into, x);
        return;
    }
    c = l->chunk[i];
    if (!c)
        l->used[l->nused++] = (uint16_t)i;
    l->chunk[i] = c + ((b & (((uint64_t)1 << 52) - 1)) | ((uint64_t)(e != 0) << 52));
    if (--l->left == 0)
        ps_xsum_large_flush(l, into);
}

#ifdef __cplusplus
}
#endif
#endif
