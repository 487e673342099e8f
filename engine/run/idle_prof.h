/*
 * --idle-prof, as fio measures CPU idleness: a thread on each CPU, pinned, first times a
 * unit of work (writing a page of memory) while nothing else runs on it, then repeats the
 * unit under SCHED_IDLE for the whole run. The kernel runs an idle-class thread only when
 * the CPU has nothing else to do, so the units it got done, times the calibrated time of
 * one, over the run's length is the CPU's idle share. The unit's mean and sample standard
 * deviation over the CPUs are reported with it, as fio reports them.
 */
#ifndef ENGINE_RUN_IDLE_PROF_H
#define ENGINE_RUN_IDLE_PROF_H

#include "output/report.h"

struct idle_prof;

/*
 * Start the threads and wait for their calibration; for REPORT_IDLE_CALIBRATE only
 * calibrate. Returns 0 with *out set, or -errno (no thread left running).
 */
int idle_prof_start(enum report_idle_mode mode, struct idle_prof **out);

/* Stop the threads (the run ended) and fill res; res->cpu_pct lives until idle_prof_free. */
void idle_prof_stop(struct idle_prof *ip, struct report_idle *res);

void idle_prof_free(struct idle_prof *ip);

#endif
