/* The ranks agree on the outcome of a step: the worst exit code, and what went wrong. */
#include "engine/dist/dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/prog_name.h"
#include "base/diag.h"

int dist_agree(const struct dist *dist, int code, const struct diag *d, FILE *err)
{
	char (*msgs)[sizeof(d->msg)] = NULL;
	char mine[sizeof(d->msg)];

	if (dist->nranks == 1)
		return code;
	snprintf(mine, sizeof(mine), "%s", code ? d->msg : "");
	if (dist_root(dist) && !(msgs = calloc((size_t)dist->nranks, sizeof(*msgs))))
		abort();	/* the others are in the gather: nothing else is safe */
	dist_gather(dist, mine, sizeof(mine), msgs);
	for (int k = 1; msgs && k < dist->nranks; k++)
		if (msgs[k][0] && strcmp(msgs[k], msgs[0]))
			fprintf(err, "%s: rank %d (host %s): %s\n", prog_name(), k,
				dist->hosts[dist->rank_host[k]], msgs[k]);
	free(msgs);
	return dist_max(dist, code);
}
