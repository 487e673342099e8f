/*
 * exec: the job runs a program instead of I/O, as fio's engine: program= with arguments=
 * split at spaces, %r in them the runtime in seconds and %n the job's name; with
 * std_redirect its output goes to JOBNAME.stdout and JOBNAME.stderr in the current
 * directory. The program starts with the engine; the job lasts runtime=, each I/O (no
 * bytes) a look at the program every 50 ms. At the end a program still running gets
 * SIGTERM, grace_time seconds to exit, then SIGKILL.
 */
#include "engine/devices/path_guard.h"
#include "engine/ioengine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"

#define POLL_NS		(50 * NS_PER_MSEC)	/* fio's pause between looks at the program */
#define REAP_STEP_NS	(10 * NS_PER_MSEC)

extern char **environ;

struct exec_opts {
	const char *program;
	const char *arguments;
	unsigned grace_time;	/* seconds between SIGTERM and SIGKILL */
	bool std_redirect;
};

struct exec_state {
	char **argv;
	char *words;		/* the arguments, expanded, split in place */
	char out_path[PATH_MAX], err_path[PATH_MAX];
	pid_t pid;		/* 0: not started, -1: exited and reaped */
};

static const struct opt_def exec_options[] = {
	ENGINE_STR("exec", struct exec_opts, "program", program,
		   "the program to run (required; looked up in PATH)"),
	ENGINE_STR("exec", struct exec_opts, "arguments", arguments,
		   "its arguments, split at spaces: %r is the runtime in seconds, %n the job's "
		   "name"),
	ENGINE_UINT("exec", struct exec_opts, "grace_time", grace_time, "1", 0, 86400,
		    "seconds the program has to exit after SIGTERM, before SIGKILL"),
	ENGINE_BOOL_ARG("exec", struct exec_opts, "std_redirect", std_redirect, "1",
			"send its stdout and stderr to JOBNAME.stdout and JOBNAME.stderr"),
	{ NULL },
};

/* Append s to the buffer at *p (of end - *p bytes left); false when it does not fit. */
static bool put(char **p, const char *end, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(end - *p) <= n)
		return false;
	memcpy(*p, s, n + 1);
	*p += n;
	return true;
}

/* "program arguments" with %r and %n replaced, into out; -E2BIG when too long. */
static int expand(const struct ioengine *e, char *out, size_t len)
{
	const struct exec_opts *o = e->opts;
	const char *a = o->arguments ? o->arguments : "";
	char runtime[24], one[2] = { 0, 0 };
	char *p = out, *end = out + len;

	snprintf(runtime, sizeof(runtime), "%llu",
		 (unsigned long long)(e->job->runtime_ns / NS_PER_SEC));
	if (!put(&p, end, o->program) || !put(&p, end, " "))
		return -E2BIG;
	for (; *a; a++) {
		bool ok;

		if (a[0] == '%' && (a[1] == 'r' || a[1] == 'n')) {
			ok = put(&p, end, *++a == 'r' ? runtime : e->job->name);
		} else {
			one[0] = *a;
			ok = put(&p, end, one);
		}
		if (!ok)
			return -E2BIG;
	}
	return 0;
}

/* Split words at spaces, in place, into st->argv (ended by NULL). */
static int split(struct exec_state *st)
{
	unsigned n = 0;
	char *save, *w;

	st->argv = calloc(strlen(st->words) / 2 + 2, sizeof(*st->argv));
	if (!st->argv)
		return -ENOMEM;
	for (w = strtok_r(st->words, " ", &save); w; w = strtok_r(NULL, " ", &save))
		st->argv[n++] = w;
	return 0;
}

static void exec_cleanup(struct ioengine *e);
static int start_program(struct ioengine *e, struct exec_state *st);

