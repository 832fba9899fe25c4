/*
 * Boxes of a split stepped concurrently (core/ps_decomp.h,
 * ps_decomp_local_concurrent(), ps_decomp_local_step()): a pool of host
 * threads ("workers"), the caller being worker 0, each stepping the boxes
 * placed on it (ps_decomp_place()) and moving their halo copies.
 *
 * A round: every worker steps its boxes, downloads the copies of the first
 * axis with copies whose source box it owns into that copy's own part of the
 * staging area, waits for every worker, uploads the copies whose destination
 * box it owns, downloads the next axis's copies, and so on. The next axis's
 * sources include ghosts the previous axis refreshed, and those were uploaded
 * by the same worker (the owner of that box), so one wait per axis suffices;
 * a context is only ever touched by its owner (PS_BACKEND_CONCURRENT).
 *
 * The wait is a barrier that spins briefly (the other workers usually arrive
 * within microseconds) and then sleeps on a condition variable, so an idle
 * pool between calls, or a loaded machine, costs no CPU time.
 */
#include "config.h"
#include "ps_decomp.h"
#include "ps_decomp_pool.h"
#include "ps_status.h"
#include "ps_timer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Spins of the barrier before it sleeps (a pause each: tens of microseconds). */
#define POOL_SPIN 2000

struct ps_decomp_pool;

typedef struct pool_slot {
    struct ps_decomp_pool *p;
    int w;
} pool_slot;

struct ps_decomp_pool {
    int n;                  /* workers, the caller included */
    int started;            /* threads started (n - 1 once set up) */
    pthread_t *tid;         /* n - 1 */
    pool_slot *slot;        /* n - 1 */
    const ps_decomp *d;
    ps_decomp_local *l;
    int *worker;            /* nboxes: the worker of each box */
    char *stage;            /* every copy of the plan, each at its own offset */
    size_t *off;            /* ncopies: byte offset of each copy in stage */
    /* the barrier */
    pthread_mutex_t m;
    pthread_cond_t cv;
    int arrived;
    unsigned long gen;
    /* the job of a round (written by worker 0 before the start barrier) */
    long nsteps;
    int exchange, finish, quit;
    /* results (per worker, or the first failure) */
    int failed, status;
    char msg[1024];
    pthread_mutex_t em;
    double *xs;  /* seconds in copies this round */
    long *moves;
    double *bytes;
};

static void pool_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

static void pool_wait(struct ps_decomp_pool *p)
{
    unsigned long g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE);
    int i;
    if (__atomic_add_fetch(&p->arrived, 1, __ATOMIC_ACQ_REL) == p->n) {
        /* the last one in: nobody arrives at the next wait before gen moves */
        __atomic_store_n(&p->arrived, 0, __ATOMIC_RELAXED);
        pthread_mutex_lock(&p->m);
        __atomic_store_n(&p->gen, g + 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->m);
        return;
    }
    for (i = 0; i < POOL_SPIN; i++) {
        if (__atomic_load_n(&p->gen, __ATOMIC_ACQUIRE) != g)
            return;
        pool_pause();
    }
    pthread_mutex_lock(&p->m);
    while (__atomic_load_n(&p->gen, __ATOMIC_ACQUIRE) == g)
        pthread_cond_wait(&p->cv, &p->m);
    pthread_mutex_unlock(&p->m);
}

