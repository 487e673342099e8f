/* --bandwidth-log: the jobs' bandwidth together, per direction (agg_bw_log.h). */
#include "engine/run/agg_bw_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/prog_name.h"
#include "base/units.h"
#include "engine/engine.h"

/* The bytes every job moved so far in each direction; false while one ramps up. */
static bool sum_bytes(const struct run *r, uint64_t bytes[IO_NDIR])
{
	memset(bytes, 0, IO_NDIR * sizeof(*bytes));
	for (unsigned i = 0; i < r->jobs->njobs; i++) {
		struct job_progress *p = &r->results[i].progress;

		if (atomic_load_explicit(&p->state, memory_order_acquire) == JOB_RAMPING)
			return false;
		for (int d = 0; d < IO_NDIR; d++)
			bytes[d] += atomic_load_explicit(&p->bytes[d], memory_order_relaxed);
	}
	return true;
}

void agg_bw_init(struct agg_bw_log *l, const struct run *r, uint64_t start_ns)
{
	memset(l, 0, sizeof(*l));
	l->window_ns = 500 * NS_PER_MSEC;
	for (unsigned i = 0; i < r->jobs->njobs; i++)
		if (r->jobs->jobs[i].bw_avg_ns && r->jobs->jobs[i].bw_avg_ns < l->window_ns)
			l->window_ns = r->jobs->jobs[i].bw_avg_ns;
	l->start_ns = l->last_ns = start_ns;
}

void agg_bw_tick(struct agg_bw_log *l, const struct run *r, uint64_t now)
{
	uint64_t bytes[IO_NDIR], ms = (now - l->last_ns) / NS_PER_MSEC;
	struct agg_bw_sample *s;

	if (now - l->last_ns < l->window_ns || !ms)
		return;
	if (!sum_bytes(r, bytes)) {
		l->last_ns = now;	/* the ramp's bytes are in no sample */
		memcpy(l->last_bytes, bytes, sizeof(bytes));
		return;
	}
	if (GROW_FOR(l->v, l->cap, l->n) < 0)
		return;		/* a sample lost to memory, the next window goes on */
	s = &l->v[l->n++];
	s->ms = (now - l->start_ns) / NS_PER_MSEC;
	for (int d = 0; d < IO_NDIR; d++)
		s->kib_s[d] = (bytes[d] - l->last_bytes[d]) * 1000 / ms / 1024;
	memcpy(l->last_bytes, bytes, sizeof(bytes));
	l->last_ns = now;
}

int agg_bw_write(const struct agg_bw_log *l, FILE *out)
{
	static const char *const names[IO_NDIR] = { "agg-read_bw.log", "agg-write_bw.log",
						    "agg-trim_bw.log" };

	for (int d = 0; d < IO_NDIR; d++) {
		FILE *f = fopen(names[d], "w");
		int err;

		if (!f) {
			err = errno;
			fprintf(out, "%s: --bandwidth-log: cannot write '%s': %s\n",
				prog_name(), names[d], strerror(err));
			return -err;
		}
		for (size_t i = 0; i < l->n; i++)
			fprintf(f, "%" PRIu64 ", %" PRIu64 ", %d, 0, 0\n", l->v[i].ms,
				l->v[i].kib_s[d], d);
		if (fclose(f)) {
			err = errno;
			fprintf(out, "%s: --bandwidth-log: cannot write '%s': %s\n",
				prog_name(), names[d], strerror(err));
			return -err;
		}
	}
	return 0;
}

void agg_bw_free(struct agg_bw_log *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
