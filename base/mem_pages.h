/*
 * Which pages of this process's private anonymous memory may hold data. A page that is
 * neither present nor swapped out (/proc/self/pagemap) was never written, or was given
 * back (MADV_DONTNEED): it reads as zeros. Code that reads large, mostly untouched arrays
 * only to add them up (the statistics' histograms) skips such pages, because under a
 * kernel with no shared zero page (pvm_no_zero_page) every page read gets memory of its
 * own: 512 jobs' histograms read at the end of a run cost 85 MB that way.
 *
 * Only for private memory: a MAP_SHARED page another process wrote is not present here.
 * Where pagemap cannot be read, every page may hold data.
 */
#ifndef BASE_MEM_PAGES_H
#define BASE_MEM_PAGES_H

#include <stddef.h>
#include <stdint.h>

#define MEM_PAGES_MAX	64	/* pages one call answers for */

/*
 * Bit i set when page i of those that [p, p + len) touches may hold data (page 0 holds
 * p). len must cover at most MEM_PAGES_MAX pages; a longer one answers for those alone.
 */
uint64_t mem_pages_used(const void *p, size_t len);

/* The page size, 4096 on x86-64: what mem_pages_used's bits stand for. */
size_t mem_page_size(void);

#endif
