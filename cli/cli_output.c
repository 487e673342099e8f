/*
 * The report file and the result set: checked and opened before anything runs (never one
 * file, never a FIFO without a reader, always through the guard of every output), emptied
 * once a cell's jobs start, and closed with every failed write said.
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/same_file.h"
#include "engine/devices/path_guard.h"
#include "engine/dist/dist.h"
#include "output/resultset_write.h"
#include "output/stream.h"

/* The first cell whose jobs start empties --output (as fopen "w" would have). */
void cli_use_output(struct cli *c, FILE *out)
{
	if (out == stdout || c->out_used)
		return;
	c->out_used = true;
	if (ftruncate(fileno(out), 0) < 0)
		return;	/* a pipe or a device: nothing to empty */
}

/*
 * --output and --results naming one file (however spelled, or linked) would each write
 * over the other: the report truncates what the cells append. A path that cannot be
 * resolved is left to its open, which says why.
 */
static int distinct_outputs(const struct cli *c, struct diag *d)
{
	struct stat out, res;

	if (!c->results)
		return 0;
	if (c->output && same_file_test(c->output, c->results) == 1)
		return diag_set(d, -EINVAL, "--output '%s' and --results '%s' are one file: the "
				"report would write over the result set", c->output, c->results);
	/* the report on stdout, which the shell sent to the result set ("> r.jsonl") */
	if (!c->output && fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) &&
	    stat(c->results, &res) == 0 && out.st_dev == res.st_dev && out.st_ino == res.st_ino)
		return diag_set(d, -EINVAL, "stdout and --results '%s' are one file: the report "
				"would write over the result set", c->results);
	return 0;
}

/*
 * The report file as fopen(path, "w") opens it, except that a FIFO with no reader is
 * refused instead of waited on: fio blocks there, before anything runs and with no word.
 * A pipe with a reader (/dev/stdout, /dev/fd/N, >(cmd)) opens as before.
 */
static FILE *open_report_file(const char *path, bool *created, struct diag *d)
{
	const int flags = O_WRONLY | O_NONBLOCK;
	char why[512];
	struct stat st;
	FILE *f = NULL;
	int fd, err;

	/*
	 * through the guard of every output (no device, pseudo file system or loop's file);
	 * not emptied yet: a run refused before its jobs start leaves the file as it was
	 */
	fd = path_open(path, flags | O_CREAT | O_EXCL, 0666, why, sizeof(why));
	*created = fd >= 0;
	if (fd == -EEXIST)
		fd = path_open(path, flags, 0666, why, sizeof(why));
	err = fd < 0 ? -fd : 0;

	/* ENXIO: a FIFO without a reader, or a socket (which no open() reaches) */
	if (err == ENXIO && stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
		diag_set(d, -ENXIO, "--output '%s': a FIFO with no reader (start its reader "
			 "first)", path);
		return NULL;
	}
	/* the reports' writes wait for the reader, as fopen()'s would */
	if (fd >= 0 && (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 ||
			!(f = fdopen(fd, "w")))) {
		err = errno;
		snprintf(why, sizeof(why), "%s", strerror(err));
		close(fd);
	}
	if (err) {
		diag_set(d, -err, "--output '%s': %s", path, why);
		return NULL;
	}
	return f;
}

/*
 * The result set and the report file, opened before anything runs: a path that cannot
 * be written stops the run now, not after it (where fio finds out). Only the root writes.
 */
int cli_open_outputs(struct cli *c, FILE **out, struct diag *d)
{
	FILE *f;
	int ret;

	if (!dist_root(c->dist))
		return 0;
	if ((ret = distinct_outputs(c, d)) < 0)
		return ret;
	if (c->results && (ret = resultset_check(c->results, d)) < 0)
		return ret;
	if (!c->output)
		return 0;
	f = open_report_file(c->output, &c->output_created, d);
	if (!f)
		return -EINVAL;
	*out = f;
	return 0;
}

/*
 * The end of a report stream: a report that could not be written fails the run (fio
 * exits 0 with it lost). who is "iojob" or "iojob report"; path NULL for stdout.
 */
int cli_finish_output(FILE *f, const char *path, const char *who, int ret)
{
	int err = stream_finish(f, f != stdout);

	if (!err)
		return ret;
	if (path)
		fprintf(stderr, "%s: cannot write the report to '%s': %s\n", who, path,
			strerror(-err));
	else
		fprintf(stderr, "%s: cannot write the report to stdout: %s\n", who,
			strerror(-err));
	return ret ? ret : EXIT_JOB_FAILED;
}
