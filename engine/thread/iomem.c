/* Allocating a job's I/O buffers from the memory mem= names, and pinning lockmem=. */
#include "engine/thread/iomem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/devices/path_guard.h"
#include "jobs/job.h"

#define PAGE		4096u
#define HUGE_SHIFT	26	/* the page size's log2 in shmget and mmap flags (MAP_HUGE_SHIFT) */
#define LOCK_SPARE	(128ull << 20)	/* lockmem leaves the system this much, as fio */

static bool is_huge(int type)
{
	return type == MEM_SHMHUGE || type == MEM_MMAPHUGE;
}

/* The flags that ask for huge pages of that size (a power of two). */
static int huge_flags(size_t page)
{
	return __builtin_ctzll(page) << HUGE_SHIFT;
}

static int shm_alloc(struct iomem *m, const struct iomem_spec *s, char *err, size_t errlen)
{
	bool huge = s->type == MEM_SHMHUGE;
	int flags = IPC_CREAT | S_IRUSR | S_IWUSR;
	void *p;

	if (huge)
		flags |= SHM_HUGETLB | huge_flags(s->huge_page);
	m->shm_id = shmget(IPC_PRIVATE, m->len, flags);
	if (m->shm_id < 0) {
		int e = errno;

		snprintf(err, errlen, "shmget of %zu bytes%s: %s%s", m->len,
			 huge ? " of huge pages" : "", strerror(e), huge && e == ENOMEM ?
			 " (too few free huge pages: raise /proc/sys/vm/nr_hugepages)" :
			 e == EINVAL ? " (above kernel.shmmax, or hugepage-size is wrong)" : "");
		return -e;
	}
	p = shmat(m->shm_id, NULL, 0);
	if (p == (void *)-1) {
		int e = errno;

		shmctl(m->shm_id, IPC_RMID, NULL);
		snprintf(err, errlen, "shmat: %s", strerror(e));
		return -e;
	}
	/* Removed now, it lives until detached: nothing is left behind if the run dies. */
	shmctl(m->shm_id, IPC_RMID, NULL);
	m->base = p;
	return 0;
}

/* mem=mmap:PATH and the like: the file is made (and later deleted) unless it was there. */
static int open_map_file(struct iomem *m, const char *path, bool sized, char *err,
			 size_t errlen)
{
	bool existed = access(path, F_OK) == 0;
	char why[512];

	m->fd = path_open(path, O_RDWR | O_CREAT, 0644, why, sizeof(why));
	if (m->fd < 0) {
		snprintf(err, errlen, "open '%s' to map: %s", path, why);
		return m->fd;
	}
	m->fd_open = true;
	if (!existed) {
		m->path = strdup(path);
		if (!m->path)
			return -ENOMEM;
	}
	/* hugetlbfs files grow by being mapped; others must be as long as the mapping */
	if (sized && ftruncate(m->fd, (off_t)m->len) < 0) {
		snprintf(err, errlen, "truncate '%s' to %zu bytes: %s", path, m->len,
			 strerror(errno));
		return -errno;
	}
	return 0;
}

static int map_alloc(struct iomem *m, const struct iomem_spec *s, char *err, size_t errlen)
{
	int flags = s->type == MEM_MMAP ? MAP_PRIVATE : MAP_SHARED;
	void *p;
	int ret;

	if (s->path) {
		ret = open_map_file(m, s->path, s->type != MEM_MMAPHUGE, err, errlen);
		if (ret < 0)
			return ret;
	} else {
		flags = (s->type == MEM_MMAPSHARED ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS;
		if (s->type == MEM_MMAPHUGE)
			flags |= MAP_HUGETLB | huge_flags(s->huge_page);
	}
	p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, flags, m->fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		snprintf(err, errlen, "mmap of %zu bytes%s%s%s: %s%s", m->len,
			 s->path ? " of '" : "", s->path ? s->path : "", s->path ? "'" : "",
			 strerror(e), s->type != MEM_MMAPHUGE ? "" : e == ENOMEM ? " (too few "
			 "free huge pages: raise /proc/sys/vm/nr_hugepages)" : e == EINVAL ?
			 " (no huge pages of hugepage-size here: /sys/kernel/mm/hugepages lists "
			 "the sizes)" : "");
		return -e;
	}
	m->base = p;
	return 0;
}

int iomem_alloc(struct iomem *m, const struct iomem_spec *s, char *err, size_t errlen)
{
	/* malloc aligns to 16 bytes, shmat and mmap to pages: room to align the rest */
	size_t slack = s->type == MEM_MALLOC || s->align > PAGE ? s->align : 0;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->type = s->type;
	m->shm_id = -1;
	m->fd = -1;
	m->len = s->bytes + s->offset + slack;
	if (is_huge(s->type))
		m->len = (m->len + s->huge_page - 1) / s->huge_page * s->huge_page;
	switch (s->type) {
	case MEM_MALLOC:
		m->base = malloc(m->len);
		if (!m->base) {
			snprintf(err, errlen, "malloc of %zu bytes: %s", m->len, strerror(ENOMEM));
			ret = -ENOMEM;
		}
		break;
	case MEM_SHM:
	case MEM_SHMHUGE:
		ret = shm_alloc(m, s, err, errlen);
		break;
	case MEM_MMAP:
	case MEM_MMAPHUGE:
	case MEM_MMAPSHARED:
		ret = map_alloc(m, s, err, errlen);
		break;
	default:
		snprintf(err, errlen, "no such memory type (%d)", s->type);
		ret = -EINVAL;
	}
	if (ret < 0) {
		iomem_free(m);
		return ret;
	}
	m->bufs = (unsigned char *)(((uintptr_t)m->base + s->align - 1) &
				    ~(uintptr_t)(s->align - 1)) + s->offset;
	return 0;
}

void iomem_free(struct iomem *m)
{
	if (m->base && m->type == MEM_MALLOC)
		free(m->base);
	else if (m->base && (m->type == MEM_SHM || m->type == MEM_SHMHUGE))
		shmdt(m->base);
	else if (m->base)
		munmap(m->base, m->len);
	if (m->fd_open)
		close(m->fd);
	if (m->path)
		unlink(m->path);
	free(m->path);
	memset(m, 0, sizeof(*m));
}

int iomem_lock(struct iomem_lock *l, uint64_t bytes, char *err, size_t errlen)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	uint64_t phys = pages > 0 ? (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE) : 0;

	l->p = NULL;
	l->len = 0;
	if (!bytes)
		return 0;
	if (phys > LOCK_SPARE && bytes > phys - LOCK_SPARE)
		bytes = phys - LOCK_SPARE;
	l->p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l->p == MAP_FAILED) {
		l->p = NULL;
		snprintf(err, errlen, "lockmem: mmap of %llu bytes: %s", (unsigned long long)bytes,
			 strerror(errno));
		return -errno;
	}
	if (mlock(l->p, bytes) < 0) {
		int e = errno;

		munmap(l->p, bytes);
		l->p = NULL;
		snprintf(err, errlen, "lockmem: mlock of %llu bytes: %s%s",
			 (unsigned long long)bytes, strerror(e), e == ENOMEM || e == EPERM ?
			 " (raise ulimit -l, or run as root)" : "");
		return -e;
	}
	l->len = bytes;
	return 0;
}

void iomem_unlock(struct iomem_lock *l)
{
	if (l->p) {
		munlock(l->p, l->len);
		munmap(l->p, l->len);
	}
	l->p = NULL;
	l->len = 0;
}
