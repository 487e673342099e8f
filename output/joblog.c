/* Log files in fio's formats: in-memory entries, written out once the job is done. */
#include "output/joblog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

bool joblog_grow(struct joblog *l)
{
	struct joblog_chunk *c = malloc(sizeof(*c));

	if (!c)
		return false;
	c->next = NULL;
	c->n = 0;
	if (l->last)
		l->last->next = c;
	else
		l->first = c;
	l->last = c;
	return true;
}

int joblog_write(FILE *f, const struct joblog *l, bool with_offset)
{
	for (const struct joblog_chunk *c = l->first; c; c = c->next) {
		for (unsigned i = 0; i < c->n; i++) {
			const struct joblog_entry *e = &c->e[i];

			/* fio 3.33's columns; the last one is the I/O priority, always 0 here. */
			if (with_offset)
				fprintf(f, "%" PRIu64 ", %" PRIu64 ", %u, %u, %" PRIu64 ", 0\n",
					e->time_ms, e->value, e->ddir, e->bs, e->offset);
			else
				fprintf(f, "%" PRIu64 ", %" PRIu64 ", %u, %u, 0\n", e->time_ms,
					e->value, e->ddir, e->bs);
		}
	}
	return ferror(f) ? -EIO : 0;
}

int histlog_add(struct histlog *l, uint64_t time_ms, uint32_t ddir, uint32_t bs,
		const struct hist *now, struct hist *before)
{
	struct histlog_rec *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->time_ms = time_ms;
	r->ddir = ddir;
	r->bs = bs;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t d = now->count[i] - before->count[i];
		unsigned b = i < JOBLOG_FIO_BINS ? i : JOBLOG_FIO_BINS - 1;

		r->bins[b] += d;
	}
	memcpy(before, now, sizeof(*before));
	if (l->last)
		l->last->next = r;
	else
		l->first = r;
	l->last = r;
	return 0;
}

int histlog_write(FILE *f, const struct histlog *l)
{
	unsigned group = 1u << l->coarseness;

	for (const struct histlog_rec *r = l->first; r; r = r->next) {
		fprintf(f, "%" PRIu64 ", %u, %u", r->time_ms, r->ddir, r->bs);
		for (unsigned i = 0; i < JOBLOG_FIO_BINS; i += group) {
			uint64_t sum = 0;

			for (unsigned k = i; k < i + group && k < JOBLOG_FIO_BINS; k++)
				sum += r->bins[k];
			fprintf(f, ", %" PRIu64, sum);
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

void joblog_free(struct joblog *l)
{
	struct joblog_chunk *c = l->first, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	l->first = l->last = NULL;
}

void histlog_free(struct histlog *l)
{
	struct histlog_rec *r = l->first, *next;

	for (; r; r = next) {
		next = r->next;
		free(r);
	}
	l->first = l->last = NULL;
}
