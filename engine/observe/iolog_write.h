/*
 * write_iolog: every I/O the job issues, recorded in fio's iolog version 3 as fio 3.33
 * writes it (appended to the file, a version line first, then add and open lines for the
 * job's files, a line per I/O and sync with its time in microseconds since the log was
 * opened, and close lines at the end). Private to the planner (io_plan.c).
 */
#ifndef ENGINE_OBSERVE_IOLOG_WRITE_H
#define ENGINE_OBSERVE_IOLOG_WRITE_H

struct io_req;
struct worker;

/* Open w->job->write_iolog into w->plan.rec. 0, or -errno with error_msg set. */
int iolog_write_start(struct worker *w);

/* Record r, just planned (an I/O or a sync), at w->now. */
void iolog_write_io(struct worker *w, const struct io_req *r);

/* Write the close lines and close the log; a write that failed fails the job. */
void iolog_write_end(struct worker *w);

/* Free what is left (a job that failed before its end): nothing more is written. */
void iolog_write_free(struct worker *w);

#endif
