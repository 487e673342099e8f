/* read_iolog: the stream of a log's entries, and the log loaded and checked before the run. */
#include "jobs/replay_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jobs/blktrace.h"
#include "jobs/iolog.h"
#include "jobs/options.h"
#include "base/arena.h"
#include "base/diag.h"
#include "base/grow.h"

/*
 * read_iolog=-: stdin, made seekable the first time (what a pipe holds is copied into a
 * memfd that becomes fd 0), because the jobs are built more than once (checked, then run)
 * and each build reads the log.
 */
static int open_stdin(struct replay_stream *s, char *why, size_t whylen)
{
	char buf[65536];
	ssize_t n = 0;
	int m;

	if (lseek(STDIN_FILENO, 0, SEEK_SET) < 0) {
		if (errno != ESPIPE || (m = memfd_create("iojob-read_iolog", MFD_CLOEXEC)) < 0)
			goto fail;
		while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
			if (n > 0 && write(m, buf, (size_t)n) != n)
				break;
		if (n != 0 || lseek(m, 0, SEEK_SET) < 0 || dup2(m, STDIN_FILENO) < 0) {
			close(m);
			goto fail;
		}
		close(m);
	}
	s->f = stdin;
	fseek(stdin, 0, SEEK_SET);	/* drops what the stream had buffered */
	clearerr(stdin);
	return 0;
fail:
	snprintf(why, whylen, "'-' (stdin): %s", strerror(errno));
	return -errno;
}

int replay_stream_open(struct replay_stream *s, const struct job_desc *j,
		       struct replay_log *log, const char *path, bool loading, char *why,
		       size_t whylen)
{
	unsigned char head[BLKTRACE_RECORD_BYTES];
	size_t n;

	memset(s, 0, sizeof(*s));
	s->j = j;
	s->log = log;
	s->loading = loading;
	/* fio reads stdin as an iolog: a blktrace needs a file it can seek in */
	if (!strcmp(path, "-")) {
		int ret = open_stdin(s, why, whylen);

		return ret < 0 ? ret : iolog_read_header(s, why, whylen);
	}
	s->f = fopen(path, "rb");
	if (!s->f) {
		snprintf(why, whylen, "'%s': %s", path, strerror(errno));
		return -errno;
	}
	n = fread(head, 1, sizeof(head), s->f);
	s->blktrace = blktrace_detect(head, n, &s->swap);
	rewind(s->f);
	return s->blktrace ? 0 : iolog_read_header(s, why, whylen);
}

int replay_stream_next(struct replay_stream *s, struct replay_entry *e, char *why,
		       size_t whylen)
{
	if (s->blktrace)
		return blktrace_next(s, e, why, whylen);
	return iolog_next(s, e, why, whylen);
}

void replay_stream_close(struct replay_stream *s)
{
	if (s->f && s->f != stdin)
		fclose(s->f);
	s->f = NULL;
	free(s->files);
	s->files = NULL;
	free(s->opened);
	s->opened = NULL;
}

int replay_stream_file(struct replay_stream *s, const char *name, uint32_t dev, bool add)
{
	struct replay_file *files = s->loading ? s->files : s->log->files;
	unsigned n = s->loading ? s->nfiles : s->log->nfiles;
	size_t cap = s->cap;

	if (s->j->replay_redirect)
		name = s->j->replay_redirect;
	if (s->last_file < n && !strcmp(files[s->last_file].path, name))
		return (int)s->last_file;
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(files[i].path, name))
			return (int)(s->last_file = i);
	if (!add || !s->loading)
		return -1;
	if (GROW_FOR(s->files, cap, n) < 0)
		return -ENOMEM;
	s->cap = (unsigned)cap;
	memset(&s->files[n], 0, sizeof(s->files[n]));
	s->files[n].path = strdup(name);
	if (!s->files[n].path)
		return -ENOMEM;
	s->files[n].line = s->where;
	s->files[n].dev = dev;
	s->nfiles++;
	return (int)(s->last_file = n);
}

uint64_t replay_stream_delay(struct replay_stream *s, uint64_t t)
{
	uint64_t last = s->last_time;

	s->last_time = t;
	if (!last || s->j->replay_no_stall || t < last)
		return 0;
	return (uint64_t)((unsigned __int128)(t - last) * 100 / s->j->replay_time_scale);
}

uint64_t replay_offset(const struct job_desc *j, uint64_t off)
{
	if (j->replay_scale)
		off /= j->replay_scale;
	if (j->replay_align)
		off &= ~((uint64_t)j->replay_align - 1);
	return off;
}

