/* Internal to the program: what `run` says when a signal stopped it. The run
 * record of an output and reading it back are the job layer's
 * (job/ps_job_record.c). */
#ifndef PS_RUN_RESTART_H
#define PS_RUN_RESTART_H

#include "pstencil_io.h"

/* Tell (stderr) what a run stopped by signal @p sig kept in @p output: @p records
 * records, to step @p last_step of @p steps, and the command that goes on from
 * them; with no record, that nothing was written. */
void ps_run_interrupted_say(int sig, const char *output, size_t records, long last_step,
                            long steps);

#endif
