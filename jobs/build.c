/*
 * From sections to jobs: defaults, then [global] sections above the job in the same file,
 * then the job's own keys, then --set overrides; numjobs clones; phases and groups.
 */
#include "jobs/jobs.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "base/arena.h"
#include "jobs/opt_steady.h"
#include "jobs/replay_log.h"
#include "jobs/sysbench_modes.h"
#include "jobs/validate.h"
#include "base/units.h"
#include "base/diag.h"
#include "parser/jobfile.h"
#include "parser/value.h"
#include "base/grow.h"

#define WHY_LEN 512

/* One key to apply, from a section or from --set. */
struct key_ref {
	const char *key;
	const char *val;
	const char *file;
	int line;
	bool global;		/* not from the job's own section */
	bool bare;		/* written without '=' (val is "1") */
	bool replaces;		/* --set: a list option takes this value instead of adding it */
	unsigned layer;		/* the section it came from, in order (--set: after the last) */
};

struct key_list {
	struct key_ref *v;
	size_t n, cap;
	unsigned layers;	/* sections pushed so far */
};

static int keys_push(struct key_list *l, const char *key, const char *val, const char *file,
		     int line, bool global)
{
	if (GROW_FOR(l->v, l->cap, l->n) < 0)
		return -ENOMEM;
	l->v[l->n++] = (struct key_ref){ key, val, file, line, global, .layer = l->layers };
	return 0;
}

static int keys_push_section(struct key_list *l, const struct jf_section *s, bool global)
{
	for (size_t i = 0; i < s->nkeys; i++) {
		int ret;

		/*
		 * fio names every job after its section, whatever a [global] name= says (it
		 * names no job), so that jobs whose files come from their names do not share
		 * them. --set name= still names every job: it is asked of each.
		 */
		if (global && !strcmp(s->keys[i].key, "name"))
			continue;
		ret = keys_push(l, s->keys[i].key, s->keys[i].val, s->keys[i].file,
				s->keys[i].line, global);
		if (ret < 0)
			return ret;
		l->v[l->n - 1].bare = s->keys[i].bare;
	}
	l->layers++;
	return 0;
}

static bool is_global(const char *name)
{
	/* fio treats every section whose name starts with "global" as one. */
	return !strncmp(name, "global", 6);
}

const struct engine_info *jobs_engine(const struct job_input *in, const char *name)
{
	for (unsigned i = 0; i < in->nengines; i++)
		if (!strcmp(in->engines[i].name, name))
			return &in->engines[i];
	return NULL;
}

/* The last key with this name (or alias) wins, as it does when applied in order. */
static const struct key_ref *last_key(const struct key_list *l, const struct opt_def *o)
{
	for (size_t i = l->n; i-- > 0;)
		if (opt_find(o, l->v[i].key) == o)
			return &l->v[i];
	return NULL;
}

static int apply_defaults(const struct opt_def *table, const struct opt_ctx *ctx, void *base)
{
	char why[WHY_LEN];

	for (const struct opt_def *o = table; o && o->name; o++) {
		/* A default that does not parse is a bug in the table, not in the job file. */
		if (o->def && opt_apply(o, ctx, base, o->def, why, sizeof(why)) < 0)
			abort();
	}
	return 0;
}

/*
 * eng is the engine the job ends up with: j->ioengine is only the one applied so far, so
 * an engine option in [global] above the job's own ioengine= would name the wrong one.
 */
static int unknown_option(const struct job_input *in, const struct engine_info *eng,
			  const struct job_desc *j, const struct key_ref *k, struct diag *d)
{
	const char *best;

	char owners[256];
	size_t n = 0;
	unsigned nowners = 0;

	/* An option several engines share (cmdprio_*) names them all. */
	for (unsigned e = 0; e < in->nengines && n < sizeof(owners); e++)
		if (opt_find(in->engines[e].options, k->key))
			n += (size_t)snprintf(owners + n, sizeof(owners) - n, "%s'%s'",
					      nowners++ ? ", " : "", in->engines[e].name);
	if (nowners)
		return diag_at(d, -EINVAL, k->file, k->line,
			       "option '%s' belongs to ioengine%s %s, but job '%s' uses '%s'",
			       k->key, nowners > 1 ? "s" : "", owners, j->name,
			       eng ? eng->name : j->ioengine);
	best = opt_closest(k->key, in->engines, in->nengines);
	if (best)
		return diag_at(d, -EINVAL, k->file, k->line,
			       "unknown option '%s' (did you mean '%s'?)", k->key, best);
	return diag_at(d, -EINVAL, k->file, k->line, "unknown option '%s'", k->key);
}

