/*
 * verify_pattern's bytes over an I/O, as fio lays them (verify_pattern.c): continuous from
 * the I/O's start, %o the I/O's offset, afresh every verify_pattern_interval bytes.
 */
#ifndef ENGINE_VERIFY_VERIFY_PATTERN_H
#define ENGINE_VERIFY_VERIFY_PATTERN_H

#include <stdint.h>

#include "jobs/job.h"

struct vpattern {
	uint32_t len;			/* the pattern's bytes */
	uint32_t every;			/* verify_pattern_interval, 0: the whole I/O */
	struct pattern_fmt fmt;		/* its %o */
	unsigned char *stream;		/* the pattern over and over, stream_len bytes */
	uint32_t stream_len;
};

/* From the job's verify_pattern (set): 0 or -ENOMEM. */
int vpattern_init(struct vpattern *p, const struct job_desc *j);
void vpattern_free(struct vpattern *p);

/* The bytes [pos, pos + len) of an I/O at offset io_off, into buf. */
void vpattern_fill(const struct vpattern *p, uint64_t io_off, uint64_t pos,
		   unsigned char *buf, uint32_t len);

/*
 * Compare buf with those bytes: len when they match, else the index of the first that
 * differs, with the pattern's byte in *want.
 */
uint32_t vpattern_check(const struct vpattern *p, uint64_t io_off, uint64_t pos,
			const unsigned char *buf, uint32_t len, unsigned char *want);

#endif
