/* A bump allocator for job descriptors: blocks chained from the newest. */
#include "base/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK	(16 * 1024)

struct arena {
	struct arena *prev;
	size_t used, cap;
	_Alignas(max_align_t) unsigned char data[];
};

void *arena_alloc(struct arena **a, size_t len)
{
	struct arena *b = *a;
	size_t cap;
	void *p;

	len = (len + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1);
	if (!b || b->cap - b->used < len) {
		cap = len > ARENA_BLOCK ? len : ARENA_BLOCK;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->prev = *a;
		b->used = 0;
		b->cap = cap;
		*a = b;
	}
	p = b->data + b->used;
	b->used += len;
	memset(p, 0, len);
	return p;
}

char *arena_strdup(struct arena **a, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = arena_alloc(a, len);

	if (p)
		memcpy(p, s, len);
	return p;
}

void arena_free(struct arena **a)
{
	struct arena *b = *a, *prev;

	while (b) {
		prev = b->prev;
		free(b);
		b = prev;
	}
	*a = NULL;
}
