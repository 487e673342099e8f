/*
 * Many ranks under MPI: the driver of engine/dist/dist.h that iojob-mpi links. Only the main
 * thread calls MPI (MPI_THREAD_FUNNELED); job threads never do.
 */
#include "engine/dist/dist_impl.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "output/stats.h"

#define MERGE_BATCH	8	/* jobs reduced per call: bounds the buffers (~200 KiB a job) */

int dist_init(int *argc, char ***argv, struct dist *d)
{
	char (*names)[DIST_HOST_MAX];
	int provided, ret;

	memset(d, 0, sizeof(*d));
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return -1;
	MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &d->nranks);
	dist_host_name(d->host);
	names = calloc((size_t)d->nranks, sizeof(*names));
	if (!names)
		return -1;
	MPI_Allgather(d->host, DIST_HOST_MAX, MPI_CHAR, names, DIST_HOST_MAX, MPI_CHAR,
		      MPI_COMM_WORLD);
	ret = dist_index_hosts(d, (const char (*)[DIST_HOST_MAX])names);
	free(names);
	return ret;
}

void dist_finalize(struct dist *d)
{
	dist_free_hosts(d);
	MPI_Finalize();
}

void dist_barrier(const struct dist *d)
{
	(void)d;
	MPI_Barrier(MPI_COMM_WORLD);
}

int dist_max(const struct dist *d, int v)
{
	int out;

	(void)d;
	MPI_Allreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return out;
}

int dist_bcast(const struct dist *d, int v)
{
	(void)d;
	MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return v;
}

void dist_gather(const struct dist *d, const void *mine, size_t size, void *all)
{
	(void)d;
	MPI_Gather(mine, (int)size, MPI_BYTE, all, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
}

/* The reduction: job statistics merged element by element, as group_reporting does. */
static void merge_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const struct job_stats *src = in;
	struct job_stats *dst = inout;

	(void)type;
	for (int i = 0; i < *len; i++)
		stats_merge(&dst[i], &src[i]);
}

/* Reduce one batch over the world to the root, and over each host to its first rank. */
static void merge_batch(const struct dist *d, MPI_Comm host_comm, MPI_Datatype t, MPI_Op op,
			struct job_stats *send, struct job_stats *recv, int n, size_t at,
			struct job_stats *agg, struct job_stats *host, unsigned stride)
{
	int host_rank;

	MPI_Reduce(send, recv, n, t, op, 0, MPI_COMM_WORLD);
	if (dist_root(d))
		memcpy(agg + at, recv, (size_t)n * sizeof(*recv));
	MPI_Reduce(send, recv, n, t, op, 0, host_comm);
	MPI_Comm_rank(host_comm, &host_rank);
	/* Host 0's first rank is the root itself; the others' first ranks send theirs. */
	if (dist_root(d)) {
		memcpy(host + at, recv, (size_t)n * sizeof(*recv));
		for (unsigned h = 1; h < d->nhosts; h++)
			MPI_Recv(host + (size_t)h * stride + at, n, t, MPI_ANY_SOURCE, (int)h,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (host_rank == 0) {
		MPI_Send(recv, n, t, 0, (int)d->host_index, MPI_COMM_WORLD);
	}
}

void dist_merge_stats(const struct dist *d, struct job_stats *const *mine, unsigned n,
		      struct job_stats *agg, struct job_stats *host)
{
	struct job_stats *send = malloc(MERGE_BATCH * sizeof(*send));
	struct job_stats *recv = malloc(MERGE_BATCH * sizeof(*recv));
	MPI_Datatype t;
	MPI_Comm host_comm;
	MPI_Op op;

	if (!send || !recv)
		MPI_Abort(MPI_COMM_WORLD, 1);	/* the others wait in the reduction otherwise */
	MPI_Type_contiguous((int)sizeof(struct job_stats), MPI_BYTE, &t);
	MPI_Type_commit(&t);
	MPI_Op_create(merge_op, 1, &op);
	MPI_Comm_split(MPI_COMM_WORLD, (int)d->host_index, d->rank, &host_comm);
	for (unsigned j = 0; j < n; j += MERGE_BATCH) {
		int k = n - j < MERGE_BATCH ? (int)(n - j) : MERGE_BATCH;

		for (int i = 0; i < k; i++)
			send[i] = *mine[j + (unsigned)i];
		merge_batch(d, host_comm, t, op, send, recv, k, j, agg, host, n);
	}
	MPI_Comm_free(&host_comm);
	MPI_Op_free(&op);
	MPI_Type_free(&t);
	free(send);
	free(recv);
}
