/*
 * A bump allocator for everything the job descriptors point to, so that clones can share
 * strings and lists and one call frees them all.
 */
#ifndef JOBS_ARENA_H
#define JOBS_ARENA_H

#include <stddef.h>

struct jobs_arena;

/* Zeroed memory that lives until arena_free(); NULL on ENOMEM. */
void *arena_alloc(struct jobs_arena **a, size_t len);

/* A copy of s in the arena; NULL on ENOMEM. */
char *arena_strdup(struct jobs_arena **a, const char *s);

/* Free every allocation. */
void arena_free(struct jobs_arena **a);

#endif
