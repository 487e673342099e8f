/*
 * The ioengine interface. An engine turns prepared requests into system calls; the event
 * loop (loop.c) owns everything else: offsets, timing, statistics, depth and batching.
 * A synchronous engine fills in queue() only and returns IOQ_DONE; an asynchronous one
 * returns IOQ_QUEUED and adds submit(), getevents() and event().
 */
#ifndef ENGINE_IOENGINE_H
#define ENGINE_IOENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobs/options.h"

/* Request kinds beyond the data directions of enum io_dir. */
#define IO_FSYNC	(IO_NDIR + 0)
#define IO_FDATASYNC	(IO_NDIR + 1)
#define IO_SYNC_RANGE	(IO_NDIR + 2)	/* sync_file_range(2) of off, len with sfr_flags */

struct zbd_info;

struct io_file {
	char *path;
	int fd;
	int reg_index;		/* slot among the engine's registered files */
	bool is_bdev;
	bool is_chr;		/* a character device (/dev/null): no size, never laid out */
	bool shared;		/* the job's clones name this file too (files.c) */
	bool borrowed;		/* fd opened by the runner for every clone: not ours to close */
	bool deferred;		/* does not exist yet: an earlier phase writes it */
	bool synced;		/* fsynced after the job's last write: close need not again */
	uint64_t real_size;	/* size of the file or device now */
	uint64_t want_size;	/* size the job needs (offset + region) */
	uint64_t io_off;	/* start of the region this job uses */
	uint64_t io_len;	/* length of that region */
	unsigned lbs;		/* logical block size of the device below */
	unsigned open_flags;
	struct path_lock *lock;	/* lockfile: shared by the phase's jobs on this path, or NULL */
	bool lock_owner;	/* this one made it and frees it */
	/* a block device the job writes: the run's checks, which claim it when it is opened */
	struct device_users *claim;
	struct zbd_info *zbd;	/* zonemode=zbd: the target's zones (the run's), or NULL */
	uint64_t asked_len;	/* zbd: the region's length before it was rounded to zones
				 * (fio's byte budget), 0 when not rounded */
};

struct io_req {
	struct io_file *file;
	unsigned char *buf;	/* current transfer */
	uint64_t off;
	uint32_t len;
	uint32_t full_len;	/* the whole I/O, for statistics */
	int dir;		/* enum io_dir, IO_FSYNC, IO_FDATASYNC or IO_SYNC_RANGE */
	uint8_t sfr_flags;	/* IO_SYNC_RANGE: SYNC_FILE_RANGE_* */
	unsigned slot;		/* index in the job's request array */
	bool resubmit;		/* remainder of a short transfer: keep its times */
	bool zone_reset;	/* zonemode=zbd: a trim that reset its zone; nothing to send */
	bool busy;		/* taken from the free list */
	uint8_t prio_idx;	/* cmdprio: the statistics slot of its priority */
	uint16_t ioprio;	/* cmdprio: the priority it was issued with */
	unsigned buf_slot;	/* the buffer buf lies in: slot, or a stripe part's request's */
	int64_t res;		/* bytes transferred or -errno */
	uint64_t t_create;	/* clock ticks */
	uint64_t t_submit;
	unsigned char *buf_base;	/* the slot's buffer */
};

enum ioq_status {
	IOQ_DONE,	/* completed now; res is set */
	IOQ_QUEUED,	/* will be submitted by submit() */
	IOQ_BUSY,	/* no room now: retry after reaping */
};

/*
 * An engine's flags. The first ones are the job layer's catalog flags (ENGINE_* in
 * jobs/options.h), the same bits, which the catalog passes on as they are; the rest only
 * the engine core reads. ioengine_check_ops() says which combinations make sense.
 */
