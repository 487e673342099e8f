/*
 * The options that set up a job's thread before its I/O, in their parsed form: the CPUs it
 * may run on (cpus_allowed=, cpumask=), its NUMA nodes and memory policy, and the checks
 * between them and their neighbours (uid=, gid=, cgroup=). engine/thread/thread_env.c applies them.
 */
#ifndef JOBS_OPT_THREAD_H
#define JOBS_OPT_THREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "jobs/options.h"

struct diag;

/* numa_mem_policy='s modes, as set_mempolicy(2) numbers them (MPOL_DEFAULT...). */
enum numa_mem_mode { NUMA_MEM_DEFAULT, NUMA_MEM_PREFER, NUMA_MEM_BIND, NUMA_MEM_INTERLEAVE,
		     NUMA_MEM_LOCAL };

/* The job's CPUs as cpus_allowed_policy gives them: split keeps the (index mod n)-th. */
void job_cpus_for(const struct job_desc *j, uint64_t out[JOB_CPU_WORDS]);

/*
 * A CPU list, "0-3,8", each CPU below the machine's count, into mask (count: how many it
 * names, or NULL). cpus_allowed=, verify_async_cpus= and log_compression_cpus= read it.
 */
int opt_cpu_list(const char *val, uint64_t mask[JOB_CPU_WORDS], unsigned *count, char *why,
		 size_t whylen);

/* verify_async_cpus= and log_compression_cpus=: the CPUs of those threads. */
int opt_verify_async_cpus_parse(const struct opt_ctx *ctx, const char *val, void *dst,
				char *why, size_t whylen);
int opt_log_cpus_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		       size_t whylen);

/* The CPU list of cpus_allowed=: "0-3,8", numbers below the machine's CPU count. */
int opt_cpus_allowed_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			   size_t whylen);

/* cpumask=: bit N set lets the job run on CPU N (decimal or 0x hex, up to 64 CPUs). */
int opt_cpumask_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		      size_t whylen);

/* numa_cpu_nodes=: "all" or a node list "0,2-3", kept as written for libnuma. */
int opt_numa_cpu_nodes_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
			     size_t whylen);

/* numa_mem_policy=MODE[:NODES], MODE one of default, prefer, bind, interleave, local. */
int opt_numa_mem_policy_parse(const struct opt_ctx *ctx, const char *val, void *dst,
			      char *why, size_t whylen);

/*
 * Whether s is "all" or a list of numbers and ranges ("0,2-3"), after libnuma's optional
 * "!" (all but these) and "+" (relative to the cpuset).
 */
bool opt_id_list_valid(const char *s);

/*
 * The rules between the thread options: cgroup_weight= and cgroup_nodelete= need
 * cgroup=. Returns 0 or -EINVAL with d naming the job and the option.
 */
int job_check_thread(const struct job_desc *j, struct diag *d);

#endif