/* fio: "Option bs requires an argument"; iojob would have read bs=1, 1-byte blocks. */
static int needs_value(const struct opt_def *o, const struct key_ref *k, struct diag *d)
{
	char what[256];

	opt_describe(o, what, sizeof(what));
	return diag_at(d, -EINVAL, k->file, k->line, "option '%s' needs a value (%s); only a "
		       "boolean may stand alone", k->key, what);
}

/* "opt=" and nothing more: fio fails to parse it ("failed parsing bs="), and so does iojob. */
static int empty_value(const struct opt_def *o, const struct key_ref *k, struct diag *d)
{
	char what[256];

	opt_describe(o, what, sizeof(what));
	return diag_at(d, -EINVAL, k->file, k->line, "option '%s' has an empty value (expected "
		       "%s): give one, or leave the option out for its default, as fio asks",
		       k->key, what);
}

static int record_setting(struct arena **arena, struct job_desc *j, const char *name,
			  const struct key_ref *k)
{
	struct job_setting *v;

	v = arena_alloc(arena, sizeof(*v) * (j->nsettings + 1));
	if (!v)
		return -ENOMEM;
	if (j->nsettings)
		memcpy(v, j->settings, sizeof(*v) * j->nsettings);
	v[j->nsettings] = (struct job_setting){ name, k->val, k->file, k->line, k->global,
						k->bare };
	j->settings = v;
	j->nsettings++;
	return 0;
}

/*
 * $rank, $nranks and $host in a file name (filename, directory, filename_format), so that
 * each rank of an MPI run can have its own files. Returns val itself when it has none.
 */
static const char *rank_vars(const struct job_input *in, const struct opt_def *o,
			     const char *val, struct arena **arena)
{
	char out[4096];
	size_t n = 0;

	if (!strchr(val, '$') || (strcmp(o->name, "filename") && strcmp(o->name, "directory") &&
				  strcmp(o->name, "filename_format")))
		return val;
	while (*val && n + 1 < sizeof(out)) {
		int w = -1;

		if (!strncmp(val, "$rank", 5)) {
			w = snprintf(out + n, sizeof(out) - n, "%d", in->rank);
			val += 5;
		} else if (!strncmp(val, "$nranks", 7)) {
			w = snprintf(out + n, sizeof(out) - n, "%d", in->nranks ? in->nranks : 1);
			val += 7;
		} else if (!strncmp(val, "$host", 5)) {
			w = snprintf(out + n, sizeof(out) - n, "%s", in->host ? in->host : "");
			val += 5;
		} else {
			out[n++] = *val++;
		}
		if (w > 0)
			n += (size_t)w < sizeof(out) - n ? (size_t)w : sizeof(out) - n - 1;
	}
	out[n] = '\0';
	return arena_strdup(arena, out);
}

/*
 * A number, count or time with something after it ("128*1", "30*1", "2s*3", as xfstests
 * writes them meaning a product): fio reads the number and its unit and stops at what
 * follows, so the longest head of val that the option takes, from its digits on; its
 * length, 0 when none.
 */