#define IOENG_SYNC	ENGINE_SYNC	/* one I/O at a time, completes in queue() */
#define IOENG_NOFILES	ENGINE_NO_FILES	/* does no I/O on files (null) */
#define IOENG_TRIM	ENGINE_TRIM	/* can trim */
#define IOENG_CHEAP_SUBMIT ENGINE_CHEAP_SUBMIT	/* submit() does no work per I/O */
#define IOENG_DEPTH_NEEDS_DIRECT ENGINE_DEPTH_NEEDS_DIRECT	/* see jobs/options.h */
#define IOENG_NO_DATA	ENGINE_NO_DATA	/* moves no data: nothing to verify */
#define IOENG_WRITE_ONLY ENGINE_WRITE_ONLY	/* only writes */
#define IOENG_TIMED	ENGINE_TIMED	/* no I/O to count: runs for runtime= */
#define IOENG_MODIFIES	ENGINE_MODIFIES	/* changes files whatever rw= says */
#define IOENG_BATCHES	ENGINE_BATCHES	/* one call submits or reaps many (io_uring) */
#define IOENG_ATOMIC	ENGINE_ATOMIC	/* writes can carry RWF_ATOMIC (atomic=1) */
/* a stream (net): a read of 0 bytes is its end, and the job's I/O ends there, as fio's */
#define IOENG_STREAM	ENGINE_STREAM
#define IOENG_INLINE_QD1 (1u << 16)	/* at iodepth 1 completes in queue(), like a sync engine */
#define IOENG_POSITIONAL ENGINE_POSITIONAL	/* no file position: clones may share fds */
/*
 * Works on the files' names, not their data (filestat, filedelete): the runner opens none
 * of them. Each file's first block is the operation; the file's other blocks complete at
 * once, as fio counts them.
 */
#define IOENG_NAMES	(1u << 18)
/* Makes its files itself (filecreate, dircreate): the runner neither looks them up nor
 * lays them out; their sizes come from size= or filesize=. Implies IOENG_NAMES. */
#define IOENG_MAKES_FILES (1u << 19)
/* Deletes its files (filedelete, dirdelete): engine/plan/files.c guards them as deletions. */
#define IOENG_DELETES	(1u << 20)
#define IOENG_FLAGS	(ENGINE_FLAGS | IOENG_INLINE_QD1 | IOENG_NAMES | IOENG_MAKES_FILES | \
			 IOENG_DELETES)

struct ioengine;
struct cmdprio;
struct path_lock;
struct device_users;

struct ioengine_ops {
	const char *name;
	unsigned flags;
	unsigned fds;		/* descriptors an instance holds open besides its files */
	const char *help;
	const struct opt_def *options;	/* engine-only options, or NULL */
	size_t options_size;
	/* Set up per-job state (e->priv); requests and files are allocated by then. */
	int (*init)(struct ioengine *e);
	/* What to tell the user when init() failed with err, or NULL. Optional. */
	const char *(*init_hint)(int err);
	void (*cleanup)(struct ioengine *e);
	/*
	 * Size f, found on disk, the engine's own way before any I/O (sg: READ CAPACITY) and
	 * refuse what it cannot drive; may set f->real_size and f->lbs. 0, or -errno with
	 * why set: the job is refused, naming the file. Optional.
	 */
	int (*probe_file)(const struct job_desc *j, struct io_file *f, char *why, size_t len);
	/*
	 * More words on r's error (sense data, SCSI status) into buf; the length, 0 when
	 * none. Optional; asked only when an I/O fails, off the I/O path.
	 */
	size_t (*errdetails)(struct ioengine *e, const struct io_req *r, char *buf, size_t len);
	/* Called after the loop opened every file (fds valid), before I/O starts. */
	int (*open_files)(struct ioengine *e);
	void (*close_files)(struct ioengine *e);
	/*
	 * After the job's start (gate, startdelay), before its timed phase: what may wait on
	 * another job (net's accept, a datagram link's opening), so that the wait counts in
	 * no I/O, as fio's engines reset the statistics after it. 0, or -errno with why set.
	 * Optional.
	 */
	int (*start)(struct ioengine *e, char *why, size_t len);
	enum ioq_status (*queue)(struct ioengine *e, struct io_req *r);
	/* Submit what queue() accepted; returns the number submitted or -errno. */
	int (*submit)(struct ioengine *e);
	/* Wait for at least min completions (0: poll), return up to max; count or -errno. */
	int (*getevents)(struct ioengine *e, unsigned min, unsigned max);
	/* The request of the i-th completion from the last getevents(), with res set. */
	struct io_req *(*event)(struct ioengine *e, unsigned i);
};

