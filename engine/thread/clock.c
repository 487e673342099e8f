/* Choosing and calibrating the I/O path's clock. */
#include "engine/thread/clock.h"

#include <fcntl.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "base/env.h"
#include "base/sysfs.h"
#include "base/units.h"

/*
 * The TSC is timed against CLOCK_MONOTONIC for 20 ms: long enough that the jitter of the
 * two reads at its ends is a few parts per million of the rate, short enough for every start.
 */
#define CALIBRATE_NS	20000000ULL

/* The kernel only uses the TSC as its clocksource when it found it synchronized. */
static bool kernel_trusts_tsc(void)
{
	char path[128], buf[32];

	if (sysfs_path(path, sizeof(path), SYSFS_REAL,
		       "devices/system/clocksource/clocksource0/current_clocksource") < 0 ||
	    sysfs_read(AT_FDCWD, path, buf, sizeof(buf)) < 0)
		return false;
	return !strncmp(buf, "tsc", 3);
}

static bool tsc_invariant(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000007, &a, &b, &c, &d))
		return false;
	return d & (1u << 8);
#else
	return false;
#endif
}

static void use_gettime(struct clock_src *c, const char *why)
{
	c->tsc = false;
	c->mult = 1ULL << 32;	/* ticks are ns: clock_to_ns() multiplies by one */
	c->hz = NS_PER_SEC;
	c->name = "clock_gettime";
	c->why = why;
}

void clock_init(struct clock_src *c, enum clock_pick pick)
{
	const char *env = env_get(ENV_CLOCK);
	uint64_t t0, t1, c0, c1;

	if (env && !strcmp(env, "gettime"))
		return use_gettime(c, "IOJOB_CLOCK=gettime");
	if (pick == CLOCK_PICK_GETTIME)
		return use_gettime(c, "clocksource=clock_gettime");
	if (!tsc_invariant())
		return use_gettime(c, "the CPU has no invariant TSC");
	if (pick == CLOCK_PICK_AUTO && !kernel_trusts_tsc())
		return use_gettime(c, "the kernel does not use the TSC as its clock");
	c->tsc = true;
	t0 = clock_mono_ns();
	c0 = clock_ticks(c);
	do
		t1 = clock_mono_ns();
	while (t1 - t0 < CALIBRATE_NS);
	c1 = clock_ticks(c);
	c->hz = (uint64_t)((double)(c1 - c0) * 1e9 / (double)(t1 - t0));
	if (c->hz < 100000000ULL)
		return use_gettime(c, "the TSC runs too slowly to trust");
	c->mult = (uint64_t)((1e9 * 4294967296.0) / (double)c->hz);
	c->name = "tsc";
	c->why = NULL;
}
