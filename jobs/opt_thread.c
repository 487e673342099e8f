/* Parsers and rules of the options that set up a job's thread: CPUs, NUMA and identity. */
#include "jobs/opt_thread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"

#define CPU_LIMIT	(JOB_CPU_WORDS * 64)

/* The CPUs this machine has (online or not), as fio checks them; at most CPU_LIMIT. */
static long machine_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n < 1 ? 1 : n > CPU_LIMIT ? CPU_LIMIT : n;
}

/* A decimal number at *s, moved past; -1 if none. */
static long take_number(const char **s)
{
	long v = 0;

	if (**s < '0' || **s > '9')
		return -1;
	while (**s >= '0' && **s <= '9' && v <= 1L << 20)
		v = v * 10 + *(*s)++ - '0';
	return v;
}

/*
 * Walk a list of numbers and ranges ("0-3,8", blanks around items allowed), calling add()
 * for each range. Returns 0, or -EINVAL with why[] saying where it went wrong.
 */
static int walk_list(const char *val, int (*add)(void *ctx, long lo, long hi, char *why,
						 size_t whylen),
		     void *ctx, char *why, size_t whylen)
{
	const char *s = val;
	long lo, hi;
	int ret;

	do {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s && s != val)
			break;		/* "0,1,": fio stops at an empty item */
		lo = hi = take_number(&s);
		if (lo >= 0 && *s == '-') {
			s++;
			hi = take_number(&s);
		}
		while (*s == ' ' || *s == '\t')
			s++;
		if (lo < 0 || hi < 0 || (*s && *s != ',')) {
			snprintf(why, whylen, "'%s' is not a list of numbers and ranges (0-3,8)",
				 val);
			return -EINVAL;
		}
		if (hi < lo) {
			snprintf(why, whylen, "range %ld-%ld runs backwards (write %ld-%ld)",
				 lo, hi, hi, lo);
			return -EINVAL;
		}
		ret = add(ctx, lo, hi, why, whylen);
		if (ret)
			return ret;
	} while (*s++ == ',');
	return 0;
}

/* Where a CPU list goes: a mask of JOB_CPU_WORDS words, and the count of CPUs in it. */
struct cpu_set_out {
	uint64_t *mask;
	unsigned n;
};

static int add_cpus(void *ctx, long lo, long hi, char *why, size_t whylen)
{
	struct cpu_set_out *out = ctx;
	long max = machine_cpus();

	if (hi >= max) {
		snprintf(why, whylen, "CPU %ld is past this machine's last, %ld", hi, max - 1);
		return -ERANGE;
	}
	for (long c = lo; c <= hi; c++) {
		uint64_t bit = 1ULL << (c % 64);

		if (!(out->mask[c / 64] & bit))
			out->n++;
		out->mask[c / 64] |= bit;
	}
	return 0;
}

int opt_cpu_list(const char *val, uint64_t mask[JOB_CPU_WORDS], unsigned *count, char *why,
		 size_t whylen)
{
	struct cpu_set_out out = { mask, 0 };
	int ret;

	memset(mask, 0, sizeof(uint64_t) * JOB_CPU_WORDS);
	ret = walk_list(val, add_cpus, &out, why, whylen);
	if (count)
		*count = out.n;
	return ret;
}

int opt_verify_async_cpus_parse(const struct opt_ctx *ctx, const char *val, void *dst,
				char *why, size_t whylen)
{
	(void)ctx;
	return opt_cpu_list(val, ((struct job_desc *)dst)->verify_async_cpus, NULL, why, whylen);
}

int opt_log_cpus_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen)
{
	struct job_cpus *c = &((struct job_desc *)dst)->log_compression_cpus;

	(void)ctx;
	c->set = true;
	return opt_cpu_list(val, c->mask, NULL, why, whylen);
}

int opt_cpus_allowed_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			   size_t whylen)
{
	struct job_desc *j = dst;

	(void)ctx;
	/* the last of cpus_allowed= and cpumask= wins, as in fio */
	return opt_cpu_list(val, j->cpus_allowed, &j->ncpus_allowed, why, whylen);
}

int opt_cpumask_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen)
{
	struct job_desc *j = dst;
	unsigned long long mask;
	char *end;

	(void)ctx;
	errno = 0;
	mask = strtoull(val, &end, 0);
	if (val[0] < '0' || val[0] > '9' || *end || errno) {
		snprintf(why, whylen, "'%s' is not a bit mask of CPUs (34: CPUs 1 and 5)", val);
		return -EINVAL;
	}
	if (!mask) {
		snprintf(why, whylen, "the mask names no CPU");
		return -EINVAL;
	}
	struct cpu_set_out out = { j->cpus_allowed, 0 };

	memset(j->cpus_allowed, 0, sizeof(j->cpus_allowed));
	for (long c = 0; c < 64; c++) {
		int ret;

		if (!(mask >> c & 1))
			continue;
		ret = add_cpus(&out, c, c, why, whylen);
		if (ret)
			return ret;
	}
	j->ncpus_allowed = out.n;
	return 0;
}

static int any_range(void *ctx, long lo, long hi, char *why, size_t whylen)
{
	(void)ctx, (void)lo, (void)hi, (void)why, (void)whylen;
	return 0;
}

