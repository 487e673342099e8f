/*
 * What a run shows while it runs: fio's one-line status ("Jobs: 2 (f=2): [r(2)][45.0%]
 * [r=196MiB/s][r=50.1k IOPS][eta 00m:05s]") and --status-interval's per-interval results,
 * as text or one JSON object per line. Plain data in, text out.
 */
#ifndef OUTPUT_STATUS_H
#define OUTPUT_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "output/stats.h"

struct status_view {
	unsigned running;		/* jobs doing I/O or ramping */
	unsigned files;			/* their open files */
	const char *states;		/* one char per job: 'r' 'R' 'w' 'W' 'm' 'M' ... '_' 'P' */
	unsigned njobs;
	double pct;			/* done, 0..100; < 0 when unknown */
	int64_t eta_s;			/* seconds left, < 0 when unknown */
	uint64_t bw[STATS_NDIR];	/* bytes per second over the last interval */
	uint64_t iops[STATS_NDIR];
	bool bits;			/* unit_base=1 (fio takes the last job's): bw in bits */
	unsigned long cell, ncells;	/* a sweep's cell, from 1, of ncells (> 1) */
	int64_t sweep_eta_s;		/* seconds left of the whole sweep, < 0 when unknown */
};

/* The status line, without the final '\r'. Returns buf. */
char *status_line(char *buf, size_t len, const struct status_view *v);

/* One job's results over one --status-interval: rates and mean completion latency. */
struct status_interval {
	const char *name;
	uint64_t ios[STATS_NDIR];
	uint64_t bytes[STATS_NDIR];
	uint64_t clat_sum_ns[STATS_NDIR];
};

/*
 * The results of the interval [start_ms, end_ms) (since the run began) for n jobs: as
 * text lines, or as one JSON object on one line.
 */
void status_interval_text(FILE *f, unsigned seq, uint64_t start_ms, uint64_t end_ms,
			  const struct status_interval *jobs, unsigned n, unsigned kb_base);
void status_interval_json(FILE *f, unsigned seq, uint64_t start_ms, uint64_t end_ms,
			  const struct status_interval *jobs, unsigned n);

#endif
