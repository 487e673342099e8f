/* Log files in fio's formats: entries in chunks, and each chunk as fio's text or zlib. */
#include "output/joblog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

/* ioprio(2)'s class of a priority value, and the real-time class fio's 0/1 column shows. */
#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_CLASS_RT		1

/* The ddir word of fio's sample carries flags: the sample has an offset, a raw priority. */
#define SAMPLE_OFFSET_BIT	0x80000000u
#define SAMPLE_PRIO_BIT		0x40000000u

/* A compressed log is inflated a stream at a time into a buffer grown by this much. */
#define INFLATE_STEP	(1u << 20)

void joblog_init(struct joblog *l, unsigned first_cap, unsigned max_cap)
{
	l->first_cap = l->next_cap = first_cap ? first_cap : 1;
	l->max_cap = max_cap && max_cap < JOBLOG_ENTRIES_MAX ? max_cap : JOBLOG_ENTRIES_MAX;
}

bool joblog_grow(struct joblog *l)
{
	unsigned cap = l->next_cap < l->max_cap ? l->next_cap : l->max_cap;
	struct joblog_chunk *c;

	if (!cap)	/* never sized: fio's default */
		joblog_init(l, 1024, 0), cap = l->next_cap;
	if (l->full && l->last && l->last->n == l->last->cap) {
		struct joblog_chunk *done = l->last;

		l->first = l->last = NULL;	/* the log holds one chunk at a time */
		l->full(l, done, l->full_ctx);
	}
	c = malloc(sizeof(*c) + (size_t)cap * sizeof(c->e[0]));
	if (!c)
		return false;
	c->next = NULL;
	c->n = 0;
	c->cap = cap;
	if (l->last)
		l->last->next = c;
	else
		l->first = c;
	l->last = c;
	/* fio doubles each chunk it adds, up to its largest */
	l->next_cap = cap > l->max_cap / 2 ? l->max_cap : cap * 2;
	return true;
}

static void put_u64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* One entry as fio 3.33's struct io_sample (host byte order, as fio writes it). */
static void put_sample(uint8_t *p, const struct joblog_entry *e, unsigned flags)
{
	uint32_t ddir = e->ddir | (flags & JOBLOG_OFFSET ? SAMPLE_OFFSET_BIT : 0) |
			(flags & JOBLOG_PRIO ? SAMPLE_PRIO_BIT : 0);

	memset(p, 0, JOBLOG_SAMPLE_BYTES);
	put_u64(p, e->time_ms);
	put_u64(p + 8, e->value);
	memcpy(p + 16, &ddir, sizeof(ddir));
	memcpy(p + 20, &e->ioprio, sizeof(e->ioprio));
	put_u64(p + 24, e->bs);
	if (flags & JOBLOG_OFFSET)
		put_u64(p + 32, e->offset);
}

/*
 * One zlib stream of the chunk's samples, at zlib's default level as fio's gz_work makes
 * them, written to f.
 */
static int put_deflated(FILE *f, const struct joblog_chunk *c, unsigned flags)
{
	size_t size = flags & JOBLOG_OFFSET ? JOBLOG_SAMPLE_OFFSET_BYTES : JOBLOG_SAMPLE_BYTES;
	size_t raw_len = (size_t)c->n * size;
	uLongf zlen = compressBound((uLong)raw_len);
	uint8_t *raw = malloc(raw_len), *z = malloc(zlen);
	int ret = -ENOMEM;

	if (!raw || !z)
		goto out;
	for (unsigned i = 0; i < c->n; i++)
		put_sample(raw + i * size, &c->e[i], flags);
	if (compress2(z, &zlen, raw, (uLong)raw_len, Z_DEFAULT_COMPRESSION) != Z_OK)
		goto out;
	errno = 0;
	ret = fwrite(z, 1, zlen, f) == zlen && !ferror(f) ? 0 : errno ? -errno : -EIO;
out:
	free(raw);
	free(z);
	return ret;
}

