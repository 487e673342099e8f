/*
 * The seeds' table shapes (reference/seeds.md, section 4) built from result sets:
 * sysbench fileio rows (tables B-F), tiobench's summary (J) and xdd's pass lines (K).
 * Each builder returns the count of tables in *out (free each with table_free(), then the
 * array), or -ENOMEM.
 */
#ifndef OUTPUT_RESULTSET_SEED_TABLES_H
#define OUTPUT_RESULTSET_SEED_TABLES_H

#include <stddef.h>

struct rs_sel;
struct rs_unit;
struct table;

/*
 * A seed benchmark's table shape, as iojob report --format names it. Its --help, its
 * completion and the parsing of --format read seed_shapes[]: a new shape is a builder in
 * a seed_NAME.c of its own and one entry there.
 */
struct seed_shape {
	const char *name;
	const char *help;	/* what its tables hold, for --help */
	int (*build)(const struct rs_sel *sel, struct table **out);
};

/* In the order --help lists them, ended by { NULL }. */
extern const struct seed_shape seed_shapes[];

/* The shape named name, or NULL. */
const struct seed_shape *seed_shape_find(const char *name);

/* size | type | thr | bytes/sec | req/sec | 95% resp ms | max resp ms; a table per label. */
int sysbench_tables(const struct rs_sel *sel, struct table **out);

/* tiobench's columns, a table per phase (job), rows by label and thread count. */
int tiobench_tables(const struct rs_sel *sel, struct table **out);

/* xdd's pass rows, then each target's Average and the Combined row; a table per cell. */
int xdd_tables(const struct rs_sel *sel, struct table **out);

/*
 * iojob pts's report (pts_set.h): per label and test, the steady state, the tracked
 * variable by round, the specification's tables and the departures from it.
 */
int pts_tables(const struct rs_sel *sel, struct table **out);

/*
 * A byte count as sysbench 0.4 prints it: divided by 1024 while at least 1024, "%.5g",
 * then b, Kb, Mb, Gb or Tb ("Mb" is MiB): 117612462.08 -> "112.16Mb".
 */
void sysbench_bytes(double bytes, char *buf, size_t len);

/* sysbench's name for an access pattern: "randread" -> "rndrd"; others as they are. */
const char *sysbench_mode(const char *rw);

/* fio's name for an access pattern: "rndwr" -> "randwrite", "readwrite" -> "rw". */
const char *rw_fio_name(const char *rw);

/* A unit's thread count: its numjobs option, else how many clones it has. */
unsigned seed_threads(const struct rs_unit *u);

/* A size option of the unit in bytes (k, m, g: powers of 1024); 0 when unknown. */
double seed_size_option(const struct rs_unit *u, const char *key);

/* Rows in the order the seeds show them: by ranks, ties in the order met. */
#define SEED_RANKS	4
struct seed_row {
	const struct rs_unit *u;
	double rank[SEED_RANKS];
	size_t idx;
};

void seed_sort(struct seed_row *rows, size_t n);

/* The rank of s among the strings met so far (seen holds up to n + 1, *n grows). */
double seed_rank(const char **seen, size_t *n, const char *s);

/* Append an empty table to *tables (count *n); returns it, or NULL out of memory. */
struct table *seed_add_table(struct table **tables, int *n, unsigned ncols, const char *title);

/*
 * The builder's result: n, or -ENOMEM after freeing the tables when failed is set or a
 * table lost a cell to a failed allocation.
 */
int seed_finish(struct table **tables, int n, int failed);

/* Free n tables and the array. */
void seed_free_tables(struct table *tables, int n);

#endif
