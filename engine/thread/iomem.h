/*
 * Where a job's I/O buffers live (mem=): malloc, a System V segment (shm, shmhuge) or a
 * mapping (mmap, mmaphuge, mmapshared; anonymous or of a file), placed as iomem_align asks,
 * and the memory lockmem= pins. It takes the type as jobs/job.h's enum mem_type.
 */
#ifndef ENGINE_THREAD_IOMEM_H
#define ENGINE_THREAD_IOMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What to allocate. */
struct iomem_spec {
	int type;		/* enum mem_type (jobs/job.h) */
	const char *path;	/* the file an mmap type maps, or NULL for anonymous memory */
	size_t bytes;		/* what the buffers take, end to end */
	size_t align;		/* the first buffer starts at a multiple of this (a power of two) */
	size_t offset;		/* plus this (iomem_align), as fio places it */
	size_t huge_page;	/* hugepage-size, for shmhuge and mmaphuge */
};

/* What was allocated; iomem_free() undoes it. */
struct iomem {
	unsigned char *bufs;	/* the first buffer */
	unsigned char *base;	/* what malloc, shmat or mmap returned */
	size_t len;		/* how much of it */
	int type;
	int shm_id;		/* shm, shmhuge: the segment, removed at the end */
	int fd;			/* a mapped file, when fd_open */
	bool fd_open;
	char *path;		/* that file, deleted at the end unless it was there before */
};

/*
 * Allocate s->bytes of buffers as s says. 0, or -errno with err[] saying what failed
 * (the call and the hint: huge pages to reserve, a limit to raise).
 */
int iomem_alloc(struct iomem *m, const struct iomem_spec *s, char *err, size_t errlen);

/* Free what iomem_alloc() made (nothing when it failed or was never called on a zeroed m). */
void iomem_free(struct iomem *m);

/* Memory lockmem= keeps locked, so that the page cache has that much less. */
struct iomem_lock {
	void *p;
	size_t len;
};

/*
 * mlock() bytes of fresh anonymous memory (0 does nothing), at most the machine's memory
 * less 128 MiB, as fio. 0, or -errno with err[] saying why.
 */
int iomem_lock(struct iomem_lock *l, uint64_t bytes, char *err, size_t errlen);

void iomem_unlock(struct iomem_lock *l);

#endif