static int exec_init(struct ioengine *e)
{
	const struct exec_opts *o = e->opts;
	struct exec_state *st;
	size_t len;
	int ret;

	if (!o->program || !o->program[0])
		return -EINVAL;
	/* each character of the arguments becomes at most the name or the runtime's digits */
	len = strlen(o->program) + 2 + (o->arguments ? strlen(o->arguments) : 0) *
	      (strlen(e->job->name) + 24);
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	e->priv = st;
	st->words = malloc(len);
	ret = st->words ? expand(e, st->words, len) : -ENOMEM;
	if (!ret)
		ret = split(st);
	if (!ret && (snprintf(st->out_path, sizeof(st->out_path), "%s.stdout", e->job->name) >=
		     (int)sizeof(st->out_path) ||
		     snprintf(st->err_path, sizeof(st->err_path), "%s.stderr", e->job->name) >=
		     (int)sizeof(st->err_path)))
		ret = -ENAMETOOLONG;
	if (!ret)
		ret = start_program(e, st);
	if (ret < 0)
		exec_cleanup(e);
	return ret;
}

static const char *exec_hint(int err)
{
	if (err == EINVAL)
		return "set program=, the program the job runs";
	return err == ENOENT || err == EACCES ? "program= names no program it can run" : NULL;
}

/* posix_spawn, not fork: the job is one thread of many, and the child only execs. */
static int start_program(struct ioengine *e, struct exec_state *st)
{
	const struct exec_opts *o = e->opts;
	posix_spawn_file_actions_t fa;
	int out = -1, err = -1, ret;
	char why[512];

	/* the child's files pass the guard of every output: opened here, handed over */
	if (o->std_redirect) {
		out = path_open(st->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));
		err = out < 0 ? out : path_open(st->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644,
						why, sizeof(why));
		if (err < 0) {
			if (out >= 0)
				close(out);
			return err;
		}
	}
	ret = posix_spawn_file_actions_init(&fa);
	if (!ret && out >= 0) {
		ret = posix_spawn_file_actions_adddup2(&fa, out, STDOUT_FILENO);
		if (!ret)
			ret = posix_spawn_file_actions_adddup2(&fa, err, STDERR_FILENO);
	}
	if (!ret)
		ret = posix_spawnp(&st->pid, st->argv[0], &fa, NULL, st->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (out >= 0) {
		close(out);
		close(err);
	}
	if (ret)
		st->pid = 0;
	return -ret;
}

static void pause_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / NS_PER_SEC), (long)(ns % NS_PER_SEC) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Whether the program has exited (and is reaped), looking once. */
static bool program_gone(struct exec_state *st)
{
	if (st->pid > 0 && waitpid(st->pid, NULL, WNOHANG) == st->pid)
		st->pid = -1;
	return st->pid <= 0;
}

static enum ioq_status exec_queue(struct ioengine *e, struct io_req *r)
{
	struct exec_state *st = e->priv;

	r->res = 0;
	if (r->dir >= IO_NDIR)	/* fsync=: nothing to sync, counted as fio counts it */
		return IOQ_DONE;
	program_gone(st);	/* reap it when it ends: the job still lasts runtime=, as in fio */
	pause_ns(POLL_NS);
	r->len = r->full_len = 0;	/* no bytes move */
	return IOQ_DONE;
}

/* SIGTERM, grace_time to exit, then SIGKILL; always reaped. */
static void stop_program(const struct exec_opts *o, struct exec_state *st)
{
	uint64_t waited = 0;

	if (program_gone(st))
		return;
	kill(st->pid, SIGTERM);
	while (waited < (uint64_t)o->grace_time * NS_PER_SEC && !program_gone(st)) {
		pause_ns(REAP_STEP_NS);
		waited += REAP_STEP_NS;
	}
	if (program_gone(st))
		return;
	kill(st->pid, SIGKILL);
	waitpid(st->pid, NULL, 0);
	st->pid = -1;
}

static void exec_cleanup(struct ioengine *e)
{
	struct exec_state *st = e->priv;

	if (!st)
		return;
	stop_program(e->opts, st);
	free(st->argv);
	free(st->words);
	free(st);
	e->priv = NULL;
}

const struct ioengine_ops exec_engine = {
	.name		= "exec",
	.flags		= IOENG_SYNC | IOENG_NOFILES | IOENG_NO_DATA | IOENG_TIMED,
	.help		= "no I/O: runs program= with arguments= for the job's runtime",
	.options	= exec_options,
	.options_size	= sizeof(struct exec_opts),
	.init		= exec_init,
	.init_hint	= exec_hint,
	.cleanup	= exec_cleanup,
	.queue		= exec_queue,
};
