/*
 * md RAID0's address arithmetic: where a byte of a striped target lives among n members
 * of equal usable size, and how a request is cut at chunk boundaries. No I/O, no state.
 */
#ifndef ENGINE_STRIPE_STRIPE_MAP_H
#define ENGINE_STRIPE_STRIPE_MAP_H

#include <stdint.h>

struct stripe_map {
	uint64_t chunk;		/* bytes per chunk */
	unsigned n;		/* members */
	uint64_t member_bytes;	/* bytes of each member in use: whole chunks */
	uint64_t size;		/* the target: n * member_bytes */
};

/* One piece of a request: all of it on one member, inside one chunk. */
struct stripe_part {
	unsigned member;
	uint64_t off;		/* offset on the member */
	uint32_t at;		/* offset in the request (and its buffer) */
	uint32_t len;
};

/*
 * Lay out n members of these sizes as md RAID0 does: every member contributes as many
 * whole chunks as the smallest holds. Returns 0, or -EINVAL when chunk is 0, n is below
 * 2, or the smallest member holds no whole chunk.
 */
int stripe_map_init(struct stripe_map *m, uint64_t chunk, const uint64_t *sizes, unsigned n);

/*
 * Offset off of the target is on member (off / chunk) mod n, at (off / (chunk * n)) *
 * chunk + off mod chunk there.
 */
void stripe_map_locate(const struct stripe_map *m, uint64_t off, unsigned *member,
		       uint64_t *member_off);

/* The most parts a request of len bytes is cut into, wherever it starts. */
unsigned stripe_map_max_parts(const struct stripe_map *m, uint64_t len);

/*
 * Cut the request [off, off + len) at chunk boundaries into parts[], in logical order
 * (parts[] has room for stripe_map_max_parts(len)); returns the number of parts.
 */
unsigned stripe_map_split(const struct stripe_map *m, uint64_t off, uint32_t len,
			  struct stripe_part *parts);

#endif
