/*
 * A job's log files while it runs: each full chunk of a sample log is handed to a thread
 * of the job's own, which writes it to the log's file (per_job_logs=1) or to a spill file
 * beside it (per_job_logs=0, whose jobs share one file in job order), so that a log of
 * any length costs a few chunks of memory. The I/O thread hands a chunk over once per
 * chunk and waits only when the writer is that many chunks behind. The thread starts with
 * the first full chunk, on log_compression_cpus when they are set.
 */
#ifndef ENGINE_OBSERVE_LOGS_WRITER_H
#define ENGINE_OBSERVE_LOGS_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "jobs/job.h"
#include "output/joblog.h"

#define LOGS_WRITER_MAX	5	/* the sample logs of a job: clat, slat, lat, bw, iops */

/* Where one log's chunks go: a sample log's (log), or a histogram log's records (hist). */
struct log_sink_desc {
	struct joblog *log;
	struct histlog *hist;
	const char *path;	/* the log's file */
	bool own_file;		/* path is this log's alone: write there; else a spill file */
	bool discard;		/* the log has no file (disable_clat, ...): drop its chunks */
};

struct logs_writer;

/*
 * Set up the writing of logs sinks[0..n) (flags: their JOBLOG_* form; deflated: zlib
 * streams, log_store_compressed): from now on their full chunks go to the writer. A
 * histogram log comes last, after the sample logs. Returns 0 or -ENOMEM.
 */
int logs_writer_new(struct logs_writer **out, const struct log_sink_desc *sinks, unsigned n,
		    unsigned flags, bool deflated, const struct job_cpus *cpus);

/*
 * Hand the records h holds to the writer (the histogram log, the last sink); h is left
 * empty. Waits when that many records are already waiting.
 */
void logs_writer_hand_records(struct logs_writer *w, struct histlog *h);

/* Wait until every chunk handed over is written, and end the thread (until the next). */
void logs_writer_drain(struct logs_writer *w);

/* Drain, then empty the files written so far (what ramp_time logged does not count). */
void logs_writer_reset(struct logs_writer *w);

/*
 * After a drain: the file log i was written to, now the caller's to close (NULL when
 * nothing was written), and whether it is the log's own file rather than a spill file.
 */
FILE *logs_writer_take_file(struct logs_writer *w, unsigned i, bool *own_file);

/* The first error that lost entries of log i (0, or -errno), and how many were lost. */
int logs_writer_error(const struct logs_writer *w, unsigned i, uint64_t *lost_entries);

/* Drain, close the files (a spill file goes with it) and free w. */
void logs_writer_free(struct logs_writer *w);

#endif
