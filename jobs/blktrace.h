/*
 * blktrace binary input, as fio reads it (private to the replay's files): the kernel's
 * struct blk_io_trace records (as blkparse -d writes them), of either byte order, each
 * followed by pdu_len bytes the replay skips. Queue events become I/Os (discards trims,
 * flushes syncs); the devices are found in /dev by number. Also merge_blktrace_file.
 */
#ifndef JOBS_BLKTRACE_H
#define JOBS_BLKTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job_desc;
struct replay_entry;
struct replay_stream;

#define BLKTRACE_RECORD_BYTES	48

/* Whether buf (n bytes, the file's start) is a blktrace record; *swap: the other order. */
bool blktrace_detect(const void *buf, size_t n, bool *swap);

/*
 * replay_stream_next() for a blktrace. While loading it also measures the depth the
 * trace had (queued minus merged, until a completion) into s->log->depth.
 */
int blktrace_next(struct replay_stream *s, struct replay_entry *e, char *why, size_t whylen);

/*
 * merge_blktrace_file: the traces of read_iolog merged into that file by time, each one's
 * times scaled by merge_blktrace_scalars (percent) and repeated merge_blktrace_iters
 * times. Returns 0, or -errno / -EINVAL with why[] naming the trace.
 */
int blktrace_merge(const struct job_desc *j, char *why, size_t whylen);

#endif
