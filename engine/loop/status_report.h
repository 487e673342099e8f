/*
 * --status-interval's full reports, for the status thread (engine/run/status_thread.c): the whole
 * report of the run so far, as fio prints it each interval, built from copies of their
 * statistics that the jobs make between two I/Os when asked (run_status_answer()).
 */
#ifndef ENGINE_LOOP_STATUS_REPORT_H
#define ENGINE_LOOP_STATUS_REPORT_H

#include <stdatomic.h>
#include <stdio.h>

struct run;
struct status_report;

/*
 * Take the memory before the jobs start (two copies of each job's statistics, which the
 * jobs learn of through their progress). Returns 0 or -ENOMEM; status_report_free() in
 * either case.
 */
int status_report_init(struct status_report **out, struct run *r);

/*
 * Print the report of the run so far to f in every format of formats, unless every job
 * has ended (the run's own report follows then). Waits a little for the jobs' copies; a
 * job that does not answer in time is shown as its last copy left it; quit cuts the wait.
 */
void status_report_show(struct status_report *sr, FILE *f, unsigned formats,
			const atomic_bool *quit);

/* Free it, after the jobs have ended. NULL is fine. */
void status_report_free(struct status_report *sr);

#endif