/* The options that only mean something with read_iolog (or merge_blktrace_file). */
static int check_unreplayed(const struct job_desc *j, struct diag *d)
{
	static const char *const needs_log[] = {
		"read_iolog_chunked", "replay_no_stall", "replay_redirect", "replay_align",
		"replay_scale", "replay_time_scale", "replay_skip", "merge_blktrace_file",
	};

	for (size_t i = 0; i < sizeof(needs_log) / sizeof(needs_log[0]); i++)
		if (job_setting(j, needs_log[i]))
			return job_fail_opt(j, needs_log[i], d, "it changes how read_iolog "
					    "replays a log, and the job sets no read_iolog");
	if (!j->merge_blktrace_file && (j->nmerge_scalars || j->nmerge_iters))
		return job_fail_opt(j, j->nmerge_scalars ? "merge_blktrace_scalars" :
				    "merge_blktrace_iters", d, "it applies to the traces "
				    "merge_blktrace_file merges, and the job sets no "
				    "merge_blktrace_file");
	return 0;
}

/*
 * What the log decides and fio lets a job set anyway (fio 3.33 runs each, measured: the log's
 * files, I/Os and syncs, once): said at its line and dropped, so that nothing acts twice.
 */
static void drop_for_replay(struct job_desc *j, struct diag *d)
{
	const struct { const char *opt; bool set; const char *what; } dropped[] = {
		{ "write_iolog", j->write_iolog, "no log is written: read_iolog overrides "
		  "write_iolog, as in fio" },
		{ "filename", j->filenames.n, "the log names the files and the replay uses "
		  "them, as fio's (replay_redirect= sends every I/O to one file)" },
		{ "opendir", j->opendir, "the log names the files and the replay uses them, "
		  "as fio's" },
		{ "loops", j->loops > 1, "the log is replayed once, as fio replays it" },
		{ "time_based", j->time_based, "the replay ends with the log, as fio's does" },
		{ "number_ios", j->number_ios, "the log says how many I/Os there are, as in "
		  "fio" },
		{ "fsync", j->fsync_every, "no sync is added: the log's own sync lines are "
		  "replayed, as in fio" },
		{ "fdatasync", j->fdatasync_every, "no sync is added: the log's own datasync "
		  "lines are replayed, as in fio" },
		{ "sync_file_range", j->sfr_every, "no sync is added: the log's own sync lines "
		  "are replayed, as in fio" },
		{ "fsync_every_ios", j->fsync_every_ios, "no sync is added: the log's own "
		  "sync lines are replayed" },
		{ "openfiles", j->openfiles, "the log's files are all kept open" },
		{ "unlink_each_loop", j->unlink_each_loop, "the log is replayed once" },
	};

	for (size_t i = 0; i < sizeof(dropped) / sizeof(dropped[0]); i++)
		if (dropped[i].set)
			job_note(j, dropped[i].opt, d, "with read_iolog: %s", dropped[i].what);
	j->write_iolog = NULL;
	j->opendir = NULL;
	j->loops = 1;
	j->time_based = false;
	j->number_ios = 0;
	j->fsync_every = j->fdatasync_every = j->sfr_every = 0;
	j->fsync_every_ios = 0;
	j->openfiles = 0;
	j->unlink_each_loop = false;
}

/* What a replay cannot go with: iojob's own options that place or order the I/O. */
static int check_replay_options(const struct job_desc *j, const struct engine_info *eng,
				struct diag *d)
{
	const struct { const char *opt; bool set; const char *why; } refused[] = {
		{ "stripe_chunk", j->stripe_chunk, "a stripe is not a target of a replay" },
		{ "seq_cursor", j->seq_cursor_shared, "the log gives the offsets" },
	};
	unsigned n = j->read_iolog.n;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (refused[i].set)
			return job_fail_opt(j, refused[i].opt, d, "not with read_iolog: %s",
					    refused[i].why);
	if (eng->flags & ENGINE_TIMED)
		return job_fail_opt(j, "ioengine", d, "ioengine %s does no I/O to replay a log "
				    "with (use psync, sync, libaio, io_uring, ...)", eng->name);
	if (j->replay_align & (j->replay_align - 1))
		return job_fail_opt(j, "replay_align", d, "%u is not a power of 2",
				    j->replay_align);
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(j->read_iolog.v[i], "-") && (j->read_iolog_chunked ||
							 j->merge_blktrace_file))
			return job_fail_opt(j, "read_iolog", d, j->merge_blktrace_file ?
					    "'-' (stdin) holds an iolog, as fio reads it, and "
					    "merge_blktrace_file merges blktraces" :
					    "'-' (stdin) is kept whole in memory, to be read at "
					    "each build of the jobs: read_iolog_chunked cannot "
					    "bound it (give the log as a file)");
	if ((j->nmerge_scalars && j->nmerge_scalars != n) ||
	    (j->nmerge_iters && j->nmerge_iters != n))
		return job_fail_opt(j, j->nmerge_scalars && j->nmerge_scalars != n ?
				    "merge_blktrace_scalars" : "merge_blktrace_iters", d,
				    "%u values for the %u traces of read_iolog",
				    j->nmerge_scalars && j->nmerge_scalars != n ?
				    j->nmerge_scalars : j->nmerge_iters, n);
	return 0;
}

