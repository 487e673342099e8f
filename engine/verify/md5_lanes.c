/*
 * Eight MD5 digests at once (md5_lanes.h): the RFC 1321 steps on eight 32-bit lanes of
 * AVX2 registers, each lane one buffer. The buffers' words are loaded eight lanes by eight
 * words and transposed so that a register holds the same word of every buffer.
 */
#include "engine/verify/md5_lanes.h"

#include <string.h>

#include "engine/verify/checksum.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define V		__m256i
#define ADD(x, y)	_mm256_add_epi32(x, y)
#define XOR(x, y)	_mm256_xor_si256(x, y)
#define AND(x, y)	_mm256_and_si256(x, y)
#define OR(x, y)	_mm256_or_si256(x, y)
#define ROTL(x, s)	OR(_mm256_slli_epi32(x, s), _mm256_srli_epi32(x, 32 - (s)))

/* RFC 1321's four functions, each written with one operation fewer where it can be. */
#define F(b, c, d)	XOR(d, AND(b, XOR(c, d)))
#define G(b, c, d)	XOR(c, AND(d, XOR(b, c)))
#define H(b, c, d)	XOR(XOR(b, c), d)
#define I(b, c, d)	XOR(c, OR(b, XOR(d, _mm256_set1_epi32(-1))))

#define STEP(f, a, b, c, d, w, k, s) do {					\
		a = ADD(a, ADD(f(b, c, d), ADD(w, _mm256_set1_epi32((int)(k)))));	\
		a = ADD(ROTL(a, s), b);						\
	} while (0)

/* r[i] holds words 0-7 of lane i; afterwards r[j] holds word j of lanes 0-7. */
__attribute__((target("avx2")))
static void transpose8(V r[8])
{
	V t[8], u[8];

	for (int i = 0; i < 8; i += 2) {
		t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
		t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
	}
	for (int i = 0; i < 8; i += 4) {
		u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
		u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
		u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
		u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
	}
	for (int j = 0; j < 4; j++) {
		r[j] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x20);
		r[j + 4] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x31);
	}
}

/* Run the 64-byte blocks p[lane] + 64 * k, k < n, of every lane through the state st. */
__attribute__((target("avx2")))
static void md5_blocks(V st[4], const unsigned char *const p[MD5_LANES], size_t n)
{
	for (size_t k = 0; k < n; k++) {
		V m[16], a = st[0], b = st[1], c = st[2], d = st[3];

		for (int l = 0; l < MD5_LANES; l++) {
			m[l] = _mm256_loadu_si256((const V *)(p[l] + 64 * k));
			m[l + 8] = _mm256_loadu_si256((const V *)(p[l] + 64 * k + 32));
		}
		transpose8(m);
		transpose8(m + 8);
	STEP(F, a, b, c, d, m[ 0], 0xd76aa478,  7);
	STEP(F, d, a, b, c, m[ 1], 0xe8c7b756, 12);
	STEP(F, c, d, a, b, m[ 2], 0x242070db, 17);
	STEP(F, b, c, d, a, m[ 3], 0xc1bdceee, 22);
	STEP(F, a, b, c, d, m[ 4], 0xf57c0faf,  7);
	STEP(F, d, a, b, c, m[ 5], 0x4787c62a, 12);
	STEP(F, c, d, a, b, m[ 6], 0xa8304613, 17);
	STEP(F, b, c, d, a, m[ 7], 0xfd469501, 22);
	STEP(F, a, b, c, d, m[ 8], 0x698098d8,  7);
	STEP(F, d, a, b, c, m[ 9], 0x8b44f7af, 12);
	STEP(F, c, d, a, b, m[10], 0xffff5bb1, 17);
	STEP(F, b, c, d, a, m[11], 0x895cd7be, 22);
	STEP(F, a, b, c, d, m[12], 0x6b901122,  7);
	STEP(F, d, a, b, c, m[13], 0xfd987193, 12);
	STEP(F, c, d, a, b, m[14], 0xa679438e, 17);
	STEP(F, b, c, d, a, m[15], 0x49b40821, 22);
	STEP(G, a, b, c, d, m[ 1], 0xf61e2562,  5);
	STEP(G, d, a, b, c, m[ 6], 0xc040b340,  9);
	STEP(G, c, d, a, b, m[11], 0x265e5a51, 14);
	STEP(G, b, c, d, a, m[ 0], 0xe9b6c7aa, 20);
	STEP(G, a, b, c, d, m[ 5], 0xd62f105d,  5);
	STEP(G, d, a, b, c, m[10], 0x02441453,  9);
	STEP(G, c, d, a, b, m[15], 0xd8a1e681, 14);
	STEP(G, b, c, d, a, m[ 4], 0xe7d3fbc8, 20);
	STEP(G, a, b, c, d, m[ 9], 0x21e1cde6,  5);
	STEP(G, d, a, b, c, m[14], 0xc33707d6,  9);
	STEP(G, c, d, a, b, m[ 3], 0xf4d50d87, 14);
	STEP(G, b, c, d, a, m[ 8], 0x455a14ed, 20);
	STEP(G, a, b, c, d, m[13], 0xa9e3e905,  5);
	STEP(G, d, a, b, c, m[ 2], 0xfcefa3f8,  9);
	STEP(G, c, d, a, b, m[ 7], 0x676f02d9, 14);
	STEP(G, b, c, d, a, m[12], 0x8d2a4c8a, 20);
	STEP(H, a, b, c, d, m[ 5], 0xfffa3942,  4);
	STEP(H, d, a, b, c, m[ 8], 0x8771f681, 11);
	STEP(H, c, d, a, b, m[11], 0x6d9d6122, 16);
	STEP(H, b, c, d, a, m[14], 0xfde5380c, 23);
	STEP(H, a, b, c, d, m[ 1], 0xa4beea44,  4);
	STEP(H, d, a, b, c, m[ 4], 0x4bdecfa9, 11);
	STEP(H, c, d, a, b, m[ 7], 0xf6bb4b60, 16);
	STEP(H, b, c, d, a, m[10], 0xbebfbc70, 23);
	STEP(H, a, b, c, d, m[13], 0x289b7ec6,  4);
	STEP(H, d, a, b, c, m[ 0], 0xeaa127fa, 11);
	STEP(H, c, d, a, b, m[ 3], 0xd4ef3085, 16);
	STEP(H, b, c, d, a, m[ 6], 0x04881d05, 23);
	STEP(H, a, b, c, d, m[ 9], 0xd9d4d039,  4);
	STEP(H, d, a, b, c, m[12], 0xe6db99e5, 11);
	STEP(H, c, d, a, b, m[15], 0x1fa27cf8, 16);
	STEP(H, b, c, d, a, m[ 2], 0xc4ac5665, 23);
	STEP(I, a, b, c, d, m[ 0], 0xf4292244,  6);
	STEP(I, d, a, b, c, m[ 7], 0x432aff97, 10);
	STEP(I, c, d, a, b, m[14], 0xab9423a7, 15);
	STEP(I, b, c, d, a, m[ 5], 0xfc93a039, 21);
	STEP(I, a, b, c, d, m[12], 0x655b59c3,  6);
	STEP(I, d, a, b, c, m[ 3], 0x8f0ccc92, 10);
	STEP(I, c, d, a, b, m[10], 0xffeff47d, 15);
	STEP(I, b, c, d, a, m[ 1], 0x85845dd1, 21);
	STEP(I, a, b, c, d, m[ 8], 0x6fa87e4f,  6);
	STEP(I, d, a, b, c, m[15], 0xfe2ce6e0, 10);
	STEP(I, c, d, a, b, m[ 6], 0xa3014314, 15);
	STEP(I, b, c, d, a, m[13], 0x4e0811a1, 21);
	STEP(I, a, b, c, d, m[ 4], 0xf7537e82,  6);
	STEP(I, d, a, b, c, m[11], 0xbd3af235, 10);
	STEP(I, c, d, a, b, m[ 2], 0x2ad7d2bb, 15);
	STEP(I, b, c, d, a, m[ 9], 0xeb86d391, 21);

		st[0] = ADD(st[0], a);
		st[1] = ADD(st[1], b);
		st[2] = ADD(st[2], c);
		st[3] = ADD(st[3], d);
	}
}

