/* A chart's subtitle: the options and the machine its runs had. */
#include "output/resultset/chart_workload.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/resultset/cmd_common.h"
#include "output/resultset/resultset_read.h"
#include "base/units.h"

#define MAX_VALUES	6	/* listed; more are "..." */

/* The keys, their defaults (a job file that leaves them out ran with those), and how shown. */
static const struct {
	const char *key, *dflt, *fmt;
} parts[] = {
	{ "rw", "read", "rw=%s" }, { "bs", "4k", "bs=%s" }, { "ioengine", "psync", "ioengine=%s" },
	{ "iodepth", "1", "iodepth=%s" }, { "numjobs", "1", "numjobs=%s" },
	{ "host", "", "; host %s" }, { "kernel", "", "; kernel %s" }, { "version", "", "; %s" },
};

static const char *value_or(const struct rs_unit *u, const char *key, const char *dflt)
{
	const char *v = rs_value(u->cell, u, key);

	return v && *v ? v : dflt;
}

/* The distinct values of key over the units, comma-separated. */
static void values_of(const struct rs_unit *const *u, size_t n, size_t k, char *buf,
		      size_t len)
{
	const char *seen[MAX_VALUES];
	unsigned ns = 0;
	bool more = false;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *v = value_or(u[i], parts[k].key, parts[k].dflt);
		unsigned j;

		for (j = 0; j < ns && strcmp(seen[j], v); j++)
			;
		if (j < ns)
			continue;
		if (ns == MAX_VALUES) {
			more = true;
			continue;
		}
		seen[ns++] = v;
		cmd_append(buf, len, "%s%s", ns > 1 ? "," : "", v);
	}
	if (more)
		cmd_append(buf, len, ",...");
}

void chart_workload(const struct rs_unit *const *u, size_t n, char *buf, size_t len)
{
	char values[256];

	buf[0] = '\0';
	for (size_t k = 0; k < ARRAY_SIZE(parts); k++) {
		values_of(u, n, k, values, sizeof(values));
		if (!*values)
			continue;
		if (*buf && parts[k].fmt[0] != ';')
			cmd_append(buf, len, ", ");
		cmd_append(buf, len, parts[k].fmt, values);
	}
}
