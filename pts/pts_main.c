/* iojob pts: the plan read, the suite run, its report written; a signal stops the suite. */
#include "pts/pts.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/exit_code.h"
#include "engine/engine.h"
#include "pts/pts_priv.h"

/* The signal handler can only reach the suite through a pointer it finds on its own. */
static struct pts_state *volatile suite;

static void on_signal(int sig)
{
	struct pts_state *st = suite;
	struct run *r;

	signal(sig, SIG_DFL);	/* a second signal ends the process at once */
	if (!st)
		return;
	st->stopped_by = sig;
	r = st->running;
	if (r)
		atomic_store(&r->stop, true);
}

int pts_main(int argc, char **argv)
{
	struct pts_plan *p = calloc(1, sizeof(*p));
	struct pts_state st = { 0 };
	int ret;

	if (!p) {
		fprintf(stderr, "iojob pts: out of memory\n");
		return EXIT_JOB_FAILED;
	}
	ret = pts_parse(p, argc, argv);
	if (ret == EXIT_GO_ON) {
		suite = &st;
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		ret = pts_suite_run(p, &st);
		if (st.stopped_by)
			fprintf(stderr, "iojob pts: stopped by signal %d: the report shows the "
				"rounds kept\n", (int)st.stopped_by);
		/* whatever ran is kept and reported; a refusal before any cell ran has nothing */
		if (ret != EXIT_USAGE && pts_write_report(p) && !ret)
			ret = EXIT_JOB_FAILED;
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		suite = NULL;
	}
	pts_plan_free(p);
	free(p);
	return ret;
}
