/* The environment variables iojob reads, copied once at the first use of any of them. */
#include "base/env.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *const env_names[ENV_NVARS] = {
	[ENV_SYSFS_ROOT] = "IOJOB_SYSFS_ROOT",
	[ENV_CLOCK] = "IOJOB_CLOCK",
	[ENV_HOSTNAME] = "IOJOB_HOSTNAME",
};

/* Written once under env_once, before any reader sees it; kept until exit. */
static char *env_values[ENV_NVARS];
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void env_load(void)
{
	for (int v = 0; v < ENV_NVARS; v++) {
		const char *val = getenv(env_names[v]);

		/* a copy: a test's later setenv() must not change what this run saw */
		env_values[v] = val ? strdup(val) : NULL;
	}
}

const char *env_get(enum env_var v)
{
	pthread_once(&env_once, env_load);
	return v < ENV_NVARS ? env_values[v] : NULL;
}
