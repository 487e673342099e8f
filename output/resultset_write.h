/*
 * Result sets: JSON Lines files that sweeps append to, one self-describing object per
 * cell (one run of the job files with one combination of swept values):
 *
 *   {"iojob_result": 1, "version": "iojob-0.1.0", "time": 1796000000,
 *    "label": "md0 RAID0", "host": "node1", "kernel": "6.18.44",
 *    "job_files": ["job.fio"], "cell": {"numjobs": "4", "rw": "rndrd"},
 *    "sets": {"size": "256m"}, "repeat": 2, "targets": [{"device": "vda", ...}],
 *    "report": { the fio-shaped JSON report with json+ bins } }
 *
 * "cell" holds the --sweep values of this cell in the order given; "sets" the --set
 * overrides; "repeat" (only under --repeat N) which of the N runs of the cell this is;
 * "report" is exactly what --output-format=json+ prints, on one line.
 */
#ifndef OUTPUT_RESULTSET_WRITE_H
#define OUTPUT_RESULTSET_WRITE_H

#include <stdbool.h>

struct diag;
struct report;

struct resultset_meta {
	const char *label;			/* --label, NULL when none */
	const char *const *cell_keys;		/* the swept options of this cell */
	const char *const *cell_values;
	unsigned ncell;
	const char *const *set_keys;		/* --set overrides */
	const char *const *set_values;
	unsigned nsets;
	const char *const *job_files;
	unsigned njob_files;
	unsigned repeat;			/* --repeat: 1 to N, 0 when run once */
	const char *jobs_key;			/* the jobs the cell ran, as one key */
};

/*
 * Append one cell's object to path (created when missing) and flush it to disk, so an
 * interrupted sweep keeps every finished cell. The line goes out in one write() on an
 * O_APPEND descriptor under a write lock on the whole file (fcntl F_SETLKW), so that the
 * lines of sweeps appending to one file at once never interleave. Returns 0 or -errno.
 */
int resultset_append(const char *path, const struct resultset_meta *m, const struct report *r);

/*
 * Whether path can take results, checked before a sweep runs: a regular file that opens
 * for appending and is empty or starts with a result line, or none yet that can be made
 * (made and removed again: a run that saves nothing leaves no empty file). A FIFO, a
 * socket or a device is refused: a result set is appended to and read back. Returns 0,
 * or -errno with d set to "--results 'PATH': why".
 */
int resultset_check(const char *path, struct diag *d);

/*
 * Whether path already holds a cell with this label, these swept values, these --set
 * overrides, this repetition and these jobs (--resume): the jobs' key changes with the
 * sections chosen, the job files' options and the command line's jobs, and a line
 * without one (an older iojob's) holds no cell.
 * A missing file holds none; a line that is not JSON (a cell cut short) is skipped.
 * Returns 1, 0, or -errno.
 */
int resultset_has_cell(const char *path, const struct resultset_meta *m);

#endif
