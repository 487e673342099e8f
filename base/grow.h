/*
 * Growing an array as elements are appended: the capacity doubles, so n appends cost
 * O(n) copying, and every overflow is checked in one place. Part of base/, which includes
 * nothing above it.
 */
#ifndef BASE_GROW_H
#define BASE_GROW_H

#include <stddef.h>

/*
 * Make the array *arrayp (a pointer to its first element, any element type) of *cap
 * elements of size bytes hold at least need elements: the capacity doubles, from 8, until
 * it does, and the array moves with realloc(). A NULL array has no capacity, whatever *cap
 * says. Returns 0, or -ENOMEM with *arrayp and *cap unchanged (also when the new size in
 * bytes would not fit in a size_t).
 */
int grow_reserve(void *arrayp, size_t *cap, size_t need, size_t size);

/* Room for element n (0-based) of array a, a pointer whose capacity is cap (a size_t). */
#define GROW_FOR(a, cap, n)	grow_reserve(&(a), &(cap), (size_t)(n) + 1, sizeof(*(a)))

#endif