static size_t number_head(const struct opt_def *o, const struct opt_ctx *ctx, void *base,
			  const char *val, char *head, size_t size)
{
	char why[WHY_LEN];
	size_t digits = 0, len = strlen(val);

	while (isdigit((unsigned char)val[digits]))
		digits++;
	if (!digits || digits == len)
		return 0;
	/* fio 3.33 reads "2ms*3" as 2 ms and "30*1" as 30 s, but "2s*3" or "2m*1" as 0 */
	if (o->type == OPT_TIME && isalpha((unsigned char)val[digits]) &&
	    strncasecmp(val + digits, "ms", 2) && strncasecmp(val + digits, "us", 2))
		return 0;
	/* a unit is a few letters at most ("usec", "min"): longer heads are no number */
	for (size_t n = len - 1 < digits + 5 ? len - 1 : digits + 5; n >= digits; n--) {
		if (n >= size)
			continue;
		memcpy(head, val, n);
		head[n] = '\0';
		if (opt_apply(o, ctx, base, head, why, sizeof(why)) == 0)
			return n;
	}
	return 0;
}

/*
 * A size or range fio reads and iojob's parser refuses, read as fio reads it, with a note: a
 * size is the number and the unit its first letters make ("65536)" is 65536, "8kx" 8k); a
 * range's values split at '-', ':' and ',', the first its low end and the last its high one
 * ("16-8k/8M-512M" is 16 to 512M); a number or time is what its digits and unit make
 * ("128*1" is 128). Under iojob's own name only such a range, where a typo in one size
 * ("4q") is more likely than fio's reading: its error (and suggestion) stands.
 * -EINVAL where the error stands.
 */
static int apply_as_fio(const struct opt_def *o, const struct opt_ctx *ctx, void *base,
			const char *val, const struct key_ref *k, bool fio_sizes, struct diag *d)
{
	size_t n = value_size_prefix(val);
	char head[64], why[WHY_LEN];

	if (o->type == OPT_RANGE) {
		struct size_range *r = (struct size_range *)((char *)base + o->off);
		uint64_t lo, hi;
		unsigned nvals;

		if (value_parse_size_range_loose(val, ctx->kb_base, &lo, &hi, &nvals) < 0 ||
		    (nvals < 2 && !fio_sizes))
			return -EINVAL;
		r->lo = lo;
		r->hi = hi;
		if (nvals == 1)
			snprintf(head, sizeof(head), "%" PRIu64, lo);
		else
			snprintf(head, sizeof(head), "%" PRIu64 "-%" PRIu64, lo, hi);
	} else if (o->type == OPT_UINT || o->type == OPT_U64 || o->type == OPT_TIME) {
		if (!fio_sizes || !number_head(o, ctx, base, val, head, sizeof(head)))
			return -EINVAL;
	} else {
		if (!fio_sizes || (o->type != OPT_SIZE && o->type != OPT_SIZE_PCT) || !n ||
		    n >= sizeof(head) || !val[n] || val[strlen(val) - 1] == 'z')
			return -EINVAL;
		memcpy(head, val, n);
		head[n] = '\0';
		if (opt_apply(o, ctx, base, head, why, sizeof(why)) < 0)
			return -EINVAL;
	}
	if (k->line > 0)
		diag_note(d, "%s:%d: option '%s': '%s' is read as '%s', as fio reads it", k->file,
			  k->line, o->name, val, head);
	else
		diag_note(d, "%s: option '%s': '%s' is read as '%s', as fio reads it", k->file,
			  o->name, val, head);
	return 0;
}

/*
 * An option of the ioengine a [global] section chose, under a job that chose another: fio
 * took it where it was set and the job's engine has no use for it, so it is left out (fio
 * 3.33 runs its e4defrag2 example so, donorname= in [global] above libaio jobs). True when
 * keys[i] is such an option, with a note saying it was left out.
 */
static bool global_engine_option(const struct job_input *in, const struct engine_info *eng,
				 const struct key_list *keys, size_t i, const struct job_desc *j,
				 struct diag *d)
{
	const struct key_ref *k = &keys->v[i], *e = NULL;
	const struct engine_info *geng;
	const char *at = k->file;
	char where[PATH_MAX + 16];

	if (!k->global || k->replaces)
		return false;
	for (size_t n = 0; n < keys->n; n++)
		if (keys->v[n].global && !keys->v[n].replaces &&
		    opt_find(job_options, keys->v[n].key) == opt_find(job_options, "ioengine"))
			e = &keys->v[n];
	geng = e ? jobs_engine(in, e->val) : NULL;
	if (!eng || !geng || geng == eng || !opt_find(geng->options, k->key))
		return false;
	if (k->line > 0 && snprintf(where, sizeof(where), "%s:%d", k->file, k->line) > 0)
		at = where;
	diag_note(d, "%s: job '%s': option '%s' belongs to [global]'s ioengine '%s', and the job "
		  "uses '%s': left out for it, as fio does", at, j->name, k->key, geng->name,
		  eng->name);
	return true;
}

