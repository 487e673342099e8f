/*
 * fio's iolog text, versions 2 and 3, as jobs/replay_log.c's stream reads it (private to the
 * replay's files): the version line, then file actions (add, open, close) and I/O actions
 * (read, write, trim, sync, datasync, and version 2's wait), version 3's with a timestamp
 * in microseconds first. Also the version line a writer of the format starts with.
 */
#ifndef JOBS_IOLOG_H
#define JOBS_IOLOG_H

#include <stddef.h>

struct replay_entry;
struct replay_stream;

/* The version line fio 3.33 writes, and the one of version 2. */
#define IOLOG_V3_HEADER	"fio version 3 iolog"
#define IOLOG_V2_HEADER	"fio version 2 iolog"

/* Read the version line into s->log->version. 0, or -EINVAL with why[] set. */
int iolog_read_header(struct replay_stream *s, char *why, size_t whylen);

/* replay_stream_next() for an iolog. */
int iolog_next(struct replay_stream *s, struct replay_entry *e, char *why, size_t whylen);

#endif
