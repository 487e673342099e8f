/*
 * cpuio: no I/O, only CPU. Each I/O of the job is one cycle: cpuchunks microseconds busy
 * (spinning, or sorting a buffer with cpumode=qsort) and then idle for as long as keeps
 * the busy share at cpuload percent, as fio's engine does through its thinktime. The
 * cycles move no bytes; the job runs for runtime=. Here the idle part lies inside the
 * cycle, so an I/O's latency is the whole cycle (fio's is the busy part only).
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "base/units.h"

#define QSORT_INTS	(256u << 10)	/* fio sorts this many 32-bit numbers per cycle */

enum cpu_mode { CPU_NOOP, CPU_QSORT };

struct cpuio_opts {
	unsigned cpuload;	/* percent busy */
	unsigned cpuchunks;	/* microseconds busy per cycle */
	int cpumode;		/* enum cpu_mode */
};

struct cpuio_state {
	uint64_t busy_ns, idle_ns;
	int32_t *data;		/* qsort's numbers */
};

static const struct opt_enum cpumode_vals[] = {
	{ "noop", CPU_NOOP, "spin on the clock" },
	{ "qsort", CPU_QSORT, "sort 256Ki numbers four ways; cpuchunks follows how long it took" },
	{ NULL, 0, NULL },
};

static const struct opt_def cpuio_options[] = {
	ENGINE_UINT("cpuio", struct cpuio_opts, "cpuload", cpuload, "0", 0, 1000000,
		    "percent of a CPU to keep busy (required; above 100 counts as 100)"),
	ENGINE_UINT("cpuio", struct cpuio_opts, "cpuchunks", cpuchunks, "50000", 1, 1000000000,
		    "microseconds busy in each cycle"),
	ENGINE_ENUM("cpuio", struct cpuio_opts, "cpumode", cpumode, "noop", cpumode_vals,
		    "how the CPU is kept busy"),
	ENGINE_REFUSED("cpuio", "exit_on_io_done", "0", "iojob's jobs do not watch each other: "
		       "end the job with runtime=", "end when the I/O jobs are done"),
	{ NULL },
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Marsaglia's multiply-with-carry: the same numbers every run, as fio's. */
static void fill_numbers(int32_t *v, unsigned n)
{
	uint32_t w = 521288629u, z = 362436069u;

	for (unsigned i = 0; i < n; i++) {
		z = 36969 * (z & 65535) + (z >> 16);
		w = 18000 * (w & 65535) + (w >> 16);
		v[i] = (int32_t)((z << 16) + w);
	}
}

static int cpuio_init(struct ioengine *e)
{
	const struct cpuio_opts *o = e->opts;
	unsigned load = o->cpuload > 100 ? 100 : o->cpuload;
	struct cpuio_state *st;

	if (!load)
		return -EINVAL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->busy_ns = (uint64_t)o->cpuchunks * NS_PER_USEC;
	st->idle_ns = st->busy_ns * (100 - load) / load;
	if (o->cpumode == CPU_QSORT) {
		st->data = malloc(QSORT_INTS * sizeof(*st->data));
		if (!st->data) {
			free(st);
			return -ENOMEM;
		}
		fill_numbers(st->data, QSORT_INTS);
	}
	e->priv = st;
	return 0;
}

static const char *cpuio_hint(int err)
{
	return err == EINVAL ? "set cpuload=, the percent of a CPU to keep busy" : NULL;
}

static void cpuio_cleanup(struct ioengine *e)
{
	struct cpuio_state *st = e->priv;

	if (!st)
		return;
	free(st->data);
	free(st);
	e->priv = NULL;
}

static int cmp_up(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
	return cmp_up(b, a);
}

static int cmp_byte(const void *a, const void *b)
{
	return *(const int8_t *)a - *(const int8_t *)b;
}

/* fio's four sorts; the busy time is what they took, and the idle time follows it. */
static void burn_qsort(struct cpuio_state *st, unsigned load)
{
	uint64_t t0 = now_ns();

	qsort(st->data, QSORT_INTS, sizeof(*st->data), cmp_up);
	qsort(st->data, QSORT_INTS, sizeof(*st->data), cmp_down);
	qsort(st->data, QSORT_INTS * sizeof(*st->data), 1, cmp_byte);
	qsort(st->data, QSORT_INTS, sizeof(*st->data), cmp_down);
	st->busy_ns = now_ns() - t0;
	st->idle_ns = st->busy_ns * (100 - load) / load;
}

static void idle(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / NS_PER_SEC), (long)(ns % NS_PER_SEC) };

	while (ns && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static enum ioq_status cpuio_queue(struct ioengine *e, struct io_req *r)
{
	const struct cpuio_opts *o = e->opts;
	struct cpuio_state *st = e->priv;

	r->res = 0;
	if (r->dir >= IO_NDIR)	/* fsync=: nothing to sync, counted as fio counts it */
		return IOQ_DONE;
	if (o->cpumode == CPU_QSORT) {
		burn_qsort(st, o->cpuload > 100 ? 100 : o->cpuload);
	} else {
		uint64_t end = now_ns() + st->busy_ns;

		while (now_ns() < end)
			;
	}
	/* a stop ends it: at cpuload=1 it is 99 times the busy time */
	if (e->pause)
		e->pause(e->pause_ctx, st->idle_ns);
	else
		idle(st->idle_ns);
	r->len = r->full_len = 0;	/* a cycle, not a transfer: no bytes, as in fio */
	return IOQ_DONE;
}

const struct ioengine_ops cpuio_engine = {
	.name		= "cpuio",
	.flags		= IOENG_SYNC | IOENG_NOFILES | IOENG_NO_DATA | IOENG_TIMED,
	.help		= "no I/O: keeps cpuload percent of a CPU busy, in cycles of cpuchunks",
	.options	= cpuio_options,
	.options_size	= sizeof(struct cpuio_opts),
	.init		= cpuio_init,
	.init_hint	= cpuio_hint,
	.cleanup	= cpuio_cleanup,
	.queue		= cpuio_queue,
};
