/*
 * Latency logs read back as histograms over time, for latency-over-time charts and
 * heatmaps: per-I/O latency logs (write_lat_log: NAME_lat, NAME_clat, NAME_slat; "time_ms,
 * ns, ddir, bs, ...") and histogram logs (write_hist_log: "time_ms, ddir, bs, count ...",
 * fio's 1856 buckets summed in groups of 2^log_hist_coarseness, the group's count put in
 * its middle bucket). Samples of any number of logs are counted into equal windows.
 */
#ifndef OUTPUT_RESULTSET_LATLOG_READ_H
#define OUTPUT_RESULTSET_LATLOG_READ_H

#include <stddef.h>
#include <stdint.h>

#include "output/hist.h"
#include "output/resultset/logfile_read.h"

struct diag;

struct lat_sample {
	uint64_t ms, n;
	uint32_t idx;		/* the hist.h bucket */
	uint8_t ddir;
};

struct lat_samples {
	struct lat_sample *s;
	size_t n, cap;
	uint64_t max_ms;
	size_t ntimes;		/* distinct times in the log that has most: windows enough */
	unsigned dirs;		/* bit d: a sample of direction d */
};

/* Append the samples of a latency or histogram log. Returns 0 or -errno with d filled. */
int latlog_add(struct lat_samples *ls, const char *path, struct diag *d);
void latlog_free(struct lat_samples *ls);

/* Direction d's samples in about 50 windows of equal length from 0 (fewer for few times). */
struct lat_windows {
	size_t n;
	double *lo_s, *hi_s;	/* each window's start and end, in seconds */
	struct hist *h;
};

int latlog_windows(const struct lat_samples *ls, unsigned d, struct lat_windows *out);
void lat_windows_free(struct lat_windows *w);

#endif
