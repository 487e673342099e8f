/*
 * The environment variables iojob itself reads, in one table and each read once: the first
 * env_get() takes a copy of them all, so a run sees one value throughout and no loop calls
 * getenv(). Variables a job file names as ${VAR} are the job file's (parser/jobfile.c).
 */
#ifndef BASE_ENV_H
#define BASE_ENV_H

enum env_var {
	ENV_SYSFS_ROOT,		/* IOJOB_SYSFS_ROOT: a fake sysfs tree for the reports (tests) */
	ENV_CLOCK,		/* IOJOB_CLOCK: "gettime" times I/O with clock_gettime */
	ENV_HOSTNAME,		/* IOJOB_HOSTNAME: the host an MPI rank names (tests) */
	ENV_NVARS,
};

/* The variable's value when env_get() was first called, or NULL when it was unset. */
const char *env_get(enum env_var v);

#endif
