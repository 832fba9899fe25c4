/* Monotonic timer. */
#include "config.h"
#include "ps_timer.h"

#include <time.h>

double ps_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
