/* Result sets read back: cells from JSON Lines files, their keys, and their jobs as units. */
#include "output/resultset/resultset_read.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/resultset/seed_tables.h"
#include "output/resultset_check.h"
#include "base/diag.h"
#include "base/grow.h"

static int add_cell(struct rs_set *s, struct jv *root, const char *path, unsigned line)
{
	struct rs_cell *c;

	if (GROW_FOR(s->cells, s->cap, s->ncells) < 0)
		return -ENOMEM;
	c = &s->cells[s->ncells++];
	c->root = *root;	/* the tree's nodes stay where they are: pointers into it hold */
	c->report = jv_get(&c->root, "report");
	c->label = jv_str(jv_get(&c->root, "label"), "");
	c->path = path;
	c->line = line;
	return 0;
}

/* A line that is not JSON: skipped when a crash may have cut it, else why it is not. */
static int not_json(struct rs_set *s, const char *path, unsigned lineno, int err,
		    const struct jv_error *at, struct diag *d)
{
	if (err == -ENOMEM)
		return err;
	if (err != -ERANGE) {
		s->skipped++;
		return 1;
	}
	if (!at->key[0])
		return diag_at(d, err, path, (int)lineno, "number out of range at byte %zu",
			       at->at + 1);
	return diag_at(d, err, path, (int)lineno, "key '%s': number out of range (not "
		       "finite in a double)", at->key);
}

/* One line: a cell, a line to skip (1), or an error. */
static int load_line(struct rs_set *s, const char *path, unsigned lineno, const char *line,
		     size_t len, struct diag *d)
{
	struct jv_error at;
	struct jv root;
	const struct jv *rep;
	int ret;

	if (len <= 1 && (!len || line[0] == '\n'))
		return 1;
	ret = jv_parse(line, len, &root, &at);
	if (ret < 0)
		return not_json(s, path, lineno, ret, &at, d);
	rep = jv_get(&root, "report");
	if (!jv_get(&root, "iojob_result") || !rep || !jv_get(rep, "jobs")) {
		jv_free(&root);
		return diag_at(d, -EINVAL, path, (int)lineno,
			       "not a result line (not written by iojob --results)");
	}
	ret = rs_check_report(rep, path, lineno, d);
	if (ret == 0)
		ret = add_cell(s, &root, path, lineno);
	if (ret < 0)
		jv_free(&root);
	return ret;
}

/* A directory opens and then fails to read: say what it is instead. */
static FILE *open_set(const char *path, struct diag *d, int *err)
{
	struct stat st;
	FILE *f = fopen(path, "r");

	if (!f) {
		*err = diag_set(d, -errno, "'%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		*err = diag_set(d, -EISDIR, "'%s': is a directory, not a JSON Lines file", path);
		return NULL;
	}
	return f;
}

int rs_load(struct rs_set *s, const char *path, struct diag *d)
{
	size_t before = s->ncells, cap = 0, n;
	unsigned lineno = 0;
	char *line = NULL;
	FILE *f;
	int ret = 0;

	f = open_set(path, d, &ret);
	if (!f)
		return ret;
	while (ret >= 0 && (ret = rs_read_line(f, &line, &cap, &n)) > 0)
		ret = load_line(s, path, ++lineno, line, n, d);
	free(line);
	fclose(f);
	if (ret == -ENOMEM)
		return diag_set(d, ret, "'%s': out of memory", path);
	if (ret == -EFBIG)
		return diag_at(d, ret, path, (int)lineno + 1, "line longer than %u MiB (the limit "
			       "for one result line)", RS_MAX_LINE_BYTES >> 20);
	if (ret < 0 && !d->msg[0])
		return diag_set(d, ret, "'%s': %s", path, strerror(-ret));
	if (ret >= 0 && s->ncells == before)
		ret = diag_set(d, -EINVAL, "'%s': no results in it (not a JSON Lines file written "
			       "by iojob --results)", path);
	return ret < 0 ? ret : 0;
}

void rs_free(struct rs_set *s)
{
	for (size_t i = 0; i < s->ncells; i++)
		jv_free(&s->cells[i].root);
	free(s->cells);
	memset(s, 0, sizeof(*s));
}

static unsigned add_distinct(const char **out, unsigned n, unsigned max, const char *v)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(out[i], v))
			return n;
	if (n < max)
		out[n++] = v;
	return n;
}

unsigned rs_swept_keys(const struct rs_set *s, const char **out, unsigned max)
{
	unsigned n = 0;

	for (size_t i = 0; i < s->ncells; i++) {
		const struct jv *cell = jv_get(&s->cells[i].root, "cell");

		for (size_t k = 0; cell && cell->type == JV_OBJECT && k < cell->n; k++)
			n = add_distinct(out, n, max, cell->keys[k]);
	}
	return n;
}

unsigned rs_labels(const struct rs_set *s, const char **out, unsigned max)
{
	unsigned n = 0;

	for (size_t i = 0; i < s->ncells; i++)
		n = add_distinct(out, n, max, s->cells[i].label);
	return n;
}

const char *rs_value(const struct rs_cell *c, const struct rs_unit *u, const char *key)
{
	const struct jv *job = u ? u->jobs[0] : jv_path(c->report, "jobs.0");
	const char *v;

	if (!strcmp(key, "label"))
		return c->label;
	if (!strcmp(key, "job"))
		return u ? u->name : jv_str(jv_get(job, "jobname"), NULL);
	v = jv_str(jv_get(jv_get(&c->root, "cell"), key), NULL);
	if (!v)
		v = jv_str(jv_get(jv_get(&c->root, "sets"), key), NULL);
	if (!v)
		v = jv_str(jv_get(jv_get(job, "job options"), key), NULL);
	if (!v)
		v = jv_str(jv_get(jv_get(c->report, "global options"), key), NULL);
	if (!v)	/* rw, bs, iodepth and numjobs as they ran, where nothing set them */
		v = jv_str(jv_get(jv_path(job, "iojob.options"), key), NULL);
	if (!v)
		v = jv_str(jv_get(&c->root, key), NULL);
	return v;
}

