/*
 * What a result set holds, its keys and values: for the errors of a query that asks for
 * what it does not, and for completion.
 */
#include "output/resultset/resultset_keys.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/resultset/resultset_read.h"
#include "base/units.h"

#define MAX_SHOWN 12	/* values or keys an error names before "..." */

struct list {
	const char *v[256];	/* completion offers them all */
	unsigned n;
};

static void list_add(struct list *l, const char *v)
{
	if (!v)
		return;
	for (unsigned i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], v))
			return;
	if (l->n < ARRAY_SIZE(l->v))
		l->v[l->n++] = v;
}

static void put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	*at += (size_t)vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
}

static void put_list(char *buf, size_t len, size_t *at, const struct list *l)
{
	for (unsigned i = 0; i < l->n && i < MAX_SHOWN; i++)
		put(buf, len, at, "%s%s", i ? ", " : "", l->v[i]);
	if (l->n > MAX_SHOWN)
		put(buf, len, at, ", ...");
}

/* The values key has over every unit (job names for "job"), and how many units match. */
static unsigned values_of(const struct rs_set *s, const char *key, const char *want,
			  struct list *l)
{
	unsigned matched = 0;

	for (size_t c = 0; c < s->ncells; c++) {
		struct rs_unit *u;
		int n = rs_units(&s->cells[c], &u);

		for (int i = 0; i < n; i++) {
			const char *v = strcmp(key, "job") ? rs_value(u[i].cell, &u[i], key) :
							     u[i].jobname;

			list_add(l, v);
			if (v && want && (rs_value_is(key, v, want) ||
					  (!strcmp(key, "job") && !strcmp(u[i].name, want))))
				matched++;
		}
		rs_units_free(u, n > 0 ? (unsigned)n : 0);
	}
	return matched;
}

/* One term, "key=value" or the job's name: whether it alone matches some run; if not, why. */
static bool term_matches(const struct rs_set *s, const char *what, const char *key,
			 const char *want, char *buf, size_t len)
{
	struct list l = { .n = 0 };
	size_t at = 0;
	char keys[512];

	if (values_of(s, key, want, &l))
		return true;
	if (!l.n) {
		rs_keys_str(s, keys, sizeof(keys));
		snprintf(buf, len, "%s: no run has the key '%s'; the keys are %s", what, key, keys);
		return false;
	}
	put(buf, len, &at, "%s: no run has %s '%s'; %s %s ", what, key, want,
	    strcmp(key, "job") ? key : "the jobs", strcmp(key, "job") ? "is one of" : "are");
	put_list(buf, len, &at, &l);
	return false;
}

void rs_why_none(const struct rs_set *s, const char *job, const char *const *where,
		 unsigned nwhere, char *buf, size_t len)
{
	char what[200], key[128];

	if (job) {
		snprintf(what, sizeof(what), "--job %s", job);
		if (!term_matches(s, what, "job", job, buf, len))
			return;
	}
	for (unsigned i = 0; i < nwhere; i++) {
		const char *eq = strchr(where[i], '=');

		if (!eq) {
			snprintf(buf, len, "--where %s: expected key=value", where[i]);
			return;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - where[i]), where[i]);
		snprintf(what, sizeof(what), "--where %s", where[i]);
		if (!term_matches(s, what, key, eq + 1, buf, len))
			return;
	}
	snprintf(buf, len, "no run matches %s together, though each matches some",
		 job ? "--job and --where" : "every --where");
}

/* label, job, the swept and --set keys, then the first job's options. */
static void all_keys(const struct rs_set *s, struct list *keys)
{
	const struct jv *opts = NULL;

	list_add(keys, "label");
	list_add(keys, "job");
	for (size_t c = 0; c < s->ncells; c++) {
		const struct jv *cell = jv_get(&s->cells[c].root, "cell");
		const struct jv *sets = jv_get(&s->cells[c].root, "sets");

		for (size_t k = 0; cell && cell->type == JV_OBJECT && k < cell->n; k++)
			list_add(keys, cell->keys[k]);
		for (size_t k = 0; sets && sets->type == JV_OBJECT && k < sets->n; k++)
			list_add(keys, sets->keys[k]);
	}
	/* the first job's options as set, then rw, bs, iodepth and numjobs as they ran */
	for (int i = 0; i < 2 && s->ncells; i++) {
		opts = jv_path(s->cells[0].report, i ? "jobs.0.iojob.options" : "jobs.0.job options");
		for (size_t k = 0; opts && opts->type == JV_OBJECT && k < opts->n; k++)
			list_add(keys, opts->keys[k]);
	}
}

void rs_keys_str(const struct rs_set *s, char *buf, size_t len)
{
	struct list keys = { .n = 0 };
	size_t at = 0;

	all_keys(s, &keys);
	put_list(buf, len, &at, &keys);
	put(buf, len, &at, "%s", keys.n > MAX_SHOWN ? " (any job option)" : "");
}

void rs_complete(FILE *f, const struct rs_set *s, enum rs_words what)
{
	struct list keys = { .n = 0 };

	if (what == RS_LABELS) {
		for (size_t c = 0; c < s->ncells; c++)
			list_add(&keys, *s->cells[c].label ? s->cells[c].label : NULL);
	} else if (what == RS_JOBS) {
		values_of(s, "job", NULL, &keys);
	} else {
		all_keys(s, &keys);
	}
	for (unsigned k = 0; k < keys.n; k++) {
		struct list vals = { .n = 0 };

		if (what == RS_KEYS && k < 2)
			continue;	/* label and job: --rows and --cols list them */
		if (what != RS_PAIRS) {
			fprintf(f, "%s\n", keys.v[k]);
			continue;
		}
		values_of(s, keys.v[k], NULL, &vals);
		for (unsigned v = 0; v < vals.n; v++)
			fprintf(f, "%s=%s\n", keys.v[k], vals.v[v]);
	}
}
