/*
 * steadystate, as fio 3.33 detects it: once a second a thread of its own reads what each
 * job of the phase published (engine.h's struct job_progress: counts and when they were
 * taken), keeps the last steadystate_duration seconds of IOPS and bandwidth, per job or
 * per group under group_reporting, and ends the job (or the whole group) once the
 * criterion falls below the limit. The jobs never wait for it and their I/O path does
 * nothing for it. Private to engine/: run.c starts and stops it around each phase.
 */
#ifndef ENGINE_OBSERVE_STEADY_H
#define ENGINE_OBSERVE_STEADY_H

struct report_ss;
struct run;
struct steady;

/*
 * Watch the jobs of the phase that set steadystate_duration: *out is NULL, and nothing
 * runs, when none does. Returns 0 or -errno (no memory, no thread).
 */
int steady_start(struct run *r, unsigned phase, struct steady **out);

/*
 * The window of job index as it stands (malloc'd, for --status-interval's reports), or
 * NULL where that job keeps none or there is no memory.
 */
struct report_ss *steady_snapshot(struct steady *s, unsigned index);

/*
 * Once the phase's jobs have ended: stop watching and leave each window in its job's
 * result (job_result.ss: the job's, or under group_reporting its group's last job's).
 */
void steady_stop(struct steady *s);

#endif
