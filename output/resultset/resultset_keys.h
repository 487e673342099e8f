/*
 * What a result set holds, said where a query asks for what it does not: a --job or
 * --where that matches no run, a --rows or --cols key that no run has. The errors name
 * the jobs, keys and values there are, so the user's next try is the right one; the
 * completion script offers the same words.
 */
#ifndef OUTPUT_RESULTSET_RESULTSET_KEYS_H
#define OUTPUT_RESULTSET_RESULTSET_KEYS_H

#include <stddef.h>
#include <stdio.h>

struct rs_set;

/*
 * Why rs_select() found nothing, in buf: the first term that alone matches no run, with
 * the values its key has (or the keys there are, when none has it), or that each matches
 * runs but never all together.
 */
void rs_why_none(const struct rs_set *s, const char *job, const char *const *where,
		 unsigned nwhere, char *buf, size_t len);

/*
 * The keys a report can name, in buf: "label", "job", the swept and --set keys, then a
 * few job options and "...". For "no run has that key" errors.
 */
void rs_keys_str(const struct rs_set *s, char *buf, size_t len);

/* What completion offers from a result set, one a line. */
enum rs_words {
	RS_KEYS,	/* every key but label and job (their own lists): --rows, --cols */
	RS_PAIRS,	/* KEY=VALUE for every value each key has: --where */
	RS_JOBS,	/* the job names: --job */
	RS_LABELS,	/* the labels: compare's sides */
};

void rs_complete(FILE *f, const struct rs_set *s, enum rs_words what);

#endif
