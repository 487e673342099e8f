/* What both drivers of struct dist share: host names and the tables built from them. */
#include "engine/dist/dist_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/env.h"

/* $IOJOB_HOSTNAME names the host instead: tests give ranks on one machine two "hosts". */
void dist_host_name(char *buf)
{
	const char *name = env_get(ENV_HOSTNAME);
	char host[DIST_HOST_MAX] = "";

	if (!name || !*name) {
		if (gethostname(host, sizeof(host) - 1) < 0 || !host[0])
			strcpy(host, "localhost");
		name = host;
	}
	snprintf(buf, DIST_HOST_MAX, "%s", name);
}

int dist_index_hosts(struct dist *d, const char (*names)[DIST_HOST_MAX])
{
	d->rank_host = calloc((size_t)d->nranks, sizeof(*d->rank_host));
	d->hosts = calloc((size_t)d->nranks, sizeof(*d->hosts));
	if (!d->rank_host || !d->hosts)
		return -1;
	d->nhosts = 0;
	for (int r = 0; r < d->nranks; r++) {
		unsigned h = 0;

		while (h < d->nhosts && strcmp(d->hosts[h], names[r]))
			h++;
		if (h == d->nhosts)
			memcpy(d->hosts[d->nhosts++], names[r], DIST_HOST_MAX);
		d->rank_host[r] = h;
	}
	d->host_index = d->rank_host[d->rank];
	return 0;
}

void dist_free_hosts(struct dist *d)
{
	free(d->rank_host);
	free(d->hosts);
	d->rank_host = NULL;
	d->hosts = NULL;
}
