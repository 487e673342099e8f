/*
 * Data verification (verify=): each verify_interval bytes of a written block start with
 * fio's verify header (magic, length, offset, generation as numberio, its own crc32c) and
 * the checksum of the rest of the chunk (verify=meta: none; verify_offset moves the header
 * into the chunk), so that fio and iojob each check what the other wrote; reads check
 * them. Every chunk's last written generation is kept, so a block that still holds an
 * older write (lost, misdirected, overwritten out of order) fails instead of passing as
 * "some valid block": overwritten blocks never give false positives, and stale ones are
 * never missed.
 */
#ifndef ENGINE_VERIFY_VERIFY_H
#define ENGINE_VERIFY_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

struct io_req;
struct worker;

enum verify_plan_result {
	VP_NONE,	/* no verify read due: plan the next I/O as usual */
	VP_READ,	/* r was filled with a verify read */
	VP_END,		/* the verify pass has read everything: the job is done */
};

/* Set up w->verify when the job verifies; returns 0 or -ENOMEM (error_msg set). */
int verify_init(struct worker *w);
void verify_free(struct worker *w);

/* Before a write is queued: headers and checksums into its buffer. */
void verify_prepare_write(struct worker *w, struct io_req *r);

/* A read or write of a verifying job completed in full: check it, or remember it. */
void verify_done(struct worker *w, struct io_req *r);

/*
 * verify_policy=fsynced: an fsync or fdatasync is issued (the writes issued by then are
 * its mark), and one completed without error (its mark is the state's threshold).
 */
void verify_sync_issued(struct worker *w, const struct io_req *r);
void verify_sync_done(struct worker *w, const struct io_req *r);

/* A backlog or pass read due now, if any. */
enum verify_plan_result verify_plan(struct worker *w, struct io_req *r);

/* Whether the job has a read-back pass after its writes; start it. */
bool verify_pass_wanted(const struct worker *w);
void verify_start_pass(struct worker *w);
/* The pass ended: the next loop's writes come (loops= of a verifying job). */
void verify_end_pass(struct worker *w);

/*
 * A writing verify job with verify_state_save=1 ended: as fio, leave
 * local-NAME-INDEX-verify.state in the working directory (INDEX: the job's number in the
 * run, from 0), in fio's binary format (version 3, which fio-verify-state reads): the
 * writes issued, and each file's last iodepth completed ones. Returns 0, or -errno with
 * the job failed (worker_fail) when it cannot be written.
 */
int verify_save_state(struct worker *w, unsigned index);

/*
 * verify_only with verify_state_load=1: read that file (iojob's or fio's; the job's name,
 * index and number of files must match) so that the pass replays the job's writes as
 * reads, in their order, as far as fio's rule says they surely reached the files (fio's
 * own random order excepted: iojob's is its own generator's). Returns 0, or -errno with
 * the job failed.
 */
int verify_load_state(struct worker *w, unsigned index);

/* The job ended: if blocks failed, fail the job with the first one and the count. */
void verify_finish(struct worker *w);

#endif