static int apply_key(const struct job_input *in, const struct engine_info *eng,
		     const struct opt_ctx *ctx, struct job_desc *j, const struct key_list *keys,
		     size_t i, struct diag *d)
{
	const struct key_ref *k = &keys->v[i];
	const struct opt_def *o = opt_find(job_options, k->key);
	char why[WHY_LEN];
	const char *val;
	void *base = j;
	int ret;

	if (!o && eng) {
		o = opt_find(eng->options, k->key);
		base = j->engine_opts.bytes;
	}
	if (!o && global_engine_option(in, eng, keys, i, j, d))
		return 0;
	if (!o)
		return unknown_option(in, eng, j, k, d);
	if (k->bare && !o->bare_ok && o->type != OPT_BOOL && o->type != OPT_BOOL_INV)
		return needs_value(o, k, d);
	if (k->replaces && o->type == OPT_STR_LIST)	/* --set filename=x: x alone */
		*(struct str_list *)((char *)base + o->off) = (struct str_list){ 0 };
	val = rank_vars(in, o, k->val, ctx->arena);
	if (val && !*val && !k->bare && !o->empty_ok && o->type != OPT_DEPRECATED)
		return empty_value(o, k, d);
	ret = val ? opt_apply(o, ctx, base, val, why, sizeof(why)) : -ENOMEM;
	if (ret == -EINVAL && apply_as_fio(o, ctx, base, val, k, in->fio_sizes, d) == 0)
		ret = 0;
	if (ret == -ENOMEM)
		return diag_at(d, ret, k->file, k->line, "job '%s': option '%s': out of memory",
			       j->name, o->name);
	/* Out of range too: jobs_build() returns -EINVAL for every job-file error. */
	if (ret < 0)
		return diag_at(d, -EINVAL, k->file, k->line, "option '%s': %s", o->name, why);
	return record_setting(ctx->arena, j, o->name, k);
}

/* kb_base changes what every size means, and ioengine decides which options exist. */
static int resolve_first(const struct job_input *in, const struct key_list *keys,
			 const struct opt_ctx *ctx, struct job_desc *j,
			 const struct engine_info **eng, struct diag *d)
{
	const struct key_ref *k;
	char why[WHY_LEN];

	k = last_key(keys, opt_find(job_options, "kb_base"));
	if (k && opt_apply(opt_find(job_options, "kb_base"), ctx, j, k->val, why,
			   sizeof(why)) < 0)
		return diag_at(d, -EINVAL, k->file, k->line, "option 'kb_base': %s", why);
	k = last_key(keys, opt_find(job_options, "ioengine"));
	if (k)
		j->ioengine = k->val;
	*eng = jobs_engine(in, j->ioengine);
	if (!*eng) {
		const char *names[32], *best;
		unsigned n = 0;

		for (unsigned e = 0; e < in->nengines && n < 32; e++)
			names[n++] = in->engines[e].name;
		best = value_closest(j->ioengine, names, n);
		return diag_at(d, -EINVAL, k ? k->file : j->file, k ? k->line : j->line,
			       "option 'ioengine': unknown engine '%s'%s%s%s (see --enghelp)",
			       j->ioengine, best ? " (did you mean '" : "", best ? best : "",
			       best ? "'?)" : "");
	}
	if (!(*eng)->available)
		return diag_at(d, -EINVAL, k ? k->file : j->file, k ? k->line : j->line,
			       "option 'ioengine': '%s' is not available in this build: %s",
			       j->ioengine, (*eng)->why_missing);
	return 0;
}