/* The options a replay leaves unused: said, so that nobody expects them to act. */
static void note_unused(const struct job_desc *j, struct diag *d)
{
	static const char *const given_by_log[] = {
		"rw", "bs", "bsrange", "bssplit", "size", "filesize", "io_size", "offset",
		"nrfiles", "rwmixread", "blockalign",
	};

	for (size_t i = 0; i < sizeof(given_by_log) / sizeof(given_by_log[0]); i++)
		if (job_setting(j, given_by_log[i]))
			diag_note(d, "job '%s': read_iolog gives the I/Os, their sizes and files: "
				  "option '%s' does nothing", j->name, given_by_log[i]);
}

/* What the log does to its file: how far its reads reach, whether it writes. */
static void count_entry(struct replay_log *log, struct replay_file *f,
			const struct replay_entry *e)
{
	uint64_t end = e->off + e->len;

	log->ios[e->act]++;
	if (e->act > IO_TRIM)
		return;	/* syncs and reopens move no data */
	log->bytes += e->len;
	if (e->len > log->len_max[e->act])
		log->len_max[e->act] = e->len;
	if (!log->len_min[e->act] || e->len < log->len_min[e->act])
		log->len_min[e->act] = e->len;
	if (e->act == IO_READ && end > f->read_end) {
		f->read_end = end;
		f->read_end_line = e->line;
	} else if (e->act != IO_READ) {
		f->written = true;
		if (end > f->write_end)
			f->write_end = end;
	}
}

/* The log read through once: checked, counted, and (unless chunked) its entries kept. */
static int read_log(struct job_desc *j, struct replay_log *log, struct replay_stream *s,
		    struct replay_entry **entries, unsigned *first_trim, char *why,
		    size_t whylen)
{
	struct replay_entry e;
	size_t cap = 0;
	int ret;

	*entries = NULL;
	while ((ret = replay_stream_next(s, &e, why, whylen)) > 0) {
		if (e.act == IO_TRIM && !*first_trim)
			*first_trim = e.line;
		count_entry(log, &s->files[e.file], &e);
		if (j->read_iolog_chunked)
			continue;
		if (GROW_FOR(*entries, cap, log->nentries) < 0)
			return -ENOMEM;
		(*entries)[log->nentries++] = e;
	}
	if (!ret && !log->ios[IO_READ] && !log->ios[IO_WRITE] && !log->ios[IO_TRIM] &&
	    !log->ios[REPLAY_FSYNC] && !log->ios[REPLAY_FDATASYNC]) {
		snprintf(why, whylen, "there is no I/O to replay in it%s", j->replay_skip ?
			 " (replay_skip left out the rest)" : "");
		s->where = 0;	/* the whole log, no line of it */
		ret = -EINVAL;
	}
	return ret;
}

/* The log's entries and files, kept with the job descriptors. */
static int keep_log(struct replay_log *log, struct replay_stream *s,
		    const struct replay_entry *entries, struct arena **arena)
{
	struct replay_entry *kept = NULL;
	struct replay_file *files;

	if (entries) {
		kept = arena_alloc(arena, log->nentries * sizeof(*kept));
		if (!kept)
			return -ENOMEM;
		memcpy(kept, entries, log->nentries * sizeof(*kept));
	}
	files = arena_alloc(arena, s->nfiles * sizeof(*files));
	if (!files)
		return -ENOMEM;
	for (unsigned i = 0; i < s->nfiles; i++) {
		files[i] = s->files[i];
		files[i].path = arena_strdup(arena, s->files[i].path);
		if (!files[i].path)
			return -ENOMEM;
	}
	log->entries = kept;
	log->files = files;
	log->nfiles = s->nfiles;
	return 0;
}

static void free_names(struct replay_stream *s)
{
	for (unsigned i = 0; i < s->nfiles; i++)
		free((char *)s->files[i].path);
}

