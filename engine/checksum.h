/*
 * Checksums for data verification: crc32c (the CPU's crc32 instruction when it has
 * SSE4.2, a table otherwise), md5, sha256 and xxhash (XXH32, as fio's verify=xxhash).
 */
#ifndef ENGINE_CHECKSUM_H
#define ENGINE_CHECKSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHECKSUM_MAX	32	/* bytes of the largest digest (sha256) */

enum checksum_type { CSUM_CRC32C, CSUM_MD5, CSUM_SHA256, CSUM_XXHASH };

/* The digest of buf in out (its size: checksum_size()), computed the fastest way we can. */
void checksum(enum checksum_type t, const void *buf, size_t len, uint8_t *out);
unsigned checksum_size(enum checksum_type t);

/* crc32c by the table and by the instruction; the second needs crc32c_hw_available(). */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);
uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len);
bool crc32c_hw_available(void);

void md5(const void *buf, size_t len, uint8_t out[16]);
void sha256(const void *buf, size_t len, uint8_t out[32]);
uint32_t xxh32(const void *buf, size_t len, uint32_t seed);

#endif