static int collect_keys(const struct job_input *in, size_t sec, const size_t *globals,
			size_t nglobals, struct key_list *keys)
{
	const struct jobfile *jf = in->jf;
	int ret = 0;

	if (in->cli_defaults >= 0)
		ret = keys_push_section(keys, &jf->secs[in->cli_defaults], true);
	for (size_t g = 0; !ret && g < nglobals; g++)
		ret = keys_push_section(keys, &jf->secs[globals[g]], true);
	if (!ret)
		ret = keys_push_section(keys, &jf->secs[sec], false);
	for (unsigned s = 0; !ret && s < in->nsets; s++) {
		ret = keys_push(keys, in->sets[s].key, in->sets[s].value,
				in->sets[s].origin ? in->sets[s].origin : "--set", 0, true);
		if (!ret)
			keys->v[keys->n - 1].replaces = true;
	}
	return ret;
}

/*
 * The kb_base the keys of the layer starting at keys->v[at] are read with: as fio, a
 * section's own kb_base (set anywhere in it) for all of its sizes, else the one in force
 * from the sections before it. A [global] bs=4k stays 4096 under a job's kb_base=1000.
 */
static unsigned layer_kb_base(const struct key_list *keys, size_t at, unsigned before,
			      const struct opt_ctx *ctx, struct job_desc *j)
{
	const struct opt_def *kb = opt_find(job_options, "kb_base");
	unsigned layer = keys->v[at].layer, saved = j->kb_base, got = before;
	char why[WHY_LEN];

	for (size_t i = at; i < keys->n && keys->v[i].layer == layer; i++)
		if (opt_find(job_options, keys->v[i].key) == kb &&
		    opt_apply(kb, ctx, j, keys->v[i].val, why, sizeof(why)) == 0)
			got = j->kb_base;
	j->kb_base = saved;
	return got;
}

/*
 * A job file's section name with '/' does not make a path (engine/plan/files.c): say so
 * where the job's files are named after it, since fio would put them there.
 */
static void note_name_not_path(const struct job_desc *j, struct diag *d)
{
	if (j->name_is_path || !strchr(j->name, '/') || j->filenames.n ||
	    !strstr(j->filename_format, "$jobname"))
		return;
	diag_note(d, "%s:%d: job '%s': a section name is not a path here: its files take the "
		  "name with '_' for '/', in the job's directory (fio would create them at that "
		  "path; filename= or a command-line --name= names them as a path)", j->file,
		  j->line, j->name);
}

/*
 * randrepeat=0 without randseed=: a seed of this run's own, from which every generator of
 * the job (offsets, sizes, mixes, buffers, poisson's gaps) derives, as fio seeds them all
 * from /dev/urandom then; a randseed= the job sets wins, as fio's HOWTO says.
 */
static void seed_of_run(struct job_desc *j)
{
	uint64_t seed;

	if (j->randrepeat || job_setting(j, "randseed"))
		return;
	if (getrandom(&seed, sizeof(seed), 0) == sizeof(seed))
		j->randseed = seed;
}

/* One section to one job descriptor (before cloning). */
static int build_one(const struct job_input *in, size_t sec, const size_t *globals,
		     size_t nglobals, struct arena **arena, struct job_desc *j,
		     struct diag *d)
{
	const struct jf_section *s = &in->jf->secs[sec];
	struct opt_ctx ctx = { .kb_base = 1024, .arena = arena };
	struct key_list keys = { 0 };
	const struct engine_info *eng = NULL;
	int ret;

	memset(j, 0, sizeof(*j));
	apply_defaults(job_options, &ctx, j);
	j->name = s->name;
	j->section = (unsigned)sec;
	j->file = s->file;
	j->line = s->line;
	j->name_is_path = s->source < 0;	/* no job file: --name= on the command line */
	j->readonly = in->readonly;
	ret = collect_keys(in, sec, globals, nglobals, &keys);
	if (ret < 0) {
		free(keys.v);
		return diag_at(d, ret, s->file, s->line, "job '%s': out of memory", s->name);
	}
	ret = resolve_first(in, &keys, &ctx, j, &eng, d);
	ctx.kb_base = j->kb_base;
	if (!ret)
		apply_defaults(eng->options, &ctx, j->engine_opts.bytes);
	for (size_t i = 0; !ret && i < keys.n; i++) {
		if (!i || keys.v[i].layer != keys.v[i - 1].layer)
			ctx.kb_base = layer_kb_base(&keys, i, i ? ctx.kb_base : 1024, &ctx, j);
		ret = apply_key(in, eng, &ctx, j, &keys, i, d);
	}
	ctx.kb_base = j->kb_base;
	free(keys.v);
	if (!ret)
		sysbench_mode_defaults(j);
	if (!ret)
		note_name_not_path(j, d);
	if (!ret)
		seed_of_run(j);
	if (!ret)
		ret = replay_load(j, eng, arena, d);
	if (!ret)
		ret = job_validate(j, eng, in, d);
	return ret;
}