/* v in decimal at p; returns the end. Two digits at a time: a log line holds five. */
static char *put_dec(char *p, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char tmp[20], *t = tmp + sizeof(tmp);
	size_t n;

	while (v >= 100) {
		t -= 2;
		memcpy(t, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		t -= 2;
		memcpy(t, pairs + 2 * v, 2);
	} else {
		*--t = (char)('0' + v);
	}
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

static char *put_field(char *p, uint64_t v)
{
	p = put_dec(p, v);
	*p++ = ',';
	*p++ = ' ';
	return p;
}

/* One line, "time, value, [value1, ]ddir, bs, [offset, ]prio[, issue]\n"; returns its end. */
static char *format_line(char *p, const struct joblog_entry *e, unsigned flags)
{
	static const char hex[] = "0123456789abcdef";

	p = put_field(p, e->time_ms);
	p = put_field(p, e->value);
	if (flags & JOBLOG_BOTH)
		p = put_field(p, flags & JOBLOG_WINDOWS ? e->aux : 0);
	p = put_field(p, e->ddir);
	p = put_field(p, e->bs);
	if (flags & JOBLOG_OFFSET)
		p = put_field(p, e->offset);
	/* fio 3.33's last column: the raw priority with log_prio, else whether it is RT */
	if (flags & JOBLOG_PRIO) {
		*p++ = '0';
		*p++ = 'x';
		for (int shift = 12; shift >= 0; shift -= 4)
			*p++ = hex[e->ioprio >> shift & 0xf];
	} else {
		*p++ = (e->ioprio >> IOPRIO_CLASS_SHIFT) == IOPRIO_CLASS_RT ? '1' : '0';
	}
	if (flags & JOBLOG_ISSUE) {
		*p++ = ',';
		*p++ = ' ';
		p = put_dec(p, flags & JOBLOG_WINDOWS ? 0 : e->aux);
	}
	*p++ = '\n';
	return p;
}

/* Lines are formatted into a block this large, then written at once. */
#define LINE_MAX_BYTES	160	/* six 20-digit fields and the rest */
#define TEXT_BLOCK	(64u << 10)

static int put_text(FILE *f, const struct joblog_entry *e, size_t n, unsigned flags)
{
	char buf[TEXT_BLOCK], *p = buf;

	for (size_t i = 0; i < n; i++) {
		p = format_line(p, &e[i], flags);
		if ((size_t)(buf + sizeof(buf) - p) < LINE_MAX_BYTES || i + 1 == n) {
			errno = 0;
			/*
			 * The reason (ENOSPC, EDQUOT) is errno now: glibc may count a write
			 * that failed as done, and keep only the stream's error flag.
			 */
			if (fwrite(buf, 1, (size_t)(p - buf), f) != (size_t)(p - buf) ||
			    ferror(f))
				return errno ? -errno : -EIO;
			p = buf;
		}
	}
	return 0;
}

int joblog_put_chunk(FILE *f, const struct joblog_chunk *c, unsigned flags, bool deflated)
{
	if (!c->n)
		return 0;	/* nothing logged: no stream, as fio */
	return deflated ? put_deflated(f, c, flags) : put_text(f, c->e, c->n, flags);
}

int joblog_write(FILE *f, const struct joblog *l, unsigned flags, bool deflated)
{
	int ret = 0;

	for (const struct joblog_chunk *c = l->first; c && !ret; c = c->next)
		ret = joblog_put_chunk(f, c, flags, deflated);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

/* One inflated stream's samples as fio prints them, in the form of its first sample. */
static void put_samples(FILE *f, const uint8_t *p, size_t len)
{
	struct joblog_entry e;
	uint32_t ddir;
	unsigned flags;
	size_t size;

	if (len < JOBLOG_SAMPLE_BYTES)
		return;
	memcpy(&ddir, p + 16, sizeof(ddir));
	flags = (ddir & SAMPLE_OFFSET_BIT ? JOBLOG_OFFSET : 0) |
		(ddir & SAMPLE_PRIO_BIT ? JOBLOG_PRIO : 0);
	size = flags & JOBLOG_OFFSET ? JOBLOG_SAMPLE_OFFSET_BYTES : JOBLOG_SAMPLE_BYTES;
	for (; len >= size; p += size, len -= size) {
		memcpy(&ddir, p + 16, sizeof(ddir));
		memcpy(&e.ioprio, p + 20, sizeof(e.ioprio));
		e.time_ms = get_u64(p);
		e.value = get_u64(p + 8);
		e.ddir = (uint8_t)(ddir & ~(SAMPLE_OFFSET_BIT | SAMPLE_PRIO_BIT));
		e.bs = (uint32_t)get_u64(p + 24);
		e.offset = flags & JOBLOG_OFFSET ? get_u64(p + 32) : 0;
		put_text(f, &e, 1, flags);
	}
}

int joblog_inflate(FILE *f, const uint8_t *in, size_t len)
{
	uint8_t *out = NULL, *grown;
	size_t cap = 0;
	z_stream zs;
	int ret = Z_OK;

	while (len && ret >= 0) {
		memset(&zs, 0, sizeof(zs));
		if (inflateInit2(&zs, 15 + 32) != Z_OK)	/* +32: a zlib or a gzip header */
			return Z_MEM_ERROR;
		zs.next_in = (uint8_t *)in;
		zs.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;	/* a stream, not 4 GiB */
		do {
			if (zs.total_out == cap) {
				grown = realloc(out, cap + INFLATE_STEP);
				if (!grown) {
					ret = Z_MEM_ERROR;
					break;
				}
				out = grown;
				cap += INFLATE_STEP;
			}
			zs.next_out = out + zs.total_out;
			zs.avail_out = (uInt)(cap - zs.total_out);
			ret = inflate(&zs, Z_NO_FLUSH);
		} while (ret == Z_OK);
		if (ret == Z_STREAM_END) {
			put_samples(f, out, zs.total_out);
			ret = Z_OK;
		} else if (ret >= 0) {
			ret = Z_DATA_ERROR;	/* the data ends inside a stream */
		}
		len -= (size_t)(zs.next_in - in);
		in = zs.next_in;
		inflateEnd(&zs);
	}
	free(out);
	return ret;
}

int histlog_add(struct histlog *l, uint64_t time_ms, uint32_t ddir, uint32_t bs,
		const struct hist *now, struct hist *before)
{
	struct histlog_rec *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->time_ms = time_ms;
	r->ddir = ddir;
	r->bs = bs;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t d = now->count[i] - before->count[i];
		unsigned b = i < JOBLOG_FIO_BINS ? i : JOBLOG_FIO_BINS - 1;

		r->bins[b] += d;
	}
	memcpy(before, now, sizeof(*before));
	if (l->last)
		l->last->next = r;
	else
		l->first = r;
	l->last = r;
	return 0;
}

int histlog_write(FILE *f, const struct histlog *l)
{
	unsigned group = 1u << l->coarseness;

	for (const struct histlog_rec *r = l->first; r; r = r->next) {
		fprintf(f, "%" PRIu64 ", %u, %u", r->time_ms, r->ddir, r->bs);
		for (unsigned i = 0; i < JOBLOG_FIO_BINS; i += group) {
			uint64_t sum = 0;

			for (unsigned k = i; k < i + group && k < JOBLOG_FIO_BINS; k++)
				sum += r->bins[k];
			fprintf(f, ", %" PRIu64, sum);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

void joblog_free(struct joblog *l)
{
	struct joblog_chunk *c = l->first, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	l->first = l->last = NULL;
	l->next_cap = l->first_cap;
	l->lost = 0;
}

void histlog_free(struct histlog *l)
{
	struct histlog_rec *r = l->first, *next;

	for (; r; r = next) {
		next = r->next;
		free(r);
	}
	l->first = l->last = NULL;
}
