/* Which pages of private memory were ever written, from /proc/self/pagemap. */
#include "base/mem_pages.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#define PM_PRESENT	(1ULL << 63)
#define PM_SWAPPED	(1ULL << 62)

/* Opened once and kept: a probe costs one pread, not an open and a close. */
static int pagemap_fd = -1;
static size_t page_size = 4096;
static pthread_once_t pagemap_once = PTHREAD_ONCE_INIT;

static void pagemap_open(void)
{
	long sz = sysconf(_SC_PAGESIZE);

	if (sz > 0)
		page_size = (size_t)sz;
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
}

size_t mem_page_size(void)
{
	pthread_once(&pagemap_once, pagemap_open);
	return page_size;
}

uint64_t mem_pages_used(const void *p, size_t len)
{
	uint64_t entry[MEM_PAGES_MAX], used = 0;
	uintptr_t first, last;
	size_t n;
	ssize_t got;

	if (!len)
		return 0;
	pthread_once(&pagemap_once, pagemap_open);
	first = (uintptr_t)p / page_size;
	last = ((uintptr_t)p + len - 1) / page_size;
	n = last - first + 1 < MEM_PAGES_MAX ? last - first + 1 : MEM_PAGES_MAX;
	/* an unreadable pagemap (no /proc, a sandbox): every page may hold data */
	got = pagemap_fd < 0 ? -1 :
	      pread(pagemap_fd, entry, n * sizeof(entry[0]), (off_t)(first * sizeof(entry[0])));
	if (got != (ssize_t)(n * sizeof(entry[0])))
		return n == MEM_PAGES_MAX ? ~0ULL : (1ULL << n) - 1;
	for (size_t i = 0; i < n; i++)
		if (entry[i] & (PM_PRESENT | PM_SWAPPED))
			used |= 1ULL << i;
	return used;
}