void rs_cell_str(const struct rs_cell *c, const char *prefix, char *buf, size_t len)
{
	const struct jv *cell = jv_get(&c->root, "cell");
	size_t at = (size_t)snprintf(buf, len, "%s", prefix);

	/* snprintf returns what it would have written: at >= len once the text is cut */
	for (size_t i = 0; cell && cell->type == JV_OBJECT && i < cell->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s=%s", at ? ", " : "",
				       cell->keys[i], jv_str(&cell->items[i], ""));
}

static unsigned job_pass(const struct jv *job)
{
	return (unsigned)jv_num(jv_path(job, "iojob.pass"), 0);
}

static struct rs_unit *find_unit(struct rs_unit *u, unsigned n, const char *name, unsigned pass)
{
	for (unsigned i = 0; i < n; i++)
		if (u[i].pass == pass && !strcmp(u[i].jobname, name))
			return &u[i];
	return NULL;
}

static int unit_add_job(struct rs_unit *u, const struct jv *job)
{
	if (GROW_FOR(u->jobs, u->jobs_cap, u->njobs) < 0)
		return -ENOMEM;
	u->jobs[u->njobs++] = job;
	return 0;
}

int rs_units(const struct rs_cell *c, struct rs_unit **out)
{
	const struct jv *jobs = jv_get(c->report, "jobs");
	struct rs_unit *units = NULL, *u;
	unsigned n = 0;
	size_t cap = 0;

	for (size_t i = 0; jobs && jobs->type == JV_ARRAY && i < jobs->n; i++) {
		const struct jv *job = &jobs->items[i];
		const char *name = jv_str(jv_get(job, "jobname"), "");
		unsigned pass = job_pass(job);

		u = find_unit(units, n, name, pass);
		if (!u) {
			if (GROW_FOR(units, cap, n) < 0)
				goto err;
			u = &units[n++];
			*u = (struct rs_unit){ .cell = c, .jobname = name, .pass = pass };
			snprintf(u->name, sizeof(u->name), pass ? "%s pass %u" : "%s", name, pass);
		}
		if (unit_add_job(u, job) < 0)
			goto err;
	}
	*out = units;
	return (int)n;
err:
	rs_units_free(units, n);
	*out = NULL;
	return -ENOMEM;
}

void rs_units_free(struct rs_unit *u, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		free(u[i].jobs);
	free(u);
}

/*
 * Whether a stored value is the one asked for. Access patterns match under any of their
 * names, so that --where rw=randwrite finds the sysbench job the report calls randwrite
 * (stored as its job file gave it, rndwr), and rw=rndwr a fio job's randwrite.
 */
bool rs_value_is(const char *key, const char *v, const char *want)
{
	const char *vs, *ws;
	char a[32], b[32];

	if (!strcmp(v, want))
		return true;
	if (strcmp(key, "rw"))
		return false;
	vs = strchr(v, ':');	/* randread:8 */
	ws = strchr(want, ':');
	if (strcmp(vs ? vs : "", ws ? ws : ""))
		return false;
	snprintf(a, sizeof(a), "%.*s", (int)(vs ? vs - v : (ptrdiff_t)strlen(v)), v);
	snprintf(b, sizeof(b), "%.*s", (int)(ws ? ws - want : (ptrdiff_t)strlen(want)), want);
	return !strcmp(rw_fio_name(a), rw_fio_name(b));
}

static bool selected(const struct rs_unit *u, const char *job, const char *const *where,
		     unsigned nwhere)
{
	if (job && strcmp(job, u->name) && strcmp(job, u->jobname))
		return false;
	for (unsigned i = 0; i < nwhere; i++) {
		const char *eq = strchr(where[i], '='), *v;
		char key[128];

		if (!eq)
			return false;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - where[i]), where[i]);
		v = rs_value(u->cell, u, key);
		if (!v || !rs_value_is(key, v, eq + 1))
			return false;
	}
	return true;
}

/* Move the selected units of one cell into sel (their jobs arrays go with them). */
static int take_units(struct rs_sel *sel, struct rs_unit *u, unsigned n, const char *job,
		      const char *const *where, unsigned nwhere)
{
	for (unsigned i = 0; i < n; i++) {
		if (!selected(&u[i], job, where, nwhere))
			continue;
		if (GROW_FOR(sel->units, sel->cap, sel->n) < 0)
			return -ENOMEM;
		sel->units[sel->n++] = u[i];
		u[i].jobs = NULL;
	}
	return 0;
}

int rs_select(const struct rs_set *s, const char *job, const char *const *where,
	      unsigned nwhere, struct rs_sel *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t c = 0; c < s->ncells; c++) {
		struct rs_unit *u;
		int n = rs_units(&s->cells[c], &u), ret;

		if (n < 0)
			goto err;
		ret = take_units(out, u, (unsigned)n, job, where, nwhere);
		rs_units_free(u, (unsigned)n);
		if (ret < 0)
			goto err;
	}
	return (int)out->n;
err:
	rs_sel_free(out);
	return -ENOMEM;
}

void rs_sel_free(struct rs_sel *sel)
{
	rs_units_free(sel->units, (unsigned)sel->n);
	memset(sel, 0, sizeof(*sel));
}

int rs_is_number(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return 0;
	v = strtod(s, &end);
	if (*end || end == s)
		return 0;
	if (out)
		*out = v;
	return 1;
}
