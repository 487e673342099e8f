/*
 * Job control between the jobs of a run: wait_for (a job starts once the jobs of another
 * name have ended) and exitall, exitall_on_error and exit_what (a job that ends ends
 * others). Private to engine/: run.c calls it from each job's thread.
 */
#ifndef ENGINE_RUN_CONTROL_H
#define ENGINE_RUN_CONTROL_H

#include <stdbool.h>

struct run;

/* Whether some job of the run set exitall (fio's run-wide switch); for run_prepare(). */
bool control_exitall(const struct run *r);

/*
 * wait_for: block job i's thread until every job of the name it waits for in its phase
 * has ended (those of earlier phases have), or it is told to stop. Returns true when it
 * waited, so that its measured time starts now rather than at the phase's release.
 */
bool control_wait_for(struct run *r, unsigned i);

/*
 * Job i's thread is done with it: wake the jobs waiting for it, and with exitall (or
 * exitall_on_error when it failed) end the jobs its exit_what names.
 */
void control_job_ended(struct run *r, unsigned i);

#endif
