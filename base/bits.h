/*
 * Bitmaps kept as arrays of 64-bit words: the random map's covered blocks, verify's chunk
 * and write starts. Part of base/, which includes nothing above it.
 */
#ifndef BASE_BITS_H
#define BASE_BITS_H

#include <stdbool.h>
#include <stdint.h>

/* Words that hold n bits. */
static inline uint64_t bits_words(uint64_t n)
{
	return (n + 63) / 64;
}

static inline bool bits_test(const uint64_t *m, uint64_t i)
{
	return m[i / 64] >> (i % 64) & 1;
}

static inline void bits_set(uint64_t *m, uint64_t i)
{
	m[i / 64] |= 1ULL << (i % 64);
}

static inline void bits_clear(uint64_t *m, uint64_t i)
{
	m[i / 64] &= ~(1ULL << (i % 64));
}

#endif
