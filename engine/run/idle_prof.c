/* --idle-prof: each CPU's idle share, from a pinned idle-class thread's work (idle_prof.h). */
#include "engine/run/idle_prof.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * The fastest of CALIBRATE_RUNS timings of CALIBRATE_UNITS units is the unit's time, as in
 * fio; one CPU at a time, unlike fio: two CPUs that share a core (hyperthreads, a VM's
 * vCPUs) each run the unit at about half speed while the other works, which made the
 * calibrated unit slower than the same unit on a CPU whose sibling idles, and idleness
 * read above 100% (measured here: 7.8 us a unit against 11 to 28 calibrated, 288%).
 * Shorter timings than fio's 1000 units keep the serial calibration short on many CPUs.
 */
#define CALIBRATE_RUNS	10
#define CALIBRATE_UNITS	100

enum idle_phase { PHASE_CALIBRATE, PHASE_PROFILE, PHASE_STOP };

struct idle_cpu {
	struct idle_prof *ip;
	pthread_t thread;
	bool started;
	unsigned cpu;
	unsigned char *page;
	double unit_us;			/* the calibrated time of one unit */
	double units;			/* done under SCHED_IDLE, in whole and part units */
	uint64_t t0_ns, t1_ns;		/* the profile's start and end on this thread */
};

