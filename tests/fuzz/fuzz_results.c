/*
 * libFuzzer target for result sets: the input is parsed by the JSON reader (jv_parse) and
 * loaded as a result-set file (rs_load), and a set that loads runs through iojob report
 * and iojob compare (tables of several metrics, the seed shapes, SVG and HTML, written to
 * files in the working directory tests/fuzz/run.sh gives it: charts after the first go to
 * NAME-2.svg and on, which beside /dev/null would be files in /dev). Besides the
 * sanitizers (float-cast-overflow among them: a figure cast to an integer out of range),
 * it checks the reader's contract and that a failure leaves one line of message.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "output/resultset/commands.h"
#include "output/json_reader.h"
#include "output/resultset/resultset_read.h"
#include "base/diag.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS	8

static char path[64];		/* the memfd that holds the input, as a file name */
static int fd = -1;

/* The reports a set goes through; "@" stands for its file. */
static const char *const runs[][MAX_ARGS] = {
	{ "report", "@" },
	{ "report", "@", "--metric", "lat_p99", "--format", "csv" },
	{ "report", "@", "--metric", "write_bw_mib", "--cols", "none", "--format", "markdown" },
	{ "report", "@", "--metric", "util", "--format", "dokuwiki" },
	{ "report", "@", "--format", "sysbench" },
	{ "report", "@", "--format", "tiobench" },
	{ "report", "@", "--format", "xdd" },
	{ "report", "@", "--svg", "fuzz-out.svg", "--chart", "latency", "--html", "fuzz-out.html" },
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fd = memfd_create("fuzz.jsonl", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* the reports print to stdout; their messages (stderr) stay, as one line each */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

static void check_reader(const uint8_t *data, size_t size)
{
	struct jv_error at = { 0 };
	struct jv v;
	int ret;

	ret = jv_parse((const char *)data, size, &v, &at);
	if (ret == 0)
		jv_free(&v);
	else if ((ret != -EINVAL && ret != -ERANGE && ret != -ENOMEM) || at.at > size ||
		 !memchr(at.key, '\0', sizeof(at.key)))
		abort();
}

static void write_input(const uint8_t *data, size_t size)
{
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
}

static void run_reports(void)
{
	char *argv[MAX_ARGS + 1];
	int argc;

	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		for (argc = 0; argc < MAX_ARGS && runs[r][argc]; argc++)
			argv[argc] = (char *)(strcmp(runs[r][argc], "@") ? runs[r][argc] : path);
		argv[argc] = NULL;
		if (report_main(argc, argv) > 2)
			abort();
	}
	argv[0] = "compare";
	argv[1] = argv[2] = path;
	argv[3] = NULL;
	if (compare_main(3, argv) > 2)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rs_set set = { 0 };
	struct diag d = { 0 };
	int ret;

	check_reader(data, size);
	write_input(data, size);
	ret = rs_load(&set, path, &d);
	if (ret < 0 && (!d.msg[0] || strchr(d.msg, '\n')))
		abort();
	if (ret == 0)
		run_reports();
	rs_free(&set);
	diag_clear(&d);
	return 0;
}
