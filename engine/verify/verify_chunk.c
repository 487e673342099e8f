/*
 * The verified chunk's format, fio's: the verify header, the digest of the rest of the
 * chunk in fio's room for the method, the header swapped into the chunk by verify_offset;
 * sealing a chunk for a write, and checking one read back (verify_examine(), which the
 * verify_async threads call too: it reads only the chunk and the verifier's settings).
 */
#include "engine/verify/verify_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/job.h"

static const enum checksum_type csum_of[VERIFY_NTYPES] = {
	[VERIFY_CRC32C] = CSUM_CRC32C, [VERIFY_MD5] = CSUM_MD5, [VERIFY_SHA256] = CSUM_SHA256,
	[VERIFY_XXHASH] = CSUM_XXHASH, [VERIFY_CRC32] = CSUM_CRC32, [VERIFY_CRC64] = CSUM_CRC64,
	[VERIFY_CRC16] = CSUM_CRC16, [VERIFY_CRC7] = CSUM_CRC7, [VERIFY_SHA1] = CSUM_SHA1,
	[VERIFY_SHA512] = CSUM_SHA512, [VERIFY_SHA3_224] = CSUM_SHA3_224,
	[VERIFY_SHA3_256] = CSUM_SHA3_256, [VERIFY_SHA3_384] = CSUM_SHA3_384,
	[VERIFY_SHA3_512] = CSUM_SHA3_512,
	[VERIFY_META] = CSUM_CRC32C,	/* not used: meta checks the header alone */
};

/* fio's number for each method in the header, and the room its digest has after it. */
static const struct {
	uint16_t type;
	uint8_t slot;
} fio_layout[VERIFY_NTYPES] = {
	[VERIFY_META] = { 1, 0 }, [VERIFY_MD5] = { 2, 16 }, [VERIFY_CRC64] = { 3, 8 },
	[VERIFY_CRC32] = { 4, 4 }, [VERIFY_CRC32C] = { 5, 4 }, [VERIFY_CRC16] = { 7, 2 },
	[VERIFY_CRC7] = { 8, 1 }, [VERIFY_SHA256] = { 9, 64 }, [VERIFY_SHA512] = { 10, 128 },
	[VERIFY_SHA3_224] = { 11, 28 }, [VERIFY_SHA3_256] = { 12, 32 },
	[VERIFY_SHA3_384] = { 13, 48 }, [VERIFY_SHA3_512] = { 14, 64 },
	[VERIFY_XXHASH] = { 15, 4 }, [VERIFY_SHA1] = { 16, 20 },
};

/* The digest of what follows the header, in its room (sha256 and sha512: the first bytes). */
static void data_digest(const struct verify *v, const unsigned char *chunk, uint8_t *out)
{
	memset(out, 0, v->slot);
	checksum(v->csum, chunk + v->hlen, v->interval - v->hlen, out);
}

/* fio's crc32c of the header up to its crc32 field: from ~0, no final xor. */
static uint32_t header_crc(const struct vhdr *h)
{
	return crc32c_fio(h, offsetof(struct vhdr, crc32));
}

/*
 * A write's generation is counted in 32 bits (to order writes and reads in flight) and
 * stored as 1 to 65535 in fio's 16-bit numberio: 0 stays "never written".
 */
uint16_t verify_numberio(uint32_t gen)
{
	return (uint16_t)(gen % 0xffff + 1);
}

/*
 * verify_offset: the header trades places with the bytes at voff, byte by byte in order,
 * and back in the opposite order, which undoes it even where the two ranges overlap.
 */
static void swap_header(const struct verify *v, unsigned char *c, bool back)
{
	for (uint32_t k = 0; k < v->hlen; k++) {
		uint32_t i = back ? v->hlen - 1 - k : k;
		unsigned char t = c[i];

		c[i] = c[v->voff + i];
		c[v->voff + i] = t;
	}
}

/* Where byte i of the header lies once swap_header() moved it (verify_offset). */
static uint32_t swapped_pos(const struct verify *v, uint32_t i)
{
	for (uint32_t k = 0; v->voff && k < v->hlen; k++) {
		if (i == k)
			i = (uint32_t)v->voff + k;
		else if (i == v->voff + k)
			i = k;
	}
	return i;
}

