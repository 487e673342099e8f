/*
 * fio's local trigger: --trigger-file (when the file appears, it is removed) or
 * --trigger-timeout (that long after the start) stops every job, as a signal does, and
 * runs the --trigger command. A thread watches, as fio's main loop does between sleeps.
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/prog_name.h"
#include "base/units.h"
#include "engine/devices/path_guard.h"
#include "engine/engine.h"

/* How often the file and the clock are looked at: fio's main loop sleeps 100 ms. */
#define TRIGGER_POLL_NS	(100 * NS_PER_MSEC)

static bool fired(struct cli_trigger *t, uint64_t now)
{
	struct stat st;
	char why[512];

	if (t->file && stat(t->file, &st) == 0) {
		/* what appeared under the name may be no file to remove (a device node) */
		if (path_guard(t->file, PATH_DELETE, why, sizeof(why)))
			fprintf(stderr, "%s: --trigger-file: fired, and '%s' is left: it %s\n",
				prog_name(), t->file, why);
		else if (unlink(t->file) < 0)
			fprintf(stderr, "%s: --trigger-file: cannot remove '%s': %s\n", prog_name(),
				t->file, strerror(errno));
		return true;
	}
	return t->timeout_ns && now - t->start_ns >= t->timeout_ns;
}

static void *watch(void *arg)
{
	struct cli_trigger *t = arg;
	struct timespec until;
	bool done = false;

	pthread_mutex_lock(&t->lock);
	while (!t->quit) {
		if (!done && fired(t, clock_mono_ns())) {
			done = true;
			if (t->cmd && *t->cmd && system(t->cmd) == -1)
				fprintf(stderr, "%s: --trigger: cannot run '%s'\n", prog_name(),
					t->cmd);
		}
		/* once fired, every job stops: those of later --sweep cells too */
		if (done && *t->running)
			run_stop(*t->running);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += TRIGGER_POLL_NS;
		until.tv_sec += until.tv_nsec / NS_PER_SEC;
		until.tv_nsec %= NS_PER_SEC;
		pthread_cond_timedwait(&t->wake, &t->lock, &until);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

int cli_trigger_start(struct cli_trigger *t, struct run *volatile *running)
{
	int ret;

	char why[512];

	if (!t->file && !t->timeout_ns)
		return 0;
	if (t->file && path_guard(t->file, PATH_DELETE, why, sizeof(why))) {
		fprintf(stderr, "%s: --trigger-file '%s': refusing to watch it, since it is "
			"removed when it fires: it %s\n", prog_name(), t->file, why);
		return -EPERM;
	}
	t->running = running;
	t->start_ns = clock_mono_ns();
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	ret = pthread_create(&t->thread, NULL, watch, t);
	if (ret) {
		fprintf(stderr, "%s: cannot watch for the trigger: %s\n", prog_name(),
			strerror(ret));
		return -ret;
	}
	t->started = true;
	return 0;
}

void cli_trigger_hold(struct cli_trigger *t)
{
	if (t->started)
		pthread_mutex_lock(&t->lock);
}

void cli_trigger_release(struct cli_trigger *t)
{
	if (t->started)
		pthread_mutex_unlock(&t->lock);
}

void cli_trigger_stop(struct cli_trigger *t)
{
	if (!t->started)
		return;
	pthread_mutex_lock(&t->lock);
	t->quit = true;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	t->started = false;
}
