/*
 * Internals shared by core/ps_decomp.c and core/ps_decomp_pool.c (not
 * installed): the in-process move, the round length check, and stopping the
 * workers of ps_decomp_local_concurrent().
 */
#ifndef PS_DECOMP_POOL_H
#define PS_DECOMP_POOL_H

#include "ps_decomp.h"

/* The in-process transport's move (self: a ps_decomp_local). */
int ps_decomp_local_move(void *self, const ps_decomp_copy *c);

/* Steps per round (ghost / radius; all @p steps for one box), or PS_EINVAL
 * for a radius below 1 or fewer ghost layers than the radius. */
int ps_decomp_round_steps(const ps_decomp *d, int radius, long steps, long *per_round);

/* Join the workers and free the pool (NULL is ignored). */
void ps_decomp_pool_stop(struct ps_decomp_pool *p);

#endif
