/* Data verification: chunk headers and checksums, generations, read-back passes. */
#include "engine/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/checksum.h"
#include "engine/worker.h"

#define VERIFY_MAGIC	0x564a4f49u	/* "IOJV" little-endian */
#define GEN_ANY		UINT32_MAX	/* overlapping writes: either may have landed last */
#define BUSY_OVERLAP	0x8000u		/* busy: writes to the chunk overlapped in flight */
#define BUSY_COUNT	0x7fffu		/* writes in flight to the chunk, saturating */

/* The start of each verified chunk; the checksum covers the chunk with csum zeroed. */
struct vhdr {
	uint32_t magic;
	uint8_t type;			/* enum verify_type */
	uint8_t pad[3];
	uint32_t len;			/* of the chunk */
	uint32_t gen;			/* the chunk's write generation in this run */
	uint64_t offset;		/* of the chunk in its file */
	uint8_t csum[CHECKSUM_MAX];
};

struct backlog_entry {
	struct io_file *file;
	uint64_t off;
	uint32_t len;
};

struct verify {
	enum checksum_type csum;
	bool pattern_only;		/* verify=pattern: no header, every byte checked */
	uint32_t interval;
	uint32_t **gen;			/* per file, per chunk: last generation written */
	uint16_t **busy;		/* per file, per chunk: writes in flight (iodepth > 1) */
	uint32_t **issued;		/* per file, per chunk: the last write's generation */
	uint32_t *read_snap;		/* per request slot: its file's next_gen at a read */
	uint32_t *next_gen;		/* per file */
	/* verify_backlog: completed writes wait here; every N of them are read back */
	struct backlog_entry *ring;
	uint64_t cap, head, tail;	/* head: next to read back; tail: next free */
	uint64_t backlog, drain_left;
	bool pass;			/* reading everything back */
	unsigned pass_file;
	uint64_t pass_chunk;
	uint64_t failures;
};

static enum checksum_type csum_of(int verify)
{
	switch (verify) {
	case VERIFY_MD5:
		return CSUM_MD5;
	case VERIFY_SHA256:
		return CSUM_SHA256;
	case VERIFY_XXHASH:
		return CSUM_XXHASH;
	default:
		return CSUM_CRC32C;
	}
}

static uint64_t nchunks(const struct verify *v, const struct io_file *f)
{
	return f->io_len / v->interval;
}

int verify_init(struct worker *w)
{
	const struct job_desc *j = w->job;
	struct verify *v;

	if (j->verify == VERIFY_NONE)
		return 0;
	v = calloc(1, sizeof(*v));
	if (!v)
		goto nomem;
	w->verify = v;
	v->csum = csum_of(j->verify);
	v->pattern_only = j->verify == VERIFY_PATTERN;
	v->interval = (uint32_t)j->verify_interval;
	v->gen = calloc(w->nfiles, sizeof(*v->gen));
	v->busy = calloc(w->nfiles, sizeof(*v->busy));
	v->issued = calloc(w->nfiles, sizeof(*v->issued));
	v->next_gen = calloc(w->nfiles, sizeof(*v->next_gen));
	v->read_snap = calloc(j->iodepth, sizeof(*v->read_snap));
	if (!v->gen || !v->busy || !v->issued || !v->next_gen || !v->read_snap)
		goto nomem;
	/*
	 * Generations are kept only for what this run writes: 4 bytes per chunk, and 6 more
	 * with iodepth > 1, where writes and reads of one chunk can be in flight at once.
	 */
	for (unsigned i = 0; rw_does(j->rw, IO_WRITE) && !j->verify_only && i < w->nfiles; i++) {
		uint64_t n = nchunks(v, &w->files[i]) + 1;
		bool racy = j->iodepth > 1 && !v->pattern_only;

		v->gen[i] = calloc(n, sizeof(*v->gen[i]));
		if (racy) {
			v->busy[i] = calloc(n, sizeof(*v->busy[i]));
			v->issued[i] = calloc(n, sizeof(*v->issued[i]));
		}
		if (!v->gen[i] || (racy && (!v->busy[i] || !v->issued[i])))
			goto nomem;
	}
	if (j->verify_backlog && rw_does(j->rw, IO_WRITE)) {
		/* Writes complete while a batch is read back: room for those too. */
		v->backlog = j->verify_backlog;
		v->cap = 2 * v->backlog + j->iodepth;
		v->ring = calloc(v->cap, sizeof(*v->ring));
		if (!v->ring)
			goto nomem;
	}
	v->pass = j->verify_only;
	return 0;

nomem:
	snprintf(w->error_msg, sizeof(w->error_msg), "job '%s': no memory to track what to "
		 "verify", j->name);
	verify_free(w);
	return -ENOMEM;
}