/* Record a failure of worker's call (its detail is in this thread's message). */
static void pool_fail(struct ps_decomp_pool *p, int st)
{
    pthread_mutex_lock(&p->em);
    if (!p->failed) {
        p->status = st;
        snprintf(p->msg, sizeof p->msg, "%s", ps_error_detail());
        __atomic_store_n(&p->failed, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&p->em);
}

static int pool_ok(struct ps_decomp_pool *p)
{
    return !__atomic_load_n(&p->failed, __ATOMIC_ACQUIRE);
}

/* Worker w's part of a round; every worker waits the same number of times. */
static void pool_round(struct ps_decomp_pool *p, int w)
{
    const ps_decomp *d = p->d;
    ps_context **ctx = p->l->ctx;
    const size_t es = p->l->es;
    int q, a, c, st;
    double t;
    p->xs[w] = 0;
    for (q = 0; q < d->nboxes && p->nsteps > 0; q++)
        if (p->worker[q] == w && pool_ok(p) && (st = ps_context_step(ctx[q], p->nsteps)))
            pool_fail(p, st);
    for (a = 0; a < 3 && p->exchange; a++) {
        int lo = a ? d->axis_end[a - 1] : 0, hi = d->axis_end[a];
        if (lo == hi)
            continue;
        t = ps_now();
        for (c = lo; c < hi; c++) {
            const ps_decomp_copy *cp = &d->copies[c];
            if (p->worker[cp->src] == w && pool_ok(p) &&
                (st = ps_context_download(ctx[cp->src], p->stage + p->off[c], &cp->src_region)))
                pool_fail(p, st);
        }
        p->xs[w] += ps_now() - t;
        pool_wait(p);
        t = ps_now();
        for (c = lo; c < hi; c++) {
            const ps_decomp_copy *cp = &d->copies[c];
            const ps_grid n = cp->dst_region.count;
            if (p->worker[cp->dst] != w || !pool_ok(p))
                continue;
            if ((st = ps_context_upload(ctx[cp->dst], p->stage + p->off[c], &cp->dst_region))) {
                pool_fail(p, st);
                continue;
            }
            p->moves[w]++;
            p->bytes[w] += 2.0 * (double)(n.nz * n.ny * n.nx * es);
        }
        p->xs[w] += ps_now() - t;
    }
    for (q = 0; q < d->nboxes && p->finish; q++)
        if (p->worker[q] == w && pool_ok(p) && (st = ps_context_finish(ctx[q])))
            pool_fail(p, st);
}

static void *pool_main(void *arg)
{
    pool_slot *s = arg;
    struct ps_decomp_pool *p = s->p;
    for (;;) {
        pool_wait(p); /* start of a round, or quit */
        if (p->quit)
            break;
        pool_round(p, s->w);
        pool_wait(p); /* end of the round */
    }
    return NULL;
}

void ps_decomp_pool_stop(struct ps_decomp_pool *p)
{
    int i;
    if (!p)
        return;
    if (p->started) {
        p->quit = 1;
        pool_wait(p);
        for (i = 0; i < p->started; i++)
            pthread_join(p->tid[i], NULL);
    }
    pthread_mutex_destroy(&p->m);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->em);
    free(p->tid);
    free(p->slot);
    free(p->worker);
    free(p->stage);
    free(p->off);
    free(p->xs);
    free(p->moves);
    free(p->bytes);
    free(p);
}

int ps_decomp_local_concurrent(ps_decomp_local *l, const ps_decomp *d, int nworkers,
                               const int *worker)
{
    struct ps_decomp_pool *p;
    size_t total = 0;
    int q, c, st = PS_OK;
    if (nworkers <= 1 || d->nboxes < 2)
        return PS_OK;
    for (q = 0; q < d->nboxes; q++)
        if (worker[q] < 0 || worker[q] >= nworkers)
            return ps_error(PS_EINVAL, "decomposition: box %d placed on worker %d of %d", q,
                            worker[q], nworkers);
    if (l->pool)
        return ps_error(PS_EINVAL, "decomposition: the workers are already started");
    p = calloc(1, sizeof *p);
    if (!p)
        return ps_error(PS_ENOMEM, "decomposition: out of memory for %d workers", nworkers);
    p->n = nworkers;
    p->d = d;
    p->l = l;
    pthread_mutex_init(&p->m, NULL);
    pthread_cond_init(&p->cv, NULL);
    pthread_mutex_init(&p->em, NULL);
    p->tid = calloc((size_t)nworkers, sizeof *p->tid);
    p->slot = calloc((size_t)nworkers, sizeof *p->slot);
    p->worker = malloc((size_t)d->nboxes * sizeof *p->worker);
    p->off = malloc(((size_t)d->ncopies + 1) * sizeof *p->off);
    p->xs = calloc((size_t)nworkers, sizeof *p->xs);
    p->moves = calloc((size_t)nworkers, sizeof *p->moves);
    p->bytes = calloc((size_t)nworkers, sizeof *p->bytes);
    if (!p->tid || !p->slot || !p->worker || !p->off || !p->xs || !p->moves || !p->bytes) {
        st = ps_error(PS_ENOMEM, "decomposition: out of memory for %d workers", nworkers);
        goto fail;
    }
    memcpy(p->worker, worker, (size_t)d->nboxes * sizeof *p->worker);
    for (c = 0; c < d->ncopies; c++) {
        const ps_grid n = d->copies[c].src_region.count;
        p->off[c] = total;
        total += (n.nz * n.ny * n.nx * l->es + 63) & ~(size_t)63;
    }
    p->stage = malloc(total ? total : 64);
    if (!p->stage) {
        st = ps_error(PS_ENOMEM, "decomposition: cannot allocate %zu bytes of staging for "
                      "concurrent exchanges", total);
        goto fail;
    }
    for (q = 1; q < nworkers; q++) {
        int e;
        p->slot[q - 1] = (pool_slot){p, q};
        if ((e = pthread_create(&p->tid[q - 1], NULL, pool_main, &p->slot[q - 1]))) {
            st = ps_error(PS_ENOMEM, "decomposition: cannot start worker thread %d of %d: %s",
                          q, nworkers, strerror(e));
            goto fail;
        }
        p->started++;
    }
    l->pool = p;
    return PS_OK;
fail:
    if (p->started) {
        /* the started ones wait at the start barrier for all n: release them */
        int i;
        p->n = p->started + 1;
        p->quit = 1;
        pool_wait(p);
        for (i = 0; i < p->started; i++)
            pthread_join(p->tid[i], NULL);
        p->started = 0;
    }
    ps_decomp_pool_stop(p);
    return st;
}