/* The job as the log makes it: its files, directions, block sizes and depth. */
static int apply_log(struct job_desc *j, const struct replay_log *log, struct arena **arena)
{
	bool r = log->ios[IO_READ], w = log->ios[IO_WRITE] || log->ios[REPLAY_FSYNC] ||
		 log->ios[REPLAY_FDATASYNC], t = log->ios[IO_TRIM];
	uint64_t len_max = 0;

	j->filenames.v = arena_alloc(arena, log->nfiles * sizeof(*j->filenames.v));
	if (!j->filenames.v)
		return -ENOMEM;
	for (unsigned i = 0; i < log->nfiles; i++)
		j->filenames.v[i] = (char *)log->files[i].path;
	j->filenames.n = log->nfiles;
	j->nrfiles = log->nfiles;
	j->rw = (r && (w || t)) || (w && t) ? RW_RW : r ? RW_READ : t ? RW_TRIM : RW_WRITE;
	j->rw_nr = 0;
	for (int d = 0; d < IO_NDIR; d++)
		if (log->len_max[d] > len_max)
			len_max = log->len_max[d];
	for (int d = 0; d < IO_NDIR && len_max; d++) {
		/* a direction the log lacks takes the longest of the others: one buffer size */
		uint64_t len = log->len_max[d] ? log->len_max[d] : len_max;

		memset(&j->bs[d], 0, sizeof(j->bs[d]));
		/* the shortest too: verify's chunks are the smallest write's (verify_interval) */
		j->bs[d].min = log->len_min[d] ? log->len_min[d] : len;
		j->bs[d].max = len;
		j->blockalign[d] = len;	/* never 0: a clone loads after the validation */
	}
	/* fio takes a blktrace's depth when the job sets none; clones keep the first's */
	if (log->depth && !job_setting(j, "iodepth") && !j->jobnum)
		j->iodepth = log->depth;
	j->replay = log;
	return 0;
}

static int load_one(struct job_desc *j, const struct engine_info *eng, const char *path,
		    struct arena **arena, struct diag *d)
{
	struct replay_log *log = arena_alloc(arena, sizeof(*log));
	struct replay_entry *entries = NULL;
	struct replay_stream s;
	unsigned first_trim = 0;
	char why[1024] = "";
	int ret;

	if (!log)
		return -ENOMEM;
	log->path = arena_strdup(arena, path);
	if (!log->path)
		return -ENOMEM;
	ret = replay_stream_open(&s, j, log, path, true, why, sizeof(why));
	if (ret < 0 && ret != -EINVAL) {
		replay_stream_close(&s);
		return job_fail_opt(j, "read_iolog", d, "%s", why);
	}
	log->blktrace = s.blktrace;
	log->swap = s.swap;
	log->version = s.version;
	if (!ret)
		ret = read_log(j, log, &s, &entries, &first_trim, why, sizeof(why));
	if (!ret && first_trim && !(eng->flags & ENGINE_TRIM)) {
		snprintf(why, sizeof(why), "the log trims, and ioengine %s cannot "
			 "(replay_skip=trim leaves the trims out)", eng->name);
		s.where = first_trim;
		ret = -EINVAL;
	}
	if (!ret)
		ret = keep_log(log, &s, entries, arena);
	if (!ret && s.zero_noted)
		diag_note(d, "%s: job '%s': zero-byte reads and writes in the trace are not "
			  "replayed, as in fio", path, j->name);
	if (ret == -EINVAL)
		diag_at(d, ret, path, log->blktrace ? 0 : (int)s.where, "job '%s': %s", j->name,
			why);
	free(entries);
	free_names(&s);
	replay_stream_close(&s);
	if (ret == -ENOMEM)
		return diag_set(d, ret, "job '%s': out of memory reading '%s'", j->name, path);
	return ret ? ret : apply_log(j, log, arena);
}

int replay_load(struct job_desc *j, const struct engine_info *eng, struct arena **arena,
		struct diag *d)
{
	const char *path;
	char why[1024];
	int ret;

	if (!j->read_iolog.n)
		return check_unreplayed(j, d);
	/* a clone (read_iolog=a:b) was checked as its section's first job */
	if (!j->jobnum) {
		ret = check_replay_options(j, eng, d);
		if (ret)
			return ret;
		note_unused(j, d);
	}
	drop_for_replay(j, j->jobnum ? NULL : d);
	path = j->read_iolog.v[j->jobnum % j->read_iolog.n];
	if (j->merge_blktrace_file) {
		/* fio merges once, before the clones are made: they all replay the merge */
		if (!j->jobnum && (ret = blktrace_merge(j, why, sizeof(why))) < 0)
			return job_fail_opt(j, "merge_blktrace_file", d, "%s", why);
		path = j->merge_blktrace_file;
	}
	return load_one(j, eng, path, arena, d);
}
