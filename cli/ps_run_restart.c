/* What `run` says when a signal stopped it (ps_run_restart.h). */
#include "config.h"
#include "ps_run_restart.h"
#include "ps_outfile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void ps_run_interrupted_say(int sig, const char *output, size_t records, long last_step,
                            long steps)
{
    if (!records) {
        fprintf(stderr, "pstencil: interrupted by %s before the first record after step 0 was "
                "complete: nothing written\n", ps_signal_name(sig));
        return;
    }
    fprintf(stderr, "pstencil: interrupted by %s: %s keeps the %zu record%s completed, to step "
            "%ld of %ld (pstencil_interrupted); go on with: pstencil run --continue %s -n %ld "
            "-o NEW.nc\n", ps_signal_name(sig), output, records, records == 1 ? "" : "s",
            last_step, steps, output, steps - last_step);
}
