/*
 * MD5 of eight buffers at once: one AVX2 register holds the same word of eight digests,
 * so eight independent digests cost about what one costs in libcrypto. A single MD5 is a
 * chain of dependent steps that no SIMD can shorten; verify's writes have many payloads
 * to digest, so they are digested eight at a time (engine/verify/verify_fill.c).
 * Hand-written because no Debian 12 library offers multi-buffer MD5 (isa-l_crypto, which
 * does, is not packaged); a unit test checks every lane against libcrypto's MD5.
 */
#ifndef ENGINE_VERIFY_MD5_LANES_H
#define ENGINE_VERIFY_MD5_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MD5_LANES	8

/* Whether md5_lanes() runs eight lanes in SIMD (AVX2, asked once a process). */
bool md5_lanes_simd(void);

/*
 * The MD5 of each of the MD5_LANES buffers data[i], all len bytes long, in out[i];
 * without AVX2, one after another through libcrypto.
 */
void md5_lanes(const unsigned char *const data[MD5_LANES], size_t len,
	       uint8_t out[MD5_LANES][16]);

#endif
