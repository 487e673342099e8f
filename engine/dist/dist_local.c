/* One process, one rank: the driver of engine/dist/dist.h that iojob links. */
#include "engine/dist/dist_impl.h"

#include <string.h>

#include "output/stats.h"

int dist_init(int *argc, char ***argv, struct dist *d)
{
	(void)argc;
	(void)argv;
	memset(d, 0, sizeof(*d));
	d->nranks = 1;
	dist_host_name(d->host);
	return dist_index_hosts(d, (const char (*)[DIST_HOST_MAX])d->host);
}

void dist_finalize(struct dist *d)
{
	dist_free_hosts(d);
}

void dist_barrier(const struct dist *d)
{
	(void)d;
}

int dist_max(const struct dist *d, int v)
{
	(void)d;
	return v;
}

int dist_bcast(const struct dist *d, int v)
{
	(void)d;
	return v;
}

void dist_gather(const struct dist *d, const void *mine, size_t size, void *all)
{
	(void)d;
	memcpy(all, mine, size);
}

void dist_merge_stats(const struct dist *d, struct job_stats *const *mine, unsigned n,
		      struct job_stats *agg, struct job_stats *host)
{
	(void)d;
	for (unsigned j = 0; j < n; j++) {
		stats_init_zeroed(&agg[j]);
		stats_merge(&agg[j], mine[j]);
		host[j] = agg[j];
	}
}
