/*
 * log_compression: a job's full log chunks are compressed on a thread of its own (on
 * log_compression_cpus), so that the I/O thread only hands a chunk over, once per chunk.
 */
#ifndef ENGINE_LOGS_GZ_H
#define ENGINE_LOGS_GZ_H

#include "jobs/job.h"
#include "output/joblog.h"

#define LOGS_GZ_MAX	5	/* the logs a job compresses: clat, slat, lat, bw, iops */

struct logs_gz;

/*
 * Start the thread for the logs logs[0..n) (flags: their JOBLOG_* form): from now on each
 * one's full chunks go to it. Returns 0, or a negative errno (the logs keep their chunks).
 */
int logs_gz_start(struct logs_gz **out, struct joblog *const *logs, unsigned n,
		  unsigned flags, const struct job_cpus *cpus);

/*
 * Compress what is left (every chunk handed over, then what each log still holds), end the
 * thread and free g. Returns 0, or -ENOMEM when a chunk could not be compressed (lost).
 */
int logs_gz_stop(struct logs_gz *g);

#endif