int ps_decomp_local_share_workers(ps_decomp_local *l, const ps_decomp_local *owner)
{
    if (l->pool)
        return ps_error(PS_EINVAL, "decomposition: the transport already has workers");
    if (l->es != owner->es)
        return ps_error(PS_EINVAL, "decomposition: workers shared between %zu- and %zu-byte "
                        "fields", l->es, owner->es);
    l->pool = owner->pool;
    l->pool_shared = owner->pool != NULL;
    return PS_OK;
}

/* One box after another, each copy in turn (no workers). */
static int serial_step(const ps_decomp *d, ps_decomp_local *l, long per_round, long steps)
{
    ps_decomp_transport t = {ps_decomp_local_move, l};
    long done = 0;
    int q, st;
    while (done < steps) {
        long n = steps - done < per_round ? steps - done : per_round;
        double t0;
        for (q = 0; q < d->nboxes; q++)
            if ((st = ps_context_step(l->ctx[q], n)))
                return st;
        done += n;
        t0 = ps_now();
        st = d->nboxes > 1 ? ps_decomp_exchange(d, &t) : PS_OK;
        l->exchange_s += ps_now() - t0;
        if (st)
            return st;
    }
    for (q = 0; q < d->nboxes; q++)
        if ((st = ps_context_finish(l->ctx[q])))
            return st;
    return PS_OK;
}

int ps_decomp_local_step(const ps_decomp *d, ps_decomp_local *l, int radius, long steps)
{
    struct ps_decomp_pool *p = l->pool;
    long per_round, done = 0;
    int st, w;
    if ((st = ps_decomp_round_steps(d, radius, steps, &per_round)))
        return st;
    if (!p || steps <= 0)
        return serial_step(d, l, per_round, steps);
    p->failed = 0;
    p->l = l; /* the transport whose contexts the rounds step (shared workers) */
    while (done < steps) {
        long n = steps - done < per_round ? steps - done : per_round;
        double most = 0;
        p->nsteps = n;
        p->exchange = 1;
        p->finish = done + n == steps;
        for (w = 0; w < p->n; w++)
            p->moves[w] = 0, p->bytes[w] = 0;
        pool_wait(p); /* start */
        pool_round(p, 0);
        pool_wait(p); /* end: every worker is idle again */
        for (w = 0; w < p->n; w++) {
            l->moves += p->moves[w];
            l->bytes += p->bytes[w];
            if (p->xs[w] > most)
                most = p->xs[w];
        }
        l->exchange_s += most;
        if (p->failed)
            return ps_error(p->status, "%s", p->msg);
        done += n;
    }
    return PS_OK;
}
