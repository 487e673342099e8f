/*
 * The jobs module: sections of job files (and the command line) to job descriptors.
 * [global] sections give defaults to the jobs below them in the same file, numjobs
 * clones a job, stonewall and new job files start new phases and groups.
 */
#ifndef JOBS_JOBS_H
#define JOBS_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "jobs/job.h"
#include "jobs/options.h"

struct diag;
struct jobfile;
struct arena;

struct job_override {		/* --set KEY=VALUE, or a --sweep cell's value */
	const char *key;
	const char *value;
	const char *origin;	/* "--set" or "--sweep": where messages say it came from */
};

struct job_input {
	const struct jobfile *jf;
	long cli_defaults;		/* section with options before the first --name, or -1 */
	const struct job_override *sets;
	unsigned nsets;
	const char *const *sections;	/* --section: run only these, NULL = all */
	unsigned nsections;
	const struct engine_info *engines;
	unsigned nengines;
	bool check_paths;		/* check that directory= exists (not with --parse-only) */
	/* $rank, $nranks and $host in filename, directory and filename_format */
	int rank, nranks;		/* this process's rank of nranks (0 of 1 alone) */
	const char *host;
	bool readonly;			/* --readonly: refuse jobs that write, trim or delete */
	/*
	 * Run as fio: a size with text after it that fio's parser stops before ("65536)",
	 * as in fio's own t/strided.py) is read as fio reads it, with a note. Under either
	 * name a range of more values than two, or with text after one ("16-8k/8M-512M"), is.
	 */
	bool fio_sizes;
};

/* Jobs in one run, clones included: as many as one section's numjobs may ask for. */
#define JOBS_MAX	65536

struct job_list {
	struct arena *arena;	/* owns what the descriptors point to */
	struct job_desc *jobs;
	unsigned njobs;
	unsigned nphases;
	int ngroups;
};

/*
 * Build every job of the input. Returns 0, or -EINVAL with d naming the file, line,
 * option and what was expected. Notes (warnings) are appended to d.
 */
int jobs_build(const struct job_input *in, struct job_list *out, struct diag *d);

/* Free what jobs_build() made. */
void jobs_free(struct job_list *l);

/* The engine_info for a name, or NULL. */
const struct engine_info *jobs_engine(const struct job_input *in, const char *name);

#endif
