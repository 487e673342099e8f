/*
 * A job's log files while it runs: what each completion adds (one entry per I/O, or into
 * the current log_avg_msec window), the windows and histogram intervals closed between
 * I/Os, the sample logs' full chunks written as they fill (logs_writer.h), and the rest
 * written once the run is over.
 */
#ifndef ENGINE_OBSERVE_LOGS_H
#define ENGINE_OBSERVE_LOGS_H

#include <stdbool.h>
#include <stdint.h>

#include "jobs/jobs.h"
#include "engine/observe/logs_writer.h"
#include "output/joblog.h"
#include "output/stats.h"

struct diag;
struct io_req;
struct worker;


struct job_logs {
	bool lat, bw, iops;		/* which of write_lat/bw/iops_log are on */
	bool averaged;			/* log_avg_msec: entries per window, not per I/O */
	bool window_max;		/* log_window_value=max: a window's largest latency */
	bool track_max;			/* max or both: windows keep their largest values */
	unsigned form;			/* JOBLOG_OFFSET, JOBLOG_PRIO */
	uint16_t ioprio;		/* the job's own priority, for I/Os cmdprio did not pick */
	struct logs_writer *writer;	/* writes the sample logs' full chunks as they fill */
	char *paths[LOGS_WRITER_MAX + 1];	/* their files: sample_logs() order, then hist */
	struct joblog clat_log, slat_log, lat_log, bw_log, iops_log;
	struct histlog hist;
	struct hist *hist_before;	/* clat histograms at the last hist entry, per direction */
	/* the current log_avg_msec window, per direction */
	uint64_t win_n[IO_NDIR], win_bytes[IO_NDIR];
	uint64_t win_clat[IO_NDIR], win_slat[IO_NDIR], win_lat[IO_NDIR];
	uint64_t max_clat[IO_NDIR], max_slat[IO_NDIR], max_lat[IO_NDIR];
	uint64_t t_win_start, t_next_avg, avg_ticks;	/* clock ticks */
	uint64_t t_next_hist, hist_ticks;
	uint64_t avg_windows, hist_windows;	/* windows closed so far: their nominal times */
	uint64_t epoch_ns;		/* added to every time: log_unix/alternate_epoch */
	uint64_t epoch_ms;		/* the same in ms, for the windows' times */
};

/* The logs a job asked for, or NULL when none (or on ENOMEM, with -ENOMEM in *err). */
struct job_logs *logs_create(const struct job_desc *j, int *err);
void logs_free(struct job_logs *l);

/* The measured phase starts (again, after ramp_time): nothing logged before counts. */
void logs_start(struct worker *w);

/*
 * One completed I/O: an entry per log, or sums for the current window. Called only when
 * w->logs is set, with the latencies the accounting already computed.
 */
void logs_io(struct worker *w, const struct io_req *r, uint64_t now, uint64_t clat_ns,
	     uint64_t lat_ns);

/* The earliest log deadline, UINT64_MAX when none; and what to do when it has passed. */
uint64_t logs_next_deadline(const struct worker *w);
void logs_tick(struct worker *w);

/* The job ended: close the last, partial window. */
void logs_finish(struct worker *w);

/*
 * Whether the job's log files may be written (engine/devices/path_guard.h), checked before
 * the run: 0, or -EINVAL (a usage error) with d naming the job, the option and the file.
 */
int logs_check_paths(const struct job_desc *j, struct diag *d);

/* Write the files of every job that logged (PREFIX_TYPE.N.log, or PREFIX_TYPE.log). */
int logs_write_all(const struct job_list *jobs, struct job_logs *const *logs,
		   struct diag *d);

#endif