__attribute__((target("avx2")))
static void md5_lanes_avx2(const unsigned char *const data[MD5_LANES], size_t len,
			   uint8_t out[MD5_LANES][16])
{
	/* each lane's last bytes, the 0x80 after them, zeros, and the length in bits */
	unsigned char tail[MD5_LANES][128] __attribute__((aligned(32)));
	const unsigned char *tp[MD5_LANES];
	size_t full = len / 64, rest = len % 64, ntail = rest < 56 ? 1 : 2;
	uint64_t bits = (uint64_t)len * 8;
	uint32_t w[4][MD5_LANES];
	V st[4] = {
		_mm256_set1_epi32(0x67452301), _mm256_set1_epi32((int)0xefcdab89),
		_mm256_set1_epi32((int)0x98badcfe), _mm256_set1_epi32(0x10325476),
	};

	md5_blocks(st, data, full);
	for (int l = 0; l < MD5_LANES; l++) {
		memset(tail[l], 0, sizeof(tail[l]));
		memcpy(tail[l], data[l] + 64 * full, rest);
		tail[l][rest] = 0x80;
		memcpy(tail[l] + 64 * ntail - 8, &bits, 8);	/* little-endian, as MD5 wants */
		tp[l] = tail[l];
	}
	md5_blocks(st, tp, ntail);
	for (int i = 0; i < 4; i++)
		_mm256_storeu_si256((V *)w[i], st[i]);
	for (int l = 0; l < MD5_LANES; l++)
		for (int i = 0; i < 4; i++)
			memcpy(out[l] + 4 * i, &w[i][l], 4);
}
#endif

bool md5_lanes_simd(void)
{
	return cpu_has_avx2();
}

void md5_lanes(const unsigned char *const data[MD5_LANES], size_t len,
	       uint8_t out[MD5_LANES][16])
{
#if defined(__x86_64__)
	if (cpu_has_avx2()) {
		md5_lanes_avx2(data, len, out);
		return;
	}
#endif
	for (int l = 0; l < MD5_LANES; l++)
		md5(data[l], len, out[l]);
}