void verify_free(struct worker *w)
{
	struct verify *v = w->verify;

	if (!v)
		return;
	for (unsigned i = 0; v->gen && i < w->nfiles; i++)
		free(v->gen[i]);
	for (unsigned i = 0; v->busy && i < w->nfiles; i++)
		free(v->busy[i]);
	for (unsigned i = 0; v->issued && i < w->nfiles; i++)
		free(v->issued[i]);
	free(v->issued);
	free(v->read_snap);
	free(v->gen);
	free(v->busy);
	free(v->next_gen);
	free(v->ring);
	free(v);
	w->verify = NULL;
}

static unsigned file_index(const struct worker *w, const struct io_file *f)
{
	return (unsigned)(f - w->files);
}

/* The pattern, starting afresh at buf (each chunk's start: a chunk checks on its own). */
static void fill_pattern(const struct job_desc *j, unsigned char *buf, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		buf[i] = j->verify_pattern[i % j->verify_pattern_len];
}

static void chunk_checksum(const struct verify *v, unsigned char *chunk, uint8_t *out)
{
	struct vhdr *h = (struct vhdr *)chunk;
	uint8_t saved[CHECKSUM_MAX];

	memcpy(saved, h->csum, sizeof(saved));
	memset(h->csum, 0, sizeof(h->csum));
	checksum(v->csum, chunk, h->len <= v->interval ? h->len : v->interval, out);
	memcpy(h->csum, saved, sizeof(saved));
}

/*
 * Two writes to one chunk in flight together may reach the medium in either order,
 * whatever order they complete in: until the chunk is written again on its own, any
 * generation of it is right (its header, offset and checksum are still checked).
 */
static void write_issued(uint16_t *busy)
{
	if (*busy & BUSY_COUNT)
		*busy |= BUSY_OVERLAP;
	if ((*busy & BUSY_COUNT) < BUSY_COUNT)
		(*busy)++;
}

static uint32_t write_completed(uint16_t *busy, uint32_t gen)
{
	if (*busy & BUSY_OVERLAP)
		gen = GEN_ANY;
	if ((*busy & BUSY_COUNT) && (*busy & BUSY_COUNT) < BUSY_COUNT)
		(*busy)--;
	if (!(*busy & BUSY_COUNT))
		*busy = 0;
	return gen;
}

void verify_prepare_write(struct worker *w, struct io_req *r)
{
	const struct job_desc *j = w->job;
	struct verify *v = w->verify;
	unsigned fi = file_index(w, r->file);

	/* A read may have left other data in this slot's buffer: the pattern comes first. */
	for (uint32_t at = 0; j->verify_pattern_len && at + v->interval <= r->len;
	     at += v->interval)
		fill_pattern(j, r->buf + at, v->interval);
	if (v->pattern_only)
		return;
	for (uint32_t at = 0; at + v->interval <= r->len; at += v->interval) {
		struct vhdr h = {
			.magic = VERIFY_MAGIC,
			.type = (uint8_t)j->verify,
			.len = v->interval,
			.gen = ++v->next_gen[fi],
			.offset = r->off + at,
		};

		memcpy(r->buf + at, &h, sizeof(h));
		chunk_checksum(v, r->buf + at, h.csum);
		memcpy(r->buf + at + offsetof(struct vhdr, csum), h.csum, sizeof(h.csum));
		if (v->busy[fi]) {
			uint64_t c = (r->off + at - r->file->io_off) / v->interval;

			write_issued(&v->busy[fi][c]);
			v->issued[fi][c] = h.gen;
		}
	}
}

static void dump_chunk(const struct worker *w, const struct io_file *f, uint64_t off,
		       const unsigned char *got, uint32_t len)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s.%" PRIu64 ".received", f->path, off);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, got, len) != (ssize_t)len)
			(void)0;	/* a dump is a courtesy: the failure is reported anyway */
		close(fd);
	}
	if (!w->verify->pattern_only || !w->job->verify_pattern_len)
		return;
	snprintf(path, sizeof(path), "%s.%" PRIu64 ".expected", f->path, off);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		unsigned char *want = malloc(len);

		if (want) {
			fill_pattern(w->job, want, len);
			if (write(fd, want, len) != (ssize_t)len)
				(void)0;
			free(want);
		}
		close(fd);
	}
}

