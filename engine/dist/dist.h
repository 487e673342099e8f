/*
 * One run over many processes (MPI ranks, on one host or many): the few points where
 * they must act together. iojob links dist_local.c, where there is one rank and every
 * call is trivial; iojob-mpi links dist_mpi.c. Every rank makes the same calls in the
 * same order (they are collective), from the main thread only.
 */
#ifndef ENGINE_DIST_DIST_H
#define ENGINE_DIST_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct diag;
struct job_stats;

#define DIST_HOST_MAX	256

struct dist {
	int rank, nranks;
	char host[DIST_HOST_MAX];	/* this rank's host: $IOJOB_HOSTNAME, else gethostname() */
	unsigned nhosts;
	unsigned host_index;		/* of this rank's host, hosts numbered by first rank */
	unsigned *rank_host;		/* per rank: its host's index */
	char (*hosts)[DIST_HOST_MAX];	/* per host index: its name */
};

/* Start (MPI_Init_thread for iojob-mpi) and learn the ranks and hosts. Returns 0 or -1. */
int dist_init(int *argc, char ***argv, struct dist *d);
void dist_finalize(struct dist *d);

static inline bool dist_root(const struct dist *d)
{
	return d->rank == 0;
}

/* Wait for every rank. */
void dist_barrier(const struct dist *d);

/* The largest of the ranks' values, on every rank. */
int dist_max(const struct dist *d, int v);

/* The root's value, on every rank. */
int dist_bcast(const struct dist *d, int v);

/* The root gets every rank's size bytes, rank after rank, in all (ignored elsewhere). */
void dist_gather(const struct dist *d, const void *mine, size_t size, void *all);

/*
 * Every rank must take the same path: the worst exit code of all (code is this rank's,
 * and d says why when it is not 0). The root says on err what went wrong on each other
 * rank where it did and differs from its own (the others' stderr is closed under MPI).
 */
int dist_agree(const struct dist *dist, int code, const struct diag *d, FILE *err);

/*
 * Merge n job statistics across the ranks, job by job, as group_reporting merges
 * clones: into agg[n] over every rank and host[h * n + j] over the ranks of host h,
 * both on the root only (counters and histograms summed, moments merged exactly).
 */
void dist_merge_stats(const struct dist *d, struct job_stats *const *mine, unsigned n,
		      struct job_stats *agg, struct job_stats *host);

#endif
