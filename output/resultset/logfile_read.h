/*
 * Bandwidth and IOPS logs in fio's format (write_bw_log, write_iops_log; see joblog.h)
 * read back as values over time for charts: "time_ms, value, ddir, bs, ...". Averaged
 * logs (log_avg_msec; bs 0) hold a rate per window already: KiB/s or I/O per s. Per-I/O
 * logs hold one line per I/O, so they are counted into about 100 windows of equal length.
 */
#ifndef OUTPUT_RESULTSET_LOGFILE_READ_H
#define OUTPUT_RESULTSET_LOGFILE_READ_H

#include <stddef.h>
#include <stdint.h>

struct diag;

/* LOG_LAT .. LOG_HIST are read by latlog_read.h. */
enum log_kind { LOG_BW, LOG_IOPS, LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_HIST, LOG_OTHER };

#define LOG_NDIR	3	/* read, write, trim */

/* Points of one direction: seconds since the start, MiB/s or I/O per second. */
struct log_points {
	double *t_s, *v;
	size_t n, cap;
};

/*
 * What a log holds, by its name: "job_bw.1.log", "x_iops.log", "x_clat.2.log",
 * "x_clat_hist.1.log"; LOG_OTHER otherwise.
 */
enum log_kind logfile_kind(const char *path);

/* Read the log at path into a series per direction. Returns 0 or -errno with d filled. */
int logfile_read(const char *path, enum log_kind kind, struct log_points out[LOG_NDIR],
		 struct diag *d);

/*
 * The logs at paths (all bandwidth or all IOPS) added together: per-I/O logs counted into
 * the same windows, averaged logs summed window by window (entries log_avg_msec apart,
 * matched by their time rounded to that step). Returns 0, 1 (nothing in out) when some
 * logs are averaged and others not, or -errno with d filled.
 */
int logfile_read_sum(const char *const *paths, size_t n, enum log_kind kind,
		     struct log_points out[LOG_NDIR], struct diag *d);

void log_points_free(struct log_points p[LOG_NDIR]);

/* One line of a fio log: "time_ms, value, ddir, bs, ...". */
struct log_entry {
	uint64_t ms, value, bs;
	unsigned ddir;
};

struct log_entries {
	struct log_entry *e;
	size_t n, cap;
};

/*
 * Append the lines of the log at path to es. A last line without its newline (a writer
 * killed midway) is dropped with a note in d. Returns 0 or -errno with d filled.
 */
int logfile_entries(const char *path, struct log_entries *es, struct diag *d);

/*
 * The note for a log's last line cut short, dropped since its last field may be cut too
 * ("1000, 40" of "1000, 4096"): "path:N: ...". Noted once, however often the log is read.
 */
void logfile_note_cut(struct diag *d, const char *path, unsigned lineno, const char *line);

#endif