struct ioengine {
	const struct ioengine_ops *ops;
	const struct job_desc *job;
	const void *opts;		/* the engine's options, in job->engine_opts */
	struct io_file *files;
	unsigned nfiles;
	struct io_req *reqs;
	unsigned nreqs;			/* = iodepth */
	unsigned char *bufs;		/* nbufs buffers of buf_size bytes, aligned */
	unsigned nbufs;			/* = nreqs, but for a stripe's parts (see stripe.c) */
	size_t buf_size;
	void *priv;
	/* Set by init() when cmdprio_* is in use: the worker keeps statistics per priority. */
	const struct cmdprio *cmdprio;
	/*
	 * A pause inside queue() (cpuio's idle share) that a stop (a signal, exitall) ends:
	 * pause(pause_ctx, ns), set by the worker and kept in the copies offload's threads
	 * make, safe from any thread; NULL: the engine sleeps on its own.
	 */
	void (*pause)(const void *pause_ctx, uint64_t ns);
	const void *pause_ctx;
	/* Whether the job was told to stop (a signal, exitall): for a wait in start(). */
	bool (*stopped)(const void *pause_ctx);
	/* A datagram engine's count of the peer's I/Os that never arrived (net's UDP). */
	uint64_t *drop_ios;
};

/* The engine built in under this name, or NULL (also when ioengine_check_ops refused it). */
const struct ioengine_ops *ioengine_find(const char *name);

/* The i-th engine built in, refused or not, or NULL past the last: for the tests. */
const struct ioengine_ops *ioengine_builtin(unsigned i);

/*
 * Whether the loop can drive o, as fio's check_engine_ops: NULL when it can, else why not
 * (an engine whose queue() may return IOQ_QUEUED without submit(), getevents() and
 * event(), flags that contradict each other or the hooks, options not marked as its own).
 * The registry refuses such an engine: the catalog lists it as unavailable, saying why.
 */
const char *ioengine_check_ops(const struct ioengine_ops *o);

/* Fill out[] with the job layer's view of every engine known, built or not; the count. */
unsigned ioengine_catalog(struct engine_info *out, unsigned max);

/* The job layer's view of o: its flags, options, and whether the check refused it. */
struct engine_info ioengine_describe(const struct ioengine_ops *o);

/*
 * Synchronous helpers shared by the sync engines: one read, write, trim or sync of r on
 * its file, setting r->res. Trim punches a hole in a file and discards on a device.
 */
void ioengine_do_sync_io(struct io_req *r, bool positional);

/*
 * The same through a one-element vector: preadv/pwritev when rwf < 0, else
 * preadv2/pwritev2 with rwf's RWF_* flags. Trims and syncs go to ioengine_do_sync_io().
 */
void ioengine_do_vec_io(struct io_req *r, int rwf);

/*
 * Linux 6.14 merged fio's RWF_UNCACHED as RWF_DONTCACHE, 0x80: fio 3.33's 0x40 is
 * RWF_ATOMIC now, which asks for something else entirely.
 */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE	0x00000080
#endif

/* Linux 6.11's torn-write protection, fio HEAD's atomic=1, for headers before it. */
#ifndef RWF_ATOMIC
#define RWF_ATOMIC	0x00000040
#endif

/*
 * -EOPNOTSUPP when the kernel or f's file system refuses RWF_DONTCACHE (asked with a read
 * of one byte: the check comes before any length), else 0. The uncached options use it.
 */
int ioengine_probe_dontcache(const struct io_file *f);

/*
 * For the unit tests: the entry queue() prepared last and not yet submitted, of an
 * io_uring engine (a struct io_uring_sqe) or a libaio one (a struct iocb).
 */
const void *ioengine_uring_peek(const struct ioengine *e);
const void *ioengine_aio_peek(const struct ioengine *e);

#endif