/*
 * Past JOBS_MAX: blame numjobs where this job sets it, else the count of sections, clones
 * and passes so far (a file of 65,537 one-job sections has no numjobs to blame).
 */
static int too_many_jobs(const struct job_list *out, const struct job_desc *tmpl,
			 struct diag *d)
{
	unsigned total = out->njobs + tmpl->numjobs;
	const char *file;
	int line;

	if (job_setting(tmpl, "numjobs") && tmpl->numjobs > 1) {
		job_where(tmpl, "numjobs", &file, &line);
		return diag_at(d, -EINVAL, file, line, "job '%s': option 'numjobs': %u more jobs "
			       "would make %u, and a run has at most %u", tmpl->name,
			       tmpl->numjobs, total, JOBS_MAX);
	}
	return diag_at(d, -EINVAL, tmpl->file, tmpl->line, "job '%s': the sections so far, with "
		       "their clones and passes, make %u jobs, and a run has at most %u",
		       tmpl->name, total, JOBS_MAX);
}

static int append_clones(struct job_list *out, const struct job_desc *tmpl, size_t *cap,
			 const struct engine_info *eng, struct diag *d)
{
	if (out->njobs + tmpl->numjobs > JOBS_MAX)
		return too_many_jobs(out, tmpl, d);
	if (grow_reserve(&out->jobs, cap, out->njobs + tmpl->numjobs, sizeof(*out->jobs)) < 0)
		return diag_at(d, -ENOMEM, tmpl->file, tmpl->line, "job '%s': out of memory "
			       "(for %u jobs)", tmpl->name, out->njobs + tmpl->numjobs);
	for (unsigned c = 0; c < tmpl->numjobs; c++) {
		struct job_desc *j = &out->jobs[out->njobs];

		*j = *tmpl;
		j->jobnum = c;
		j->index = out->njobs++;
		/* read_iolog=a:b: each clone replays the next log, as fio's clones do */
		if (c && j->read_iolog.n > 1 && !j->merge_blktrace_file) {
			int ret = replay_load(j, eng, &out->arena, d);

			if (ret)
				return ret;
		}
	}
	return 0;
}

static bool selected(const struct job_input *in, const char *name)
{
	if (!in->sections)
		return true;
	for (unsigned i = 0; i < in->nsections; i++)
		if (!strcmp(in->sections[i], name))
			return true;
	return false;
}

/* A new job file, or stonewall, starts a phase; those and new_group start a group. */
static void place(struct job_list *out, struct job_desc *j, bool new_source, bool *group_used)
{
	if (out->njobs && (new_source || j->stonewall))
		out->nphases++;
	if (*group_used && (new_source || j->stonewall || j->new_group))
		out->ngroups++;
	*group_used = true;
	j->phase = out->nphases;
	j->groupid = out->ngroups;
}

/* The job (and its clones) once per pass, each pass a phase and a group of its own. */
static int append_passes(struct job_list *out, struct job_desc *tmpl, size_t *cap,
			 bool *group_used, const struct engine_info *eng, struct diag *d)
{
	int ret = 0;

	for (tmpl->pass = 1; !ret && tmpl->pass <= tmpl->passes; tmpl->pass++) {
		if (tmpl->pass > 1) {
			tmpl->stonewall = true;
			place(out, tmpl, false, group_used);
		}
		ret = append_clones(out, tmpl, cap, eng, d);
	}
	return ret;
}

