/*
 * openfiles=: a job keeps at most that many of its files open. The planner takes I/O from
 * the open ones (file_service_type among them); a file whose pass over its region is done
 * is closed, once its I/O in flight has completed, and the next file not yet done is
 * opened in its place; when every file is done a new pass starts from the first. fio
 * does the same (get_next_file() opens a file only below the limit, and closes one once
 * it is done). Part of the planner: struct file_window is embedded in struct io_plan.
 */
#ifndef ENGINE_PLAN_FILE_WINDOW_H
#define ENGINE_PLAN_FILE_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

struct io_req;
struct worker;

struct file_window {
	bool on;		/* openfiles is below the job's files */
	bool waiting;		/* no open file may take I/O until one in flight completes */
	bool changed;		/* files were opened or closed: the engine sees them again */
	unsigned limit;		/* openfiles */
	unsigned nopen;
	unsigned next_open;	/* the next file to open in this pass */
	unsigned cur;		/* the file taking I/O */
	unsigned left;		/* I/Os before file_service_type switches file */
	struct window_file *files;
};

/*
 * Set the window up after files_open() opened the first limit files; 0 or -ENOMEM. Off
 * (nothing to do per I/O) unless openfiles is below the number of files.
 */
int window_init(struct worker *w);
void window_free(struct worker *w);

/*
 * The file of the next I/O: its index, or -1 when none of the open files can take it
 * until I/O in flight completes (waiting is then set), or an open failed (the job failed).
 */
int window_pick(struct worker *w);

/*
 * The I/O planned on file i took len bytes (its length as planned: cut to fit, or drawn
 * again): counted against the file's region, and file_service_type moves on. Counting
 * the length asked for instead left a file's random map full and its count short, so its
 * next pass began while other files were untouched (openfiles=1 with bssplit).
 */
void window_served(struct worker *w, unsigned i, uint32_t len);

/* Sequential streams: file i's pass ended before its bytes did (a stream reached its end). */
void window_file_over(struct worker *w, unsigned i);

/* An I/O or sync was planned on file i, or one completed (r): count what is in flight. */
void window_issued(struct worker *w, unsigned i);
void window_completed(struct worker *w, const struct io_req *r);

/* unlink_each_loop recreated the files (the first limit ones open): a new pass. */
void window_reset(struct worker *w);

#endif
