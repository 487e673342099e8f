/*
 * wait_for and exitall: jobs of one phase that start after others, and jobs that end
 * others. The runner's phases (stonewall) stay as they are; this acts within them.
 */
#include "engine/run/control.h"

#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/thread/wake.h"
#include "base/units.h"

/* How often a waiting job looks at whether it was told to stop (a signal, exitall). */
#define WAIT_POLL_NS	(10 * NS_PER_MSEC)

bool control_exitall(const struct run *r)
{
	for (unsigned i = 0; i < r->jobs->njobs; i++)
		if (r->jobs->jobs[i].exitall)
			return true;
	return false;
}

static bool told_to_stop(const struct run *r, unsigned i)
{
	return atomic_load(&r->stop) || atomic_load(&r->results[i].halt);
}

/* Until job k has ended or job i is told to stop; the waitee's end wakes it at once. */
static void wait_job(struct run *r, unsigned i, unsigned k)
{
	const struct timespec poll = { 0, (long)WAIT_POLL_NS };
	atomic_uint *ended = &r->results[k].ended;

	while (!atomic_load(ended) && !told_to_stop(r, i))
		syscall(SYS_futex, ended, FUTEX_WAIT_PRIVATE, 0, &poll, NULL, 0);
}

bool control_wait_for(struct run *r, unsigned i)
{
	const struct job_desc *j = &r->jobs->jobs[i];
	bool waited = false;

	if (!j->wait_for)
		return false;
	/* fio waits for every job of that name: the section's clones and passes */
	for (unsigned k = 0; k < r->jobs->njobs; k++) {
		const struct job_desc *o = &r->jobs->jobs[k];

		if (k == i || (int)o->section != j->wait_for_section || o->phase != j->phase)
			continue;
		if (!atomic_load(&r->results[k].ended))
			waited = true;
		wait_job(r, i, k);
	}
	return waited;
}

/*
 * Halt the jobs j's exit_what names. A group or the whole run is ended once, by the first
 * job to end it (with exitall every job's end would otherwise walk every job again).
 */
static void end_others(struct run *r, const struct job_desc *j)
{
	if (j->exit_what == EXIT_GROUP && atomic_exchange(&r->group_ended[j->groupid], true))
		return;
	if (j->exit_what == EXIT_ALL && atomic_exchange(&r->end_all, true))
		return;
	for (unsigned k = 0; k < r->jobs->njobs; k++) {
		const struct job_desc *o = &r->jobs->jobs[k];
		bool hit;

		switch (j->exit_what) {
		case EXIT_GROUP:
			hit = o->groupid == j->groupid;
			break;
		case EXIT_STONEWALL:
			/*
			 * fio's TERMINATE_STONEWALL ends the jobs running now; a job of the
			 * phase still setting up counts too, or it would run its whole runtime
			 * for having started a moment late
			 */
			hit = o->phase == j->phase;
			break;
		default:
			hit = true;
			break;
		}
		if (hit)
			atomic_store(&r->results[k].halt, true);
	}
	wake_all(&r->wake);	/* the halted jobs' pauses end now */
}

void control_job_ended(struct run *r, unsigned i)
{
	const struct job_desc *j = &r->jobs->jobs[i];
	struct job_result *res = &r->results[i];

	/* as fio, every job's end counts once any job set exitall */
	if (r->exitall || (j->exitall_on_error && res->error))
		end_others(r, j);
	atomic_store(&res->ended, 1);
	syscall(SYS_futex, &res->ended, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}
