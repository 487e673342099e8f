/*
 * fio's --bandwidth-log: the bandwidth of all the jobs together, per direction, sampled
 * every bwavgtime (the smallest of the jobs', 500 ms by default) while no job ramps up,
 * and written at the end as agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log in the
 * working directory, in fio's log lines (msec, KiB/s, direction, 0, 0). fio samples only
 * when it computes its status line (so, without a terminal or --eta=always, it writes the
 * three files empty); iojob's status thread samples whether the line is shown or not.
 */
#ifndef ENGINE_RUN_AGG_BW_LOG_H
#define ENGINE_RUN_AGG_BW_LOG_H

#include <stdint.h>
#include <stdio.h>

#include "jobs/job.h"

struct run;

struct agg_bw_sample {
	uint64_t ms;			/* since the run's start */
	uint64_t kib_s[IO_NDIR];
};

struct agg_bw_log {
	uint64_t window_ns;
	uint64_t start_ns, last_ns;
	uint64_t last_bytes[IO_NDIR];
	struct agg_bw_sample *v;
	size_t n, cap;
};

/* Set up the log for r, started at start_ns (CLOCK_MONOTONIC). */
void agg_bw_init(struct agg_bw_log *l, const struct run *r, uint64_t start_ns);

/* A sample at now when a window has passed (none while a job ramps up). */
void agg_bw_tick(struct agg_bw_log *l, const struct run *r, uint64_t now);

/* Write the three files; 0, or -errno after a line on out naming the file. */
int agg_bw_write(const struct agg_bw_log *l, FILE *out);

void agg_bw_free(struct agg_bw_log *l);

#endif
