/*
 * Checksums for data verification, every kind fio's verify= has, as fio's verify headers
 * store them (checksum()): crc32c (the CPU's crc32 instruction when it has SSE4.2, a table
 * otherwise; kept without its final xor), crc32, crc64, crc16, crc7, md5, sha1 (as five
 * little-endian words), sha256, sha512, sha3-224/256/384/512 and xxhash (XXH32, seed 1).
 */
#ifndef ENGINE_VERIFY_CHECKSUM_H
#define ENGINE_VERIFY_CHECKSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHECKSUM_MAX	64	/* bytes of the largest digest (sha512, sha3-512) */

enum checksum_type { CSUM_CRC32C, CSUM_MD5, CSUM_SHA256, CSUM_XXHASH, CSUM_CRC32, CSUM_CRC64,
		     CSUM_CRC16, CSUM_CRC7, CSUM_SHA1, CSUM_SHA512, CSUM_SHA3_224,
		     CSUM_SHA3_256, CSUM_SHA3_384, CSUM_SHA3_512, CSUM_NKINDS };

struct checksum_kind {
	const char *name;
	unsigned size;		/* bytes of the digest */
	void (*sum)(const void *buf, size_t len, uint8_t *out);
};

/* Indexed by enum checksum_type; a unit test checks every entry is filled. */
extern const struct checksum_kind checksum_kinds[CSUM_NKINDS];

/* The digest of buf in out (its size: checksum_size()), computed the fastest way we can. */
void checksum(enum checksum_type t, const void *buf, size_t len, uint8_t *out);
unsigned checksum_size(enum checksum_type t);

/* crc32c by the table and by the instruction; the second needs crc32c_hw_available(). */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);
uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len);
bool crc32c_hw_available(void);
/* Whether the CPU and kernel run AVX2 (md5_lanes()). */
bool cpu_has_avx2(void);
/* How many times the CPU was asked for its features: once a process (for a test). */
unsigned cpu_probes(void);
/* fio's crc32c: from ~0, without the final xor, the fastest way this CPU has. */
uint32_t crc32c_fio(const void *buf, size_t len);

void md5(const void *buf, size_t len, uint8_t out[16]);
void sha256(const void *buf, size_t len, uint8_t out[32]);
uint32_t xxh32(const void *buf, size_t len, uint32_t seed);

/* fio's crc64 (Jones, as Redis), crc32, crc16 (ARC) and crc7 (MMC), from 0, no final xor. */
uint64_t crc64(const void *buf, size_t len);
uint32_t crc32_fio(const void *buf, size_t len);
uint16_t crc16(const void *buf, size_t len);
uint8_t crc7(const void *buf, size_t len);

#endif