int verify_chunk_setup(struct verify *v, const struct job_desc *j)
{
	v->csum = csum_of[j->verify];
	v->pattern_only = j->verify == VERIFY_PATTERN;
	v->any_gen = !j->verify_write_sequence;
	v->meta = j->verify == VERIFY_META;
	v->null = j->verify == VERIFY_NULL;
	v->interval = (uint32_t)j->verify_interval;
	v->slot = fio_layout[j->verify].slot;
	v->fio_type = fio_layout[j->verify].type;
	v->hlen = v->pattern_only || v->null ? 0 : (uint32_t)VHDR_FIXED + v->slot;
	v->voff = j->verify_offset;
	for (uint32_t b = 0; b < 2; b++)
		v->gen_pos[b] = swapped_pos(v, (uint32_t)offsetof(struct vhdr, numberio) + b);
	if (!j->verify_pattern_len)
		return 0;
	v->patterned = true;
	return vpattern_init(&v->pat, j);
}

void verify_fill_pattern(const struct verify *v, uint64_t io_off, uint64_t pos,
			 unsigned char *buf, uint32_t len)
{
	vpattern_fill(&v->pat, io_off, pos, buf, len);
}

void verify_chunk_seal(const struct verify *v, const struct job_desc *j, unsigned char *c,
		       uint64_t off, uint32_t gen, const uint8_t *sum)
{
	struct vhdr h = {
		.magic = VERIFY_MAGIC,
		.type = v->fio_type,
		.len = v->interval,
		.offset = off,
		.thread = (uint16_t)(j->jobnum + 1),
		.numberio = verify_numberio(gen),
	};

	h.crc32 = header_crc(&h);
	memcpy(c, &h, sizeof(h));
	if (sum)
		memcpy(c + VHDR_FIXED, sum, v->slot);
	else if (v->slot)
		data_digest(v, c, c + VHDR_FIXED);
	if (v->voff)
		swap_header(v, c, false);
}

static void hex(char *out, const uint8_t *d, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* The chunk at off of the I/O at io_off, past its first skip bytes (its header). */
static int check_pattern(const struct verify *v, uint64_t off, uint64_t io_off,
			 const unsigned char *c, uint32_t skip, char *what, size_t n)
{
	unsigned char want = 0;
	uint32_t i = vpattern_check(&v->pat, io_off, off - io_off + skip, c + skip,
				    v->interval - skip, &want);

	if (i == v->interval - skip)
		return 0;
	snprintf(what, n, "byte %u is 0x%02x, the pattern has 0x%02x", skip + i, c[skip + i],
		 want);
	return 1;
}

static int check_zero(const struct verify *v, const unsigned char *c, char *what, size_t n)
{
	for (uint32_t i = 0; i < v->interval; i++) {
		if (c[i]) {
			snprintf(what, n, "trimmed, but byte %u reads 0x%02x, not zero", i, c[i]);
			return 1;
		}
	}
	return 0;
}

int verify_examine(const struct verify *v, uint64_t off, uint64_t io_off,
		   unsigned char *c, enum chunk_expect ex, uint32_t gen, const uint8_t *sum,
		   char *what, size_t n)
{
	const struct vhdr *h = (const struct vhdr *)c;
	uint8_t made[VERIFY_SLOT_MAX];
	char want[2 * CHECKSUM_MAX + 1], got[2 * CHECKSUM_MAX + 1];
	unsigned size = checksum_size(v->csum);

	if (ex == CK_SKIP || v->null)
		return 0;
	if (ex == CK_ZERO)
		return check_zero(v, c, what, n);
	if (v->pattern_only)
		return v->patterned ? check_pattern(v, off, io_off, c, 0, what, n) : 0;
	if (v->voff)
		swap_header(v, c, true);
	if (h->magic != VERIFY_MAGIC || h->len != v->interval) {
		snprintf(what, n, "no verify header (magic 0x%04x, expected 0x%04x, length %u): "
			 "never written, or overwritten by something else", h->magic,
			 VERIFY_MAGIC, h->len);
		return 1;
	}
	if (h->offset != off) {
		snprintf(what, n, "the header says offset %" PRIu64 ": a misdirected write",
			 h->offset);
		return 1;
	}
	if (h->crc32 != header_crc(h)) {
		snprintf(what, n, "header crc 0x%08x, 0x%08x computed over the header", h->crc32,
			 header_crc(h));
		return 1;
	}
	if (v->slot) {
		if (!sum) {
			data_digest(v, c, made);
			sum = made;
		}
		if (memcmp(sum, c + VHDR_FIXED, v->slot)) {
			hex(want, c + VHDR_FIXED, size);
			hex(got, sum, size);
			snprintf(what, n, "checksum %s in the header, %s computed over the data",
				 want, got);
			return 1;
		}
	}
	if (gen && gen != GEN_ANY && !v->any_gen && h->numberio != gen) {
		snprintf(what, n, "generation %u, expected %u: an older write (lost or reordered)",
			 h->numberio, gen);
		return 1;
	}
	return v->patterned ? check_pattern(v, off, io_off, c, v->hlen, what, n) : 0;
}