bool opt_id_list_valid(const char *s)
{
	char why[128];

	/* libnuma's forms: "!" for the nodes not listed, "+" for nodes of the cpuset's */
	s += *s == '!';
	s += *s == '+';
	return !strcmp(s, "all") || walk_list(s, any_range, NULL, why, sizeof(why)) == 0;
}

int opt_numa_cpu_nodes_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			     size_t whylen)
{
	struct job_desc *j = dst;

	if (!opt_id_list_valid(val)) {
		snprintf(why, whylen, "'%s' is not 'all' or a list of nodes and ranges (0,2-3)",
			 val);
		return -EINVAL;
	}
	j->numa_cpu_nodes = arena_strdup(ctx->arena, val);
	return j->numa_cpu_nodes ? 0 : -ENOMEM;
}

static const struct opt_enum mem_modes[] = {
	{ "default", NUMA_MEM_DEFAULT, NULL },
	{ "prefer", NUMA_MEM_PREFER, NULL },
	{ "bind", NUMA_MEM_BIND, NULL },
	{ "interleave", NUMA_MEM_INTERLEAVE, NULL },
	{ "local", NUMA_MEM_LOCAL, NULL },
	{ NULL },
};

/* Whether the nodes suit the mode; why[] says what it takes otherwise. */
static int check_mem_nodes(int mode, const char *name, const char *nodes, char *why,
			   size_t whylen)
{
	switch (mode) {
	case NUMA_MEM_PREFER:
		if (nodes && nodes[0] && strspn(nodes, "0123456789") == strlen(nodes))
			return 0;
		snprintf(why, whylen, "'prefer' takes one node (prefer:0)");
		return -EINVAL;
	case NUMA_MEM_BIND:
	case NUMA_MEM_INTERLEAVE:
		if (!nodes && mode == NUMA_MEM_INTERLEAVE)
			return 0;	/* every node, as fio */
		if (nodes && opt_id_list_valid(nodes))
			return 0;
		snprintf(why, whylen, "'%s' takes 'all' or a list of nodes (%s:0-1)", name, name);
		return -EINVAL;
	default:
		if (!nodes)
			return 0;
		snprintf(why, whylen, "'%s' takes no nodes", name);
		return -EINVAL;
	}
}

int opt_numa_mem_policy_parse(const struct opt_ctx *ctx, const char *val, void *dst,
			      char *why, size_t whylen)
{
	struct job_desc *j = dst;
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	const char *nodes = colon ? colon + 1 : NULL;
	const struct opt_enum *m;
	int ret;

	for (m = mem_modes; m->name; m++)
		if (strlen(m->name) == len && !strncmp(m->name, val, len))
			break;
	if (!m->name) {
		snprintf(why, whylen, "'%.*s' is not a memory policy (default, prefer, bind, "
			 "interleave or local)", (int)len, val);
		return -EINVAL;
	}
	ret = check_mem_nodes(m->value, m->name, nodes, why, whylen);
	if (ret)
		return ret;
	j->numa_mem_mode = m->value;
	j->numa_mem_nodes = NULL;
	if (m->value == NUMA_MEM_INTERLEAVE && !nodes)
		nodes = "all";
	if (nodes && !(j->numa_mem_nodes = arena_strdup(ctx->arena, nodes)))
		return -ENOMEM;
	return 0;
}

void job_cpus_for(const struct job_desc *j, uint64_t out[JOB_CPU_WORDS])
{
	unsigned pick, seen = 0;

	memcpy(out, j->cpus_allowed, sizeof(j->cpus_allowed));
	if (!j->cpus_allowed_split || !j->ncpus_allowed)
		return;
	/* fio numbers the jobs of the whole run: job N takes the (N mod count)-th CPU */
	pick = j->index % j->ncpus_allowed;
	for (unsigned c = 0; c < CPU_LIMIT; c++) {
		uint64_t bit = 1ULL << (c % 64);

		if (!(out[c / 64] & bit))
			continue;
		if (seen++ != pick)
			out[c / 64] &= ~bit;
	}
}

/* The job's error at the line that set opt; why is the whole message after the name. */
static int fail(const struct job_desc *j, const char *opt, struct diag *d, const char *why)
{
	return job_fail(j, opt, d, "%s", why);
}

int job_check_thread(const struct job_desc *j, struct diag *d)
{
	if (!j->cgroup && job_setting(j, "cgroup_weight"))
		return fail(j, "cgroup_weight", d, "it weighs the job's cgroup, and the job "
			    "names none (cgroup=)");
	if (!j->cgroup && j->cgroup_nodelete)
		return fail(j, "cgroup_nodelete", d, "it keeps the job's cgroup, and the job "
			    "names none (cgroup=)");
	/* fio 3.33 splits only a set it was given: without one, the jobs keep every CPU */
	if (j->cpus_allowed_split && !j->ncpus_allowed)
		job_note(j, "cpus_allowed_policy", d, "split divides the CPUs of cpus_allowed= or "
			 "cpumask=, and the job sets neither: its threads run on every CPU, as "
			 "fio's do");
	return 0;
}
