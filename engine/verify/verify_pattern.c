/*
 * verify_pattern's bytes as fio lays them over an I/O: the pattern runs on from the I/O's
 * start across its chunks (a chunk's header overwrites its first bytes), each %o holds
 * the I/O's offset (8 bytes, least significant first), and with verify_pattern_interval
 * the pattern starts afresh every N bytes of the I/O, its %o the offset there. A chunk is
 * written and checked by its place in its I/O, so that files verify in fio and back.
 */
#include "engine/verify/verify_pattern.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/jobs.h"

/* The pattern repeated over at least this much: a plain pattern copies in long runs. */
#define STREAM_MIN	(64u << 10)

int vpattern_init(struct vpattern *p, const struct job_desc *j)
{
	uint32_t reps;

	memset(p, 0, sizeof(*p));
	p->len = j->verify_pattern_len;
	p->every = j->verify_pattern_interval;
	p->fmt = j->verify_pattern_fmt;
	reps = (STREAM_MIN + p->len - 1) / p->len + 1;
	p->stream_len = reps * p->len;
	p->stream = malloc(p->stream_len);
	if (!p->stream)
		return -ENOMEM;
	for (uint32_t i = 0; i < p->stream_len; i++)
		p->stream[i] = j->verify_pattern[i % p->len];
	return 0;
}

void vpattern_free(struct vpattern *p)
{
	free(p->stream);
	p->stream = NULL;
}

/* The %o whose 8 bytes hold phase k, or the first after k (n when none). */
static unsigned fmt_at(const struct vpattern *p, uint32_t k)
{
	unsigned i = 0;

	while (i < p->fmt.n && p->fmt.pos[i] + 8 <= k)
		i++;
	return i;
}

/*
 * Walk the I/O's bytes [pos, pos + len) for an I/O at io_off: into dst when it is set,
 * else compared with src. Returns len, or the index of the first byte of src that
 * differs, with the pattern's byte in *want.
 */
static uint32_t walk(const struct vpattern *p, uint64_t io_off, uint64_t pos,
		     unsigned char *dst, const unsigned char *src, uint32_t len,
		     unsigned char *want)
{
	uint32_t done = 0;

	while (done < len) {
		uint64_t at = pos + done;
		uint64_t seg = p->every ? at - at % p->every : 0;
		uint64_t left = p->every ? seg + p->every - at : UINT64_MAX;
		uint64_t base = io_off + seg;
		uint32_t k = (uint32_t)((at - seg) % p->len), n = len - done, f;
		unsigned char b[8];
		const unsigned char *from;

		if (n > left)
			n = (uint32_t)left;
		f = fmt_at(p, k);
		if (f < p->fmt.n && p->fmt.pos[f] <= k) {
			/* inside a %o: the offset's bytes */
			for (int i = 0; i < 8; i++)
				b[i] = (unsigned char)(base >> (8 * i));
			from = b + (k - p->fmt.pos[f]);
			if (n > p->fmt.pos[f] + 8 - k)
				n = p->fmt.pos[f] + 8 - k;
		} else {
			/*
			 * Plain bytes, up to the next %o (the pattern's end, when its %o are
			 * behind: the next round has them) or, without any, a long run.
			 */
			uint32_t end = f < p->fmt.n ? p->fmt.pos[f] :
				       p->fmt.n ? p->len : p->stream_len;

			from = p->stream + k;
			if (n > end - k)
				n = end - k;
		}
		if (dst) {
			memcpy(dst + done, from, n);
		} else if (memcmp(src + done, from, n)) {
			for (uint32_t i = 0; i < n; i++) {
				if (src[done + i] != from[i]) {
					*want = from[i];
					return done + i;
				}
			}
		}
		done += n;
	}
	return len;
}

void vpattern_fill(const struct vpattern *p, uint64_t io_off, uint64_t pos,
		   unsigned char *buf, uint32_t len)
{
	walk(p, io_off, pos, buf, NULL, len, NULL);
}

uint32_t vpattern_check(const struct vpattern *p, uint64_t io_off, uint64_t pos,
			const unsigned char *buf, uint32_t len, unsigned char *want)
{
	return walk(p, io_off, pos, NULL, buf, len, want);
}
