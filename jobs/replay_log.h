/*
 * read_iolog: a log of I/Os to replay, fio's iolog text (jobs/iolog.c) or a blktrace
 * (jobs/blktrace.c), read as a stream of entries with the replay options applied. Before
 * the run, replay_load() reads the whole log once: every line is checked, the files it
 * names are found, and the job takes its directions, block sizes and files from it (and,
 * unless read_iolog_chunked, keeps its entries). engine/plan/replay.c plays them, or reads the
 * log again a chunk at a time through the same stream.
 */
#ifndef JOBS_REPLAY_LOG_H
#define JOBS_REPLAY_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jobs/job.h"

struct arena;
struct diag;
struct engine_info;

/*
 * What an entry does beyond enum io_dir's read, write and trim. REPLAY_REOPEN: the log
 * opens a file it closed, where fio drops the file's cached pages (invalidate).
 */
#define REPLAY_FSYNC		IO_NDIR
#define REPLAY_FDATASYNC	(IO_NDIR + 1)
#define REPLAY_REOPEN		(IO_NDIR + 2)
#define REPLAY_NACTS		(IO_NDIR + 3)

/* One I/O or sync to replay. */
struct replay_entry {
	uint64_t off;		/* bytes, replay_scale and replay_align applied */
	uint64_t delay_us;	/* after the previous entry was issued, time scale applied */
	uint32_t len;
	uint32_t file;		/* index in the log's files (the job's filenames) */
	uint8_t act;		/* enum io_dir or REPLAY_*: less than REPLAY_NACTS */
	unsigned line;		/* where it is in the log: a line, or a blktrace record */
};

/* A file the log names, and what the log does to it (for the checks before the run). */
struct replay_file {
	const char *path;
	unsigned line;		/* where the log names it first */
	uint32_t dev;		/* blktrace: the device number it stands for */
	bool written;		/* writes or trims */
	uint64_t read_end;	/* the furthest byte a read reaches, and where */
	unsigned read_end_line;
	uint64_t write_end;
};

/* The furthest byte the log reaches in f, or at least min (a file without data: null). */
static inline uint64_t replay_extent(const struct replay_file *f, uint64_t min)
{
	uint64_t end = f->read_end > f->write_end ? f->read_end : f->write_end;

	return end > min ? end : min;
}

struct replay_log {
	const char *path;		/* the log: a file, or "-" for stdin */
	bool blktrace;
	bool swap;			/* blktrace of the other byte order */
	int version;			/* iolog: 2 or 3 */
	struct replay_file *files;
	unsigned nfiles;
	const struct replay_entry *entries;	/* NULL when read_iolog_chunked */
	size_t nentries;
	uint64_t bytes;			/* of every I/O entry, for the status line */
	uint64_t len_max[IO_NDIR];	/* the longest I/O of each direction */
	uint64_t len_min[IO_NDIR];	/* the shortest (0: none in that direction) */
	uint64_t ios[REPLAY_NACTS];	/* entries per act */
	unsigned depth;			/* blktrace: the depth the trace had, else 0 */
};

/*
 * The stream of entries of one log, for replay_load() and engine/plan/replay.c. It knows
 * the files as the log names them: new ones are added (and reported through *added)
 * only while it loads; afterwards a name or device it does not know is an error.
 */
struct replay_stream {
	const struct job_desc *j;
	struct replay_log *log;
	FILE *f;
	bool loading;
	bool blktrace, swap;		/* what the log is: as replay_log's */
	int version;
	unsigned where;			/* line, or blktrace record, last read */
	uint64_t last_time;		/* the last timestamp read (iolog us, blktrace ns) */
	uint64_t pending_us;		/* delay of lines that issue nothing, for the next */
	bool zero_noted;		/* blktrace: a zero-byte I/O was left out */
	int this_depth[IO_NDIR];	/* blktrace: requests queued since a completion */
	int depth[IO_NDIR];		/* the most of them */
	struct replay_file *files;	/* while loading: the files so far (malloc'd) */
	unsigned nfiles, cap;
	uint8_t *opened;		/* iolog: per file, 0 never opened, 1 open, 2 closed */
	unsigned nopened;
	size_t opened_cap;
	unsigned last_file;		/* the last name looked up, tried first */
	char line[8192];
};

/*
 * Open the log (stdin for "-"), tell a blktrace from an iolog by its first bytes and
 * read the iolog's version line; log is written only while loading. On failure returns
 * -errno or -EINVAL with why[] set.
 */
int replay_stream_open(struct replay_stream *s, const struct job_desc *j,
		       struct replay_log *log, const char *path, bool loading, char *why,
		       size_t whylen);

/*
 * The next entry to issue: 1 and *e set, 0 at the end of the log, or -EINVAL with why[]
 * saying what is wrong at s->where. Lines that issue nothing (file actions, waits) add
 * their time to the next entry's delay.
 */
int replay_stream_next(struct replay_stream *s, struct replay_entry *e, char *why,
		       size_t whylen);

/* Close the log (never stdin) and free what the stream allocated. */
void replay_stream_close(struct replay_stream *s);

/*
 * Index of the file named name (replay_redirect's, when set, whatever the name): with
 * add, while loading, a new name is added, named first at s->where. -1 when the name is
 * unknown (not added), -ENOMEM.
 */
int replay_stream_file(struct replay_stream *s, const char *name, uint32_t dev, bool add);

/*
 * The delay of a line at timestamp t after the last one, in t's unit (iolog us, blktrace
 * ns), as fio computes it: none for the first, for one earlier than the last, or with
 * replay_no_stall; else scaled by replay_time_scale. Moves last_time on.
 */
uint64_t replay_stream_delay(struct replay_stream *s, uint64_t t);

/* An offset as replay_scale and replay_align make it. */
uint64_t replay_offset(const struct job_desc *j, uint64_t off);

/*
 * read_iolog: merge the blktraces first (merge_blktrace_file), read the log this clone
 * replays (read_iolog's entry jobnum modulo their count) and give the job its files,
 * directions, block sizes and (from a blktrace, unless iodepth is set) depth; check the
 * options that go with it. eng is the job's engine. Returns 0, or -EINVAL with d naming
 * the log and its line, or the option.
 */
int replay_load(struct job_desc *j, const struct engine_info *eng, struct arena **arena,
		struct diag *d);

#endif