/* A bad chunk: the first one names the job's failure; verify_fatal stops at once. */
static void bad_chunk(struct worker *w, const struct io_req *r, uint64_t off,
		      const unsigned char *got, const char *what)
{
	struct verify *v = w->verify;

	if (w->job->verify_dump)
		dump_chunk(w, r->file, off, got, v->interval);
	if (!v->failures++)
		snprintf(w->verify_msg, sizeof(w->verify_msg), "verify failed in '%s' at offset %"
			 PRIu64 " (chunk of %u bytes): %s", r->file->path, off, v->interval, what);
	if (w->job->verify_fatal)
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
}

static void hex(char *out, const uint8_t *d, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void check_pattern(struct worker *w, const struct io_req *r, uint64_t off,
			  const unsigned char *c, uint32_t skip)
{
	const struct job_desc *j = w->job;
	char what[160];

	for (uint32_t i = skip; i < w->verify->interval; i++) {
		unsigned char want = j->verify_pattern[i % j->verify_pattern_len];

		if (c[i] != want) {
			snprintf(what, sizeof(what), "byte %u is 0x%02x, the pattern has 0x%02x", i,
				 c[i], want);
			bad_chunk(w, r, off, c, what);
			return;
		}
	}
}

static void check_chunk(struct worker *w, const struct io_req *r, uint64_t off,
			const unsigned char *c)
{
	struct verify *v = w->verify;
	unsigned fi = file_index(w, r->file);
	const struct vhdr *h = (const struct vhdr *)c;
	uint8_t sum[CHECKSUM_MAX];
	char what[256], want[2 * CHECKSUM_MAX + 1], got[2 * CHECKSUM_MAX + 1];
	uint64_t c_idx = (off - r->file->io_off) / v->interval;
	uint32_t expect_gen = v->gen[fi] ? v->gen[fi][c_idx] : 0;
	const uint16_t *busy = v->busy[fi] ? &v->busy[fi][c_idx] : NULL;
	unsigned n = checksum_size(v->csum);

	if (v->pattern_only)
		return check_pattern(w, r, off, c, 0);
	/* A write to it in flight, or issued while the read was: the read may see either. */
	if (busy && (*busy || v->issued[fi][c_idx] > v->read_snap[r->slot]))
		return;
	if (h->magic != VERIFY_MAGIC || h->len != v->interval) {
		snprintf(what, sizeof(what), "no verify header (magic 0x%08x, expected 0x%08x): "
			 "never written, or overwritten by something else", h->magic, VERIFY_MAGIC);
		return bad_chunk(w, r, off, c, what);
	}
	if (h->offset != off) {
		snprintf(what, sizeof(what), "the header says offset %" PRIu64 ": a misdirected "
			 "write", h->offset);
		return bad_chunk(w, r, off, c, what);
	}
	chunk_checksum(v, (unsigned char *)c, sum);
	if (memcmp(sum, h->csum, n)) {
		hex(want, h->csum, n);
		hex(got, sum, n);
		snprintf(what, sizeof(what), "checksum %s in the header, %s computed over the data",
			 want, got);
		return bad_chunk(w, r, off, c, what);
	}
	if (expect_gen && expect_gen != GEN_ANY && h->gen != expect_gen) {
		snprintf(what, sizeof(what), "generation %u, expected %u: an older write (lost or "
			 "reordered)", h->gen, expect_gen);
		return bad_chunk(w, r, off, c, what);
	}
	if (w->job->verify_pattern_len)
		check_pattern(w, r, off, c, sizeof(struct vhdr));
}

static void remember_write(struct worker *w, const struct io_req *r)
{
	struct verify *v = w->verify;
	unsigned fi = file_index(w, r->file);
	uint64_t first = r->off - (r->full_len - r->len);

	/* The block holds what completed last: record each chunk's generation from it. */
	if (v->gen[fi] && !v->pattern_only) {
		for (uint32_t at = 0; at + v->interval <= r->full_len; at += v->interval) {
			const struct vhdr *h = (const struct vhdr *)(r->buf_base + at);
			uint64_t c = (first + at - r->file->io_off) / v->interval;

			v->gen[fi][c] = v->busy[fi] ? write_completed(&v->busy[fi][c], h->gen) :
				      h->gen;
		}
	} else if (v->gen[fi]) {
		for (uint32_t at = 0; at + v->interval <= r->full_len; at += v->interval)
			v->gen[fi][(first + at - r->file->io_off) / v->interval] = 1;
	}
	if (v->ring && v->tail - v->head < v->cap)
		v->ring[v->tail++ % v->cap] = (struct backlog_entry){ r->file, first, r->full_len };
}

void verify_done(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;
	uint64_t first = r->off - (r->full_len - r->len);

	if (r->dir == IO_WRITE) {
		remember_write(w, r);
		return;
	}
	if (r->dir != IO_READ)
		return;
	for (uint32_t at = 0; at + v->interval <= r->full_len; at += v->interval)
		check_chunk(w, r, first + at, r->buf_base + at);
}

static void fill_read(struct worker *w, struct io_req *r, struct io_file *f, uint64_t off,
		      uint32_t len)
{
	w->verify->read_snap[r->slot] = w->verify->next_gen[file_index(w, f)];
	r->file = f;
	r->dir = IO_READ;
	r->off = off;
	r->len = r->full_len = len;
	r->buf = r->buf_base;
	r->resubmit = false;
	w->st->issued[IO_READ]++;
}

/* The next chunk of the pass: every chunk written in this run, or all with verify_only. */
static bool next_pass_chunk(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;

	for (; v->pass_file < w->nfiles; v->pass_file++, v->pass_chunk = 0) {
		struct io_file *f = &w->files[v->pass_file];
		uint32_t *gen = v->gen[v->pass_file];

		while (v->pass_chunk < nchunks(v, f)) {
			uint64_t c = v->pass_chunk++;

			if (gen && !gen[c])
				continue;
			fill_read(w, r, f, f->io_off + c * v->interval, v->interval);
			return true;
		}
	}
	return false;
}

enum verify_plan_result verify_plan(struct worker *w, struct io_req *r)
{
	struct verify *v = w->verify;

	if (v->pass)
		return next_pass_chunk(w, r) ? VP_READ : VP_END;
	if (v->ring && !v->drain_left && v->tail - v->head >= v->backlog)
		v->drain_left = v->backlog;	/* N writes done: read them back before more */
	if (v->drain_left) {
		struct backlog_entry *e = &v->ring[v->head++ % v->cap];

		v->drain_left--;
		fill_read(w, r, e->file, e->off, e->len);
		return VP_READ;
	}
	return VP_NONE;
}

bool verify_pass_wanted(const struct worker *w)
{
	const struct job_desc *j = w->job;

	return w->verify && j->do_verify && !j->verify_only && rw_does(j->rw, IO_WRITE) &&
	       !w->error;
}

void verify_start_pass(struct worker *w)
{
	w->verify->pass = true;
	w->verify->pass_file = 0;
	w->verify->pass_chunk = 0;
}

static const char *const verify_names[] = {
	[VERIFY_CRC32C] = "crc32c", [VERIFY_MD5] = "md5", [VERIFY_SHA256] = "sha256",
	[VERIFY_XXHASH] = "xxhash", [VERIFY_PATTERN] = "pattern",
};

/*
 * fio's name for job INDEX's state file, in --aux-path or the cwd; a '/' in the job's name
 * becomes '_'.
 */
static int state_path(char path[PATH_MAX], const struct worker *w, unsigned index)
{
	const char *dir = w->aux_path ? w->aux_path : "";
	size_t at = strlen(dir) + (*dir != '\0');

	if ((size_t)snprintf(path, PATH_MAX, "%s%slocal-%s-%u-verify.state", dir,
			     *dir ? "/" : "", w->job->name, index) >= PATH_MAX)
		return -ENAMETOOLONG;
	for (char *p = path + at; *p; p++)
		if (*p == '/')
			*p = '_';
	return 0;
}

int verify_save_state(struct worker *w, unsigned index)
{
	const struct job_desc *j = w->job;
	const struct verify *v = w->verify;
	char path[PATH_MAX];
	FILE *f;
	int err;

	/* v->gen[] is kept only by jobs that write what they verify */
	if (!v || !j->verify_state_save || !rw_does(j->rw, IO_WRITE) || j->verify_only)
		return 0;
	if (state_path(path, w, index) < 0)
		return 0;
	f = fopen(path, "w");
	if (!f)
		goto fail;
	fprintf(f, "iojob verify state 1\njob %s\nverify %s interval %" PRIu32 "\n", j->name,
		verify_names[j->verify], v->interval);
	for (unsigned i = 0; i < w->nfiles; i++) {
		uint64_t n = nchunks(v, &w->files[i]), written = 0;
		const char *sep = " ";

		for (uint64_t k = 0; k < n; k++)
			written += v->gen[i][k] != 0;
		fprintf(f, "file %s offset %" PRIu64 " length %" PRIu64 " chunks %" PRIu64
			" written %" PRIu64 "\nranges", w->files[i].path, w->files[i].io_off,
			w->files[i].io_len, n, written);
		/* the written chunks as runs FIRST-LAST, which verify_state_load reads back */
		for (uint64_t k = 0; k < n; k++) {
			uint64_t last = k;

			if (!v->gen[i][k])
				continue;
			while (last + 1 < n && v->gen[i][last + 1])
				last++;
			fprintf(f, "%s%" PRIu64 "-%" PRIu64, sep, k, last);
			sep = ",";
			k = last;
		}
		fputc('\n', f);
	}
	if (fclose(f) == 0)
		return 0;
fail:
	err = errno;
	worker_fail(w, err, "verify_state_save: '%s': %s", path, strerror(err));
	return -err;
}

/* Mark chunks FIRST-LAST of each run in text as written (any generation), in gen[0..n). */
static int load_ranges(const char *text, uint32_t *gen, uint64_t n)
{
	const char *p = text;

	while (*p) {
		char *end;
		uint64_t first, last;

		while (*p == ' ' || *p == ',')
			p++;
		if (!*p || *p == '\n')
			return 0;
		errno = 0;
		first = strtoull(p, &end, 10);
		if (end == p || *end != '-')
			return -EINVAL;
		p = end + 1;
		last = strtoull(p, &end, 10);
		if (end == p || errno || first > last || last >= n)
			return -EINVAL;
		for (uint64_t k = first; k <= last; k++)
			gen[k] = GEN_ANY;
		p = end;
	}
	return 0;
}

/* Read file i's two lines of the state file and mark what the earlier run wrote. */
static int load_file_state(struct worker *w, FILE *f, unsigned i, const char **why)
{
	struct verify *v = w->verify;
	const struct io_file *file = &w->files[i];
	char *line = NULL, want[PATH_MAX + 64];
	size_t cap = 0;
	uint64_t n = nchunks(v, file);
	int ret = -EINVAL;

	snprintf(want, sizeof(want), "file %s offset %" PRIu64 " length %" PRIu64 " chunks %"
		 PRIu64 " ", file->path, file->io_off, file->io_len, n);
	*why = "it names other files or regions than this job's";
	if (getline(&line, &cap, f) < 0 || strncmp(line, want, strlen(want)))
		goto out;
	*why = "a list of written chunks is missing or bad";
	v->gen[i] = calloc(n + 1, sizeof(*v->gen[i]));
	if (!v->gen[i]) {
		ret = -ENOMEM;
		*why = "no memory";
		goto out;
	}
	if (getline(&line, &cap, f) < 0 || strncmp(line, "ranges", 6))
		goto out;
	ret = load_ranges(line + 6, v->gen[i], n);
out:
	free(line);
	return ret;
}

int verify_load_state(struct worker *w, unsigned index)
{
	const struct job_desc *j = w->job;
	struct verify *v = w->verify;
	char path[PATH_MAX], head[512], *line = NULL;
	const char *why = "it is not iojob's verify state for this job";
	size_t cap = 0;
	FILE *f;
	int ret = -EINVAL;

	if (!v || !j->verify_state_load)
		return 0;
	if (state_path(path, w, index) < 0) {
		worker_fail(w, ENAMETOOLONG, "verify_state_load: the job's name is too long");
		return -ENAMETOOLONG;
	}
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		worker_fail(w, -ret, "verify_state_load: '%s': %s", path, strerror(-ret));
		return ret;
	}
	snprintf(head, sizeof(head), "iojob verify state 1\njob %s\nverify %s interval %" PRIu32
		 "\n", j->name, verify_names[j->verify], v->interval);
	for (const char *h = head; *h; h = strchr(h, '\n') + 1)
		if (getline(&line, &cap, f) < 0 ||
		    strncmp(line, h, (size_t)(strchr(h, '\n') - h + 1)))
			goto out;
	ret = 0;
	for (unsigned i = 0; !ret && i < w->nfiles; i++)
		ret = load_file_state(w, f, i, &why);
out:
	free(line);
	fclose(f);
	if (ret < 0)
		worker_fail(w, -ret, "verify_state_load: '%s': %s", path, why);
	return ret;
}

void verify_finish(struct worker *w)
{
	struct verify *v = w->verify;

	if (!v || !v->failures || w->error)
		return;
	if (v->failures == 1)
		worker_fail(w, EILSEQ, "%s", w->verify_msg);
	else
		worker_fail(w, EILSEQ, "%s (%" PRIu64 " bad chunks in all)", w->verify_msg,
			    v->failures);
}
