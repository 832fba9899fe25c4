/**
 * @file ps_timer.h
 * @brief Monotonic wall-clock timing.
 */
#ifndef PS_TIMER_H
#define PS_TIMER_H

#ifdef __cplusplus
extern "C" {
#endif

/** Seconds from an arbitrary fixed point (CLOCK_MONOTONIC). */
double ps_now(void);

#ifdef __cplusplus
}
#endif
#endif
