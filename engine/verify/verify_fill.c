/*
 * What a verify write carries, as fio fills it: new random bytes for every write, so that
 * no two blocks repeat (a drive that compresses or dedupes sees fio's load), or with
 * buffer_compress_percentage that share of the write as zeros or buffer_pattern after
 * the random part; verify_pattern's jobs write their pattern instead (verify.c).
 *
 * md5's digest is most of a verify write's cost and cannot be made faster for one
 * buffer, so its payloads are made and digested MD5_LANES at a time ahead of the writes
 * (md5_lanes.h), and each chunk written takes the next payload and its digest.
 */
#include "engine/verify/verify_priv.h"

#include <stdlib.h>
#include <string.h>

#include "engine/verify/md5_lanes.h"
#include "jobs/job.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* One step of the eight xorshift64 (13, 7, 17) lanes: 64 bytes at out. */
static inline void xorshift_step(uint64_t s[VFILL_LANES], unsigned char *out)
{
	for (int i = 0; i < VFILL_LANES; i++) {
		uint64_t x = s[i];

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		s[i] = x;
		memcpy(out + 8 * i, &x, 8);
	}
}

#if defined(__x86_64__)
/* The same steps four lanes to a register: the same bytes, a fraction of the time. */
__attribute__((target("avx2")))
static size_t xorshift_avx2(uint64_t s[VFILL_LANES], unsigned char *buf, size_t len)
{
	__m256i a = _mm256_loadu_si256((const __m256i *)s);
	__m256i b = _mm256_loadu_si256((const __m256i *)(s + 4));
	size_t done = 0;

	for (; done + 64 <= len; done += 64) {
		a = _mm256_xor_si256(a, _mm256_slli_epi64(a, 13));
		b = _mm256_xor_si256(b, _mm256_slli_epi64(b, 13));
		a = _mm256_xor_si256(a, _mm256_srli_epi64(a, 7));
		b = _mm256_xor_si256(b, _mm256_srli_epi64(b, 7));
		a = _mm256_xor_si256(a, _mm256_slli_epi64(a, 17));
		b = _mm256_xor_si256(b, _mm256_slli_epi64(b, 17));
		_mm256_storeu_si256((__m256i *)(buf + done), a);
		_mm256_storeu_si256((__m256i *)(buf + done + 32), b);
	}
	_mm256_storeu_si256((__m256i *)s, a);
	_mm256_storeu_si256((__m256i *)(s + 4), b);
	return done;
}
#endif

void vfill_random(uint64_t s[VFILL_LANES], unsigned char *buf, size_t len)
{
	unsigned char last[64];
	size_t done = 0;

#if defined(__x86_64__)
	if (cpu_has_avx2())
		done = xorshift_avx2(s, buf, len);
#endif
	for (; done + 64 <= len; done += 64)
		xorshift_step(s, buf + done);
	if (done < len) {
		xorshift_step(s, last);
		memcpy(buf + done, last, len - done);
	}
}

/* fio's rule: the first (100 - compress)% of the write random, the rest pattern or zeros. */
void vfill_buf(struct vfill *f, unsigned char *buf, uint32_t len)
{
	uint32_t rnd = (uint32_t)((uint64_t)len * f->random_pct / 100);

	vfill_random(f->s, buf, rnd);
	if (rnd == len)
		return;
	if (!f->pat_len) {
		memset(buf + rnd, 0, len - rnd);
		return;
	}
	for (uint32_t i = rnd; i < len; i += f->pat_len)
		memcpy(buf + i, f->pat, len - i < f->pat_len ? len - i : f->pat_len);
}

/* MD5_LANES new payloads and their digests. */
static void refill_pool(struct vfill *f)
{
	const unsigned char *p[MD5_LANES];

	vfill_random(f->s, f->pool, (size_t)f->payload * MD5_LANES);
	for (int l = 0; l < MD5_LANES; l++)
		p[l] = f->pool + (size_t)l * f->payload;
	md5_lanes(p, f->payload, f->sum);
	f->next = 0;
}

const uint8_t *vfill_take(struct vfill *f, unsigned char *dst)
{
	if (f->next == MD5_LANES)
		refill_pool(f);
	memcpy(dst, f->pool + (size_t)f->next * f->payload, f->payload);
	return f->sum[f->next++];
}

int vfill_init(struct vfill *f, const struct verify *v, const struct job_desc *j)
{
	struct rng r;

	memset(f, 0, sizeof(*f));
	/* fio fills every write of a method with a header; verify=null and patterns not */
	f->on = v->hlen && !v->patterned;
	if (!f->on)
		return 0;
	/* fio makes 100% compressible buffers zero_buffers, which verify's fill ignores */
	f->random_pct = j->compress_pct >= 100 ? 100 : 100 - j->compress_pct;
	f->pat = j->buffer_pattern;
	f->pat_len = j->buffer_pattern_len;
	rng_seed(&r, j->randseed ^ 0x7e51f111ULL ^ (uint64_t)j->index << 40);
	for (int i = 0; i < VFILL_LANES; i++)
		do
			f->s[i] = rng_next(&r);
		while (!f->s[i]);	/* xorshift stays at 0 */
	/* where md5 has whole random payloads and the lanes run in SIMD */
	f->payload = v->interval - v->hlen;
	if (v->csum != CSUM_MD5 || v->meta || f->random_pct != 100 || !md5_lanes_simd() ||
	    !f->payload || f->payload > VFILL_POOL_MAX)
		return 0;
	f->pool = malloc((size_t)f->payload * MD5_LANES);
	if (!f->pool)
		return -1;
	f->next = MD5_LANES;
	return 0;
}

void vfill_free(struct vfill *f)
{
	free(f->pool);
	f->pool = NULL;
}
