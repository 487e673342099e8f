/* Geometric growth of an array, with the overflow checks every caller would need. */
#include "base/grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GROW_FIRST	8	/* the first capacity: small tables never move twice */

int grow_reserve(void *arrayp, size_t *cap, size_t need, size_t size)
{
	size_t have, ncap;
	void *old, *p;

	/* arrayp points to a pointer of the caller's type: read and write it as bytes */
	memcpy(&old, arrayp, sizeof(old));
	have = old ? *cap : 0;	/* freed and set to NULL elsewhere: the capacity went too */
	if (need <= have)
		return 0;
	ncap = have ? have : GROW_FIRST;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (size && ncap > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(old, ncap * size);
	if (!p)
		return -ENOMEM;
	memcpy(arrayp, &p, sizeof(p));
	*cap = ncap;
	return 0;
}
