/* md RAID0's address arithmetic: locating a logical offset, cutting a request into parts. */
#include "engine/stripe/stripe_map.h"

#include <errno.h>

int stripe_map_init(struct stripe_map *m, uint64_t chunk, const uint64_t *sizes, unsigned n)
{
	uint64_t least = UINT64_MAX;

	if (!chunk || n < 2)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (sizes[i] < least)
			least = sizes[i];
	m->chunk = chunk;
	m->n = n;
	m->member_bytes = least - least % chunk;	/* md drops the tail below a chunk */
	m->size = m->member_bytes * n;
	return m->member_bytes ? 0 : -EINVAL;
}

void stripe_map_locate(const struct stripe_map *m, uint64_t off, unsigned *member,
		       uint64_t *member_off)
{
	uint64_t idx = off / m->chunk;

	*member = (unsigned)(idx % m->n);
	*member_off = idx / m->n * m->chunk + off % m->chunk;
}

unsigned stripe_map_max_parts(const struct stripe_map *m, uint64_t len)
{
	/* The worst start is one byte before a boundary: chunk - 1 bytes ahead of len. */
	return len ? (unsigned)((len + m->chunk - 2) / m->chunk + 1) : 1;
}

unsigned stripe_map_split(const struct stripe_map *m, uint64_t off, uint32_t len,
			  struct stripe_part *parts)
{
	uint64_t in_chunk = off % m->chunk;
	unsigned member, n = 0;
	uint64_t moff;
	uint32_t at = 0;

	stripe_map_locate(m, off, &member, &moff);
	while (at < len) {
		uint64_t room = m->chunk - in_chunk;
		uint32_t piece = len - at < room ? len - at : (uint32_t)room;

		parts[n++] = (struct stripe_part){ member, moff, at, piece };
		at += piece;
		/* The next chunk: the next member, same row; after the last member, a row on. */
		moff += piece;
		if (++member == m->n)
			member = 0;
		else
			moff -= m->chunk;
		in_chunk = 0;
	}
	return n;
}
