/*
 * Job files: sections of key=value pairs from files, stdin or strings. jf_reader.c reads
 * the lines; inih splits each key=value it hands on; this file stores the result.
 */
#include "parser/jobfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "base/arena.h"
#include "base/diag.h"
#include "parser/expr.h"
#include "parser/jf_reader.h"
#include "base/grow.h"

/* Handed to inih instead of a line it would cut (over its INI_MAX_LINE) or split at ':'. */
#define INIH_STUB	"-=-\n"

struct parse_state {
	struct jobfile *jf;
	struct diag *d;
	struct jfr rd;
	struct jfr_line cur;	/* the line inih is handling */
	bool stub;		/* inih got INIH_STUB: the key and value are in cur */
	size_t sec;		/* index of the section keys go to */
	int source;
	int err;		/* first error; stops the reader */
};

const char *jobfile_strdup(struct jobfile *jf, const char *s)
{
	return arena_strdup(&jf->arena, s);
}

static int add_section(struct jobfile *jf, const char *name, const char *file, int line,
		       int source)
{
	struct jf_section *s;

	if (GROW_FOR(jf->secs, jf->cap, jf->nsecs) < 0)
		return -ENOMEM;
	s = &jf->secs[jf->nsecs++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->file = file;
	s->line = line;
	s->source = source;
	return 0;
}

static int append_key(struct jf_section *s, const char *key, const char *val, bool bare,
		      const char *file, int line)
{
	if (GROW_FOR(s->keys, s->cap, s->nkeys) < 0)
		return -ENOMEM;
	s->keys[s->nkeys++] = (struct jf_key){
		.key = key, .val = val, .bare = bare, .file = file, .line = line,
	};
	return 0;
}

/* Forget the sections a failed parse added; their strings stay in the arena until the end. */
static void drop_sections(struct jobfile *jf, size_t from)
{
	while (jf->nsecs > from)
		free(jf->secs[--jf->nsecs].keys);
}

/* The value of the environment variable named [name, name + len), or NULL if unset. */
static const char *env_lookup(const char *name, size_t len)
{
	char **e;

	for (e = environ; e && *e; e++) {
		if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
			return *e + len + 1;
	}
	return NULL;
}

/*
 * Copy val to out (when not NULL) with each ${VAR} replaced and set *len. As in fio, an
 * unset variable is the empty string (*unset names the first one), and a '${' without '}'
 * stays as written. A '$' not followed by '{' is kept, so fio's $jobname reaches
 * filename_format untouched.
 */
static void expand_vars(const char *val, char *out, size_t *len, const char **unset,
			int *unset_len)
{
	const char *p, *var, *close, *sub;
	size_t n = 0, sublen;

	for (p = val; *p; p++) {
		close = p[0] == '$' && p[1] == '{' ? strchr(p + 2, '}') : NULL;
		if (!close) {
			if (out)
				out[n] = *p;
			n++;
			continue;
		}
		var = p + 2;
		sub = env_lookup(var, (size_t)(close - var));
		if (!sub && !*unset) {
			*unset = var;
			*unset_len = (int)(close - var);
		}
		sublen = sub ? strlen(sub) : 0;
		if (out && sublen)
			memcpy(out + n, sub, sublen);
		n += sublen;
		p = close;
	}
	if (out)
		out[n] = '\0';
	*len = n;
}

/* The arena's copy of s; NULL with st->err set on failure. */
static const char *keep(struct parse_state *st, const char *s)
{
	const char *copy = jobfile_strdup(st->jf, s);

	if (!copy)
		st->err = diag_at(st->d, -ENOMEM, st->cur.file, st->cur.line, "%s",
				  strerror(ENOMEM));
	return copy;
}

/*
 * The value with ${VAR} expanded and fio's $pagesize, $mb_memory and $ncpus replaced (and
 * the arithmetic done), in the arena; NULL with st->err set on failure.
 */
static const char *expand_value(struct parse_state *st, const char *key, const char *val)
{
	const struct jfr_line *at = &st->cur;
	const char *unset = NULL, *ret;
	int unset_len = 0, err;
	char *out, *kw;
	size_t len;

	expand_vars(val, NULL, &len, &unset, &unset_len);
	if (unset)
		diag_note(st->d, "%s:%d: option '%s': environment variable '%.*s' is not set: "
			  "empty, as in fio", at->file, at->line, key, unset_len, unset);
	out = malloc(len + 1);
	if (!out) {
		st->err = diag_at(st->d, -ENOMEM, at->file, at->line, "%s", strerror(ENOMEM));
		return NULL;
	}
	unset = NULL;
	expand_vars(val, out, &len, &unset, &unset_len);
	kw = expr_keywords(out, &err);
	ret = err ? NULL : keep(st, kw ? kw : out);
	if (err)
		st->err = diag_at(st->d, err, at->file, at->line, "%s", strerror(-err));
	free(kw);
	free(out);
	return ret;
}

static int open_section(struct parse_state *st, const struct jfr_line *l)
{
	const char *name;
	int ret;

	name = jobfile_strdup(st->jf, l->name);
	ret = name ? add_section(st->jf, name, l->file, l->line, st->source) : -ENOMEM;
	if (ret < 0)
		return diag_at(st->d, ret, l->file, l->line, "%s", strerror(-ret));
	st->sec = st->jf->nsecs - 1;
	return 0;
}

/*
 * inih's reader. Section headers stop here: this inih build never tells the handler
 * about a section, and a section without keys (all from [global]) is still a job.
 */
static char *feed_inih(char *buf, int num, void *stream)
{
	struct parse_state *st = stream;
	struct jfr_line *l = &st->cur;
	int ret;

	for (;;) {
		if (st->err)
			return NULL;
		ret = jfr_next(&st->rd, l);
		if (ret <= 0) {
			st->err = ret;
			return NULL;
		}
		if (l->kind == JFR_KEY)
			break;
		st->err = open_section(st, l);
	}
	/* inih splits at the first '=' or ':'; the line, its '\n' and NUL must fit in num. */
	st->stub = strlen(l->name) + strlen(l->val) + 3 > (size_t)num || strchr(l->name, ':');
	if (st->stub)
		snprintf(buf, num, "%s", INIH_STUB);
	else
		snprintf(buf, num, "%s=%s\n", l->name, l->val);
	return buf;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct parse_state *st = user;
	const char *key, *val;
	int ret;

	(void)section;
	if (st->stub) {
		name = st->cur.name;
		value = st->cur.val;
	}
	key = jobfile_strdup(st->jf, name);
	if (!key) {
		st->err = diag_at(st->d, -ENOMEM, st->cur.file, st->cur.line, "%s",
				  strerror(ENOMEM));
		return 0;
	}
	val = expand_value(st, key, value);
	if (!val)
		return 0;
	ret = append_key(&st->jf->secs[st->sec], key, val, st->cur.bare, st->cur.file,
			 st->cur.line);
	if (ret < 0) {
		st->err = diag_at(st->d, ret, st->cur.file, st->cur.line, "%s", strerror(-ret));
		return 0;
	}
	return 1;
}

/* Remember the name of the source parsed, for messages about the whole file. */
static int add_source_name(struct jobfile *jf, const char *name)
{
	if (GROW_FOR(jf->source_names, jf->sources_cap, jf->nsources) < 0)
		return -ENOMEM;
	jf->source_names[jf->nsources] = name;
	return 0;
}

/* Run inih over the opened reader; on failure jf keeps only what it had before. */
static int parse_source(struct parse_state *st)
{
	struct jobfile *jf = st->jf;
	const char *name = st->rd.stack[0].name;	/* in the arena: outlives the reader */
	size_t nsecs = jf->nsecs;
	int ret;

	ret = ini_parse_stream(feed_inih, st, on_key, st);
	jfr_close(&st->rd);
	if (!st->err && add_source_name(jf, name) < 0)
		st->err = diag_set(st->d, -ENOMEM, "%s: out of memory", name);
	/* Every line inih sees was checked by the reader, so inih has nothing left to reject. */
	if (!st->err && ret != 0)
		st->err = diag_at(st->d, -EINVAL, st->cur.file, st->cur.line,
				  "line not understood by inih (error %d)", ret);
	if (st->err < 0) {
		drop_sections(jf, nsecs);
		return st->err;
	}
	jf->nsources++;
	return 0;
}

int jobfile_parse(struct jobfile *jf, const char *path, struct diag *d)
{
	struct parse_state st = { .jf = jf, .d = d, .source = jf->nsources };
	int ret;

	ret = jfr_open_file(&st.rd, jf, path, d);
	if (ret < 0)
		return ret;
	return parse_source(&st);
}

int jobfile_parse_string(struct jobfile *jf, const char *name, const char *text,
			 struct diag *d)
{
	struct parse_state st = { .jf = jf, .d = d, .source = jf->nsources };
	int ret;

	ret = jfr_open_string(&st.rd, jf, name, text, d);
	if (ret < 0)
		return ret;
	return parse_source(&st);
}

/* A section made here comes from no parsed source: its source is -1. */
int jobfile_add_key(struct jobfile *jf, size_t sec_index, const char *sec_name,
		    const char *key, const char *val, const char *file, int line)
{
	const char *k, *v, *f = NULL, *name;
	char *kw;
	int ret = 0;

	if (sec_index > jf->nsecs || (sec_index == jf->nsecs && !sec_name))
		return -EINVAL;
	kw = val ? expr_keywords(val, &ret) : NULL;
	if (val && ret < 0)
		return ret;
	k = jobfile_strdup(jf, key);
	v = jobfile_strdup(jf, kw ? kw : val ? val : "1");
	free(kw);
	if (file)
		f = jobfile_strdup(jf, file);
	if (!k || !v || (file && !f))
		return -ENOMEM;
	if (sec_index == jf->nsecs) {
		name = jobfile_strdup(jf, sec_name);
		if (!name)
			return -ENOMEM;
		ret = add_section(jf, name, f, line, -1);
		if (ret < 0)
			return ret;
	}
	return append_key(&jf->secs[sec_index], k, v, !val, f, line);
}

void jobfile_free(struct jobfile *jf)
{
	drop_sections(jf, 0);
	free(jf->secs);
	free(jf->source_names);
	arena_free(&jf->arena);
	memset(jf, 0, sizeof(*jf));
}
