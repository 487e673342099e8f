/*
 * Reading result sets back (iojob report, iojob compare): the cells of JSON Lines files
 * written by --results, the values of their keys, and their jobs grouped into units.
 * A unit is what a table cell describes: one job section of one cell, all its clones
 * (numjobs) together, one pass of it when it ran with passes=N.
 */
#ifndef OUTPUT_RESULTSET_RESULTSET_READ_H
#define OUTPUT_RESULTSET_RESULTSET_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "output/json_reader.h"

struct diag;

struct rs_cell {
	struct jv root;			/* the whole line */
	const struct jv *report;	/* its fio-shaped "report" object */
	const char *label;		/* "" without --label */
	const char *path;		/* the file it came from, as given */
	unsigned line;
};

struct rs_set {
	struct rs_cell *cells;
	size_t ncells, cap;
	unsigned skipped;		/* lines that were not JSON (cut short by a crash) */
};

struct rs_unit {
	const struct rs_cell *cell;
	const char *jobname;
	unsigned pass;			/* "iojob"."pass", 0 without passes=N */
	char name[160];			/* jobname, or "jobname pass N" */
	const struct jv **jobs;		/* the clones' job objects */
	unsigned njobs;
	size_t jobs_cap;
};

/*
 * Append the cells of the file at path to s. Blank lines and lines that are not JSON are
 * skipped (counted in s->skipped); a JSON line that is not a result, or a file without a
 * single result, is an error. Returns 0, or -errno / -EINVAL with d filled.
 */
int rs_load(struct rs_set *s, const char *path, struct diag *d);
void rs_free(struct rs_set *s);

/* Every distinct swept key of s ("cell" members), in the order first met. Returns n. */
unsigned rs_swept_keys(const struct rs_set *s, const char **out, unsigned max);

/* Every distinct label of s, in the order first met. Returns n. */
unsigned rs_labels(const struct rs_set *s, const char **out, unsigned max);

/*
 * The value of key for a unit (u may be NULL: the cell's first job): "label", "job" (the
 * unit's name), a swept value, a --set value, a job option, a global option, or a string
 * member of the line ("host", "kernel"). NULL when it has none.
 */
const char *rs_value(const struct rs_cell *c, const struct rs_unit *u, const char *key);

/* Whether v, a value of key, is want: rw's under fio's or sysbench's name alike. */
bool rs_value_is(const char *key, const char *v, const char *want);

/*
 * The cell's swept values after prefix (a label, or ""): "numjobs=4, rw=rndrd",
 * "md0, numjobs=4". Truncated to fit len.
 */
void rs_cell_str(const struct rs_cell *c, const char *prefix, char *buf, size_t len);

/*
 * Group the jobs of a cell into units, in the order they appear. Returns the count (0 for
 * a cell without jobs) or -ENOMEM. Free with rs_units_free().
 */
int rs_units(const struct rs_cell *c, struct rs_unit **out);
void rs_units_free(struct rs_unit *u, unsigned n);

/* The units a report shows, from every cell of a set, in file order. */
struct rs_sel {
	struct rs_unit *units;
	size_t n, cap;
};

/*
 * Select the units of s whose job is job (NULL: any; the unit name or the job name) and
 * whose keys have the values in where ("KEY=VALUE" each, as rs_value() sees them).
 * Returns the count or -ENOMEM. Free with rs_sel_free().
 */
int rs_select(const struct rs_set *s, const char *job, const char *const *where,
	      unsigned nwhere, struct rs_sel *out);
void rs_sel_free(struct rs_sel *sel);

/* Whether a string reads as a number (so that keys sort as numbers: 1, 4, 16). */
int rs_is_number(const char *s, double *out);

#endif
