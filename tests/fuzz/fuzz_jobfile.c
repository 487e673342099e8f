/*
 * libFuzzer target for job files: the input is parsed as a job file
 * (jobfile_parse_string) and built into jobs (jobs_build) with this build's engine
 * catalog, as `iojob --parse-only` does. Besides the sanitizers, it checks that every
 * failure leaves one line of message and that every job built is sound.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "jobs/jobs.h"
#include "base/diag.h"
#include "parser/jobfile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct engine_info engines[IOENGINE_MAX];
static unsigned nengines;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	nengines = engine_catalog(engines, IOENGINE_MAX);
	/* Variables a seed may name; the fuzzer finds the unset ones on its own. */
	setenv("IOJOB_FUZZ_SIZE", "64k", 1);
	setenv("IOJOB_FUZZ_RW", "randread", 1);
	return 0;
}

/*
 * include reads files: only relative names are fuzzed (run.sh starts the fuzzer in a
 * directory of small job files), so that /dev/zero or a FIFO cannot stall a run.
 */
static bool includes_outside(const char *text)
{
	return strstr(text, "include") && (strchr(text, '/') || strstr(text, ".."));
}

static void check_message(const struct diag *d)
{
	if (!d->msg[0] || strchr(d->msg, '\n'))
		abort();
}

static void check_job(const struct job_desc *j, const struct job_list *l)
{
	if (!j->name || !j->ioengine || !j->iodepth || !j->numjobs || !j->kb_base)
		abort();
	if ((int)j->phase >= (int)l->nphases || j->groupid < 0 || j->groupid >= l->ngroups)
		abort();
	if (j->iodepth_batch_submit > j->iodepth || j->iodepth_low > j->iodepth ||
	    j->iodepth_batch_complete_min > j->iodepth_batch_complete_max)
		abort();
	for (int dir = 0; dir < IO_NDIR; dir++)
		if (j->bs[dir].min > j->bs[dir].max || j->bs[dir].nsplit > JOB_MAX_BSSPLIT)
			abort();
	if (j->filesize.lo > j->filesize.hi || j->npercentiles > JOB_MAX_PCT)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jobfile jf = { 0 };
	struct diag d = { 0 };
	struct job_list jobs;
	struct job_input in = {
		.jf = &jf,
		.cli_defaults = -1,
		.engines = engines,
		.nengines = nengines,
	};
	char *text;
	int ret;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (includes_outside(text))
		goto out;
	ret = jobfile_parse_string(&jf, "fuzz.fio", text, &d);
	if (ret == 0) {
		ret = jobs_build(&in, &jobs, &d);
		for (unsigned i = 0; ret == 0 && i < jobs.njobs; i++)
			check_job(&jobs.jobs[i], &jobs);
		if (ret == 0)
			jobs_free(&jobs);
	}
	if (ret < 0)
		check_message(&d);
	else if (ret > 0)
		abort();
out:
	diag_clear(&d);
	jobfile_free(&jf);
	free(text);
	return 0;
}
