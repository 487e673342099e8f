/*
 * Striping a job's files as md RAID0 does (filename=stripe:chunk=SIZE:A:B..., or
 * stripe_chunk=SIZE): the job plans its I/O over one logical target, and a stripe engine
 * in front of the job's ioengine cuts each request at chunk boundaries into parts on the
 * members, issues the parts together and completes the request when its last part does.
 */
#ifndef ENGINE_STRIPE_STRIPE_H
#define ENGINE_STRIPE_STRIPE_H

#include <stdint.h>

#include "jobs/job.h"

struct diag;
struct disk_set;
struct io_file;
struct job_desc;
struct job_stats;
struct worker;

/* What a striped job did on one member: its parts, as the member's disk would count them. */
struct stripe_member_io {
	uint64_t ios[IO_NDIR];		/* parts that moved data, per direction */
	uint64_t bytes[IO_NDIR];
	uint64_t flushes;		/* syncs, which go to every member */
};

/*
 * The logical target over a striped job's members, which files_resolve() took whole: its
 * size as md computes it (n times the smallest member, in whole chunks) and the job's
 * region on it (size=, offset= and offset_increment= apply to the target as to a device).
 * Returns 0 with *out allocated, or -EINVAL (-ENOMEM) with d naming the job and member.
 */
int stripe_target(const struct job_desc *j, const struct io_file *members, unsigned n,
		  struct io_file **out, struct diag *d);

/* Free a target from stripe_target(); NULL is fine. */
void stripe_target_free(struct io_file *t);

/*
 * The stripe's entry in the disk statistics, "stripe<id>", with the disks of its members
 * listed under it as an md array's are. Returns 0 or -ENOMEM.
 */
int stripe_disk_add(struct disk_set *s, unsigned id, const struct io_file *members,
		    unsigned n);

/*
 * Add a job's logical I/O to the entry of stripe id, as the kernel counts an md device:
 * requests, sectors and the ms they took (util stays n/a: busy time is not counted); and
 * its parts to the entries of the members that are no block devices (ios and sectors).
 */
void stripe_disk_count(struct disk_set *s, unsigned id, const struct job_stats *st,
		       const struct io_file *members, const struct stripe_member_io *io,
		       unsigned n);

/*
 * Put the stripe engine in front of a striped worker's engine (w->target set): the loop
 * then plans over the target alone, and the job's engine sees the members (w->files until
 * now) and the parts. Before worker_setup() allocates anything. Returns 0 or -ENOMEM.
 */
int stripe_attach(struct worker *w);

/*
 * Add the parts done on each member to w->member_io (when set), and free the stripe
 * engine's state, once the engine is cleaned up and the files closed.
 */
void stripe_detach(struct worker *w);

#endif