/*
 * [global] sections with no job below them in their file would never be parsed: check
 * their options as if they were a job, so that a typo there is still an error.
 */
static int check_trailing_globals(const struct job_input *in, const size_t *globals,
				  size_t nglobals, struct arena **arena, struct diag *d)
{
	struct diag quiet = { 0 };
	struct job_desc unused;
	int ret;

	if (!nglobals)
		return 0;
	/* Only errors matter: notes about a job that never runs would only confuse. */
	ret = build_one(in, globals[nglobals - 1], globals, nglobals - 1, arena, &unused, &quiet);
	if (ret)
		diag_set(d, ret, "%s", quiet.msg);
	diag_clear(&quiet);
	return ret;
}

/* Nothing to run: name the job files, and what they hold instead of a job. */
static int no_jobs(const struct job_input *in, struct diag *d)
{
	const struct jobfile *jf = in->jf;
	char files[512];
	size_t at = 0, nsecs = 0;

	files[0] = '\0';
	for (int i = 0; i < jf->nsources && at < sizeof(files); i++)
		at += (size_t)snprintf(files + at, sizeof(files) - at, "%s'%s'", i ? ", " : "",
				       jf->source_names[i]);
	for (size_t i = 0; i < jf->nsecs; i++)
		nsecs += jf->secs[i].source >= 0;
	if (in->sections)
		return diag_set(d, -EINVAL, "no job%s%s matches --section", files[0] ? " of " : "",
				files);
	if (!jf->nsources)
		return diag_set(d, -EINVAL, "no jobs defined (give a job file or --name=NAME with "
				"options)");
	if (!nsecs)
		return diag_set(d, -EINVAL, "%s: no jobs defined (no sections: a job starts with "
				"[name])", files);
	return diag_set(d, -EINVAL, "%s: no jobs defined (only [global] sections: a job is a "
			"section of another name)", files);
}

int jobs_build(const struct job_input *in, struct job_list *out, struct diag *d)
{
	const struct jobfile *jf = in->jf;
	size_t *globals, nglobals = 0, cap = 0;
	bool group_used = false, new_source = false, trailing = false;
	int source = -1, ret = 0;
	struct job_desc tmpl;

	memset(out, 0, sizeof(*out));
	globals = calloc(jf->nsecs + 1, sizeof(*globals));
	if (!globals)
		return diag_set(d, -ENOMEM, "out of memory");
	for (size_t i = 0; !ret && i < jf->nsecs; i++) {
		const struct jf_section *s = &jf->secs[i];

		if ((long)i == in->cli_defaults)
			continue;
		if (s->source != source) {
			if (trailing)
				ret = check_trailing_globals(in, globals, nglobals, &out->arena, d);
			source = s->source;
			nglobals = 0;
			new_source = true;
			trailing = false;
			if (ret)
				break;
		}
		if (is_global(s->name)) {
			globals[nglobals++] = i;
			trailing = true;
			continue;
		}
		trailing = false;
		if (!selected(in, s->name))
			continue;
		ret = build_one(in, i, globals, nglobals, &out->arena, &tmpl, d);
		if (!ret && in->readonly)
			ret = job_check_readonly(&tmpl, jobs_engine(in, tmpl.ioengine), d);
		if (!ret)
			ret = job_check_wait_for(out, &tmpl, d);
		if (ret)
			break;
		place(out, &tmpl, new_source, &group_used);
		new_source = false;
		ret = job_check_steady_group(out, &tmpl, in->nranks, d);
		if (ret)
			break;
		ret = append_passes(out, &tmpl, &cap, &group_used, jobs_engine(in, tmpl.ioengine),
				    d);
	}
	if (!ret && trailing)
		ret = check_trailing_globals(in, globals, nglobals, &out->arena, d);
	free(globals);
	if (!ret && !out->njobs)
		ret = no_jobs(in, d);
	if (ret) {
		jobs_free(out);
		return ret;
	}
	out->nphases++;
	out->ngroups++;
	return 0;
}

void jobs_free(struct job_list *l)
{
	free(l->jobs);
	arena_free(&l->arena);
	memset(l, 0, sizeof(*l));
}
