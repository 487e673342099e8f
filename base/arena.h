/*
 * A bump allocator for everything the job descriptors point to, so that clones can share
 * strings and lists and one call frees them all.
 */
#ifndef BASE_ARENA_H
#define BASE_ARENA_H

#include <stddef.h>

struct arena;

/* Zeroed memory that lives until arena_free(); NULL on ENOMEM. */
void *arena_alloc(struct arena **a, size_t len);

/* A copy of s in the arena; NULL on ENOMEM. */
char *arena_strdup(struct arena **a, const char *s);

/* Free every allocation. */
void arena_free(struct arena **a);

#endif