struct idle_prof {
	enum report_idle_mode mode;
	unsigned ncpus;
	size_t page_size;
	struct idle_cpu *cpus;
	double *pct;
	_Atomic int phase;
	pthread_mutex_t calibrating;	/* one CPU calibrates at a time */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned calibrated;		/* threads done calibrating (under lock) */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * One unit of work: every byte of the page written, the stop looked at between bytes as
 * fio does (a unit is short, but the end must not wait for it). false once stopped, with
 * *done the part of the unit that was.
 */
static bool unit(struct idle_cpu *c, size_t shift, double *done)
{
	size_t n = c->ip->page_size;

	for (size_t k = 0; k < n; k++) {
		c->page[(k + shift) % n] = (unsigned char)k;
		if (atomic_load_explicit(&c->ip->phase, memory_order_relaxed) == PHASE_STOP) {
			*done = (double)k / (double)n;
			return false;
		}
	}
	return true;
}

static void calibrate(struct idle_cpu *c)
{
	double best = 0.0, part;

	for (unsigned i = 0; i < CALIBRATE_RUNS; i++) {
		uint64_t t0 = now_ns(), us;

		for (size_t j = 0; j < CALIBRATE_UNITS; j++)
			if (!unit(c, j, &part))
				return;
		us = (now_ns() - t0) / 1000;
		if (us && (best == 0.0 || (double)us < best))
			best = (double)us;
	}
	c->unit_us = best / CALIBRATE_UNITS;
}

static void *idle_thread(void *arg)
{
	struct idle_cpu *c = arg;
	struct idle_prof *ip = c->ip;
	struct sched_param sp = { 0 };
	cpu_set_t set;
	double part = 0.0;
	size_t j = 0;

	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	/* a CPU this process may not use (a cpuset) stays unpinned: its share is then a guess */
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_mutex_lock(&ip->calibrating);
	calibrate(c);
	pthread_mutex_unlock(&ip->calibrating);
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
	pthread_mutex_lock(&ip->lock);
	ip->calibrated++;
	pthread_cond_broadcast(&ip->cond);
	while (atomic_load(&ip->phase) == PHASE_CALIBRATE)
		pthread_cond_wait(&ip->cond, &ip->lock);
	pthread_mutex_unlock(&ip->lock);
	if (atomic_load(&ip->phase) == PHASE_STOP || ip->mode == REPORT_IDLE_CALIBRATE)
		return NULL;
	c->t0_ns = now_ns();
	while (unit(c, j, &part))
		j++;
	c->t1_ns = now_ns();
	c->units = (double)j + part;
	return NULL;
}

static void join_all(struct idle_prof *ip)
{
	pthread_mutex_lock(&ip->lock);
	atomic_store(&ip->phase, PHASE_STOP);
	pthread_cond_broadcast(&ip->cond);
	pthread_mutex_unlock(&ip->lock);
	for (unsigned i = 0; i < ip->ncpus; i++)
		if (ip->cpus[i].started)
			pthread_join(ip->cpus[i].thread, NULL);
}

void idle_prof_free(struct idle_prof *ip)
{
	if (!ip)
		return;
	if (atomic_load(&ip->phase) != PHASE_STOP)
		join_all(ip);
	for (unsigned i = 0; i < ip->ncpus; i++)
		free(ip->cpus[i].page);
	free(ip->cpus);
	free(ip->pct);
	pthread_mutex_destroy(&ip->calibrating);
	pthread_mutex_destroy(&ip->lock);
	pthread_cond_destroy(&ip->cond);
	free(ip);
}

static int start_threads(struct idle_prof *ip)
{
	for (unsigned i = 0; i < ip->ncpus; i++) {
		struct idle_cpu *c = &ip->cpus[i];
		int err;

		c->ip = ip;
		c->cpu = i;
		c->page = calloc(1, ip->page_size);
		if (!c->page)
			return -ENOMEM;
		err = pthread_create(&c->thread, NULL, idle_thread, c);
		if (err)
			return -err;
		c->started = true;
	}
	return 0;
}

int idle_prof_start(enum report_idle_mode mode, struct idle_prof **out)
{
	struct idle_prof *ip = calloc(1, sizeof(*ip));
	long conf = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
	int ret;

	*out = NULL;
	if (!ip)
		return -ENOMEM;
	ip->mode = mode;
	ip->ncpus = conf > 0 ? (unsigned)conf : 1;	/* fio's: the CPUs configured */
	ip->page_size = page > 0 ? (size_t)page : 4096;
	atomic_init(&ip->phase, PHASE_CALIBRATE);
	pthread_mutex_init(&ip->calibrating, NULL);
	pthread_mutex_init(&ip->lock, NULL);
	pthread_cond_init(&ip->cond, NULL);
	ip->cpus = calloc(ip->ncpus, sizeof(*ip->cpus));
	ip->pct = calloc(ip->ncpus, sizeof(*ip->pct));
	ret = ip->cpus && ip->pct ? start_threads(ip) : -ENOMEM;
	if (ret < 0) {
		idle_prof_free(ip);
		return ret;
	}
	/* the jobs start once every CPU is calibrated, so that they do not slow it */
	pthread_mutex_lock(&ip->lock);
	while (ip->calibrated < ip->ncpus)
		pthread_cond_wait(&ip->cond, &ip->lock);
	atomic_store(&ip->phase, PHASE_PROFILE);
	pthread_cond_broadcast(&ip->cond);
	pthread_mutex_unlock(&ip->lock);
	*out = ip;
	return 0;
}

void idle_prof_stop(struct idle_prof *ip, struct report_idle *res)
{
	double sum = 0.0, var = 0.0, mean;

	join_all(ip);
	for (unsigned i = 0; i < ip->ncpus; i++)
		sum += ip->cpus[i].unit_us;
	mean = sum / ip->ncpus;
	for (unsigned i = 0; i < ip->ncpus; i++)
		var += (ip->cpus[i].unit_us - mean) * (ip->cpus[i].unit_us - mean);
	memset(res, 0, sizeof(*res));
	res->mode = ip->mode;
	res->ncpus = ip->ncpus;
	res->cpu_pct = ip->pct;
	res->unit_mean_us = mean;
	/* the sample deviation over the CPUs, as fio's (one CPU: 0, not 0/0) */
	res->unit_stddev_us = ip->ncpus > 1 ? sqrt(var / (ip->ncpus - 1)) : 0.0;
	for (unsigned i = 0; i < ip->ncpus; i++) {
		const struct idle_cpu *c = &ip->cpus[i];
		double us = (double)(c->t1_ns - c->t0_ns) / 1000.0;

		ip->pct[i] = us >= 1.0 && mean > 0.0 ? 100.0 * c->units * mean / us : 0.0;
		res->system_pct += ip->pct[i] / ip->ncpus;
	}
}
