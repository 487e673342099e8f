/*
 * The verifier's own state, shared by verify.c (headers, checks, backlog and trims),
 * verify_chunk.c (fio's chunk format), verify_fill.c (what writes carry), verify_state.c
 * (fio's state file), verify_trim.c and verify_async.c (the checking threads). Private to
 * engine/verify/: the rest of the engine sees engine/verify/verify.h.
 */
#ifndef ENGINE_VERIFY_VERIFY_PRIV_H
#define ENGINE_VERIFY_VERIFY_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/verify/checksum.h"
#include "engine/verify/md5_lanes.h"
#include "engine/verify/verify_pattern.h"
#include "engine/ioengine.h"
#include "engine/plan/offsets.h"
#include "engine/worker.h"

struct io_file;
struct io_req;
struct state_list;
struct job_desc;
struct verify_async;
struct worker;

#define VERIFY_MAGIC	0xaccau		/* fio's */
#define GEN_ANY		UINT32_MAX	/* overlapping writes: either may have landed last */
#define GEN_TRIMMED	(UINT32_MAX - 1)	/* trimmed since written: reads zeros */
#define GEN_SKIP	(UINT32_MAX - 2)	/* a trim and a write raced: not judged */

#define BUSY_OVERLAP	0x8000u		/* busy: writes to the chunk overlapped in flight */
#define BUSY_TRIM	0x4000u		/* busy: a trim of the chunk is in flight */
#define BUSY_COUNT	0x3fffu		/* writes in flight to the chunk, saturating */

/*
 * The start of each verified chunk, fio's verify header as its verify.h lays it out
 * (little-endian), so that fio and iojob each check what the other wrote. The digest of
 * the rest of the chunk follows it, in fio's room for the method (verify_slot()).
 */
struct vhdr {
	uint16_t magic;
	uint16_t type;			/* fio's number for the method */
	uint32_t len;			/* of the chunk */
	uint64_t rand_seed;		/* fio's seed of the data; iojob's data has none: 0 */
	uint64_t offset;		/* of the chunk in its file */
	uint32_t time_sec;		/* when fio wrote it; fio never reads it back, and */
	uint32_t time_nsec;		/* iojob leaves 0: a run's data stays the same */
	uint16_t thread;		/* the job's number, from 1 */
	uint16_t numberio;		/* the chunk's write generation, 1 to 65535 */
	uint32_t crc32;			/* fio's crc32c of the header before this field */
};

_Static_assert(sizeof(struct vhdr) == 40, "fio's verify_header is 40 bytes");

#define VHDR_FIXED	sizeof(struct vhdr)
#define VERIFY_SLOT_MAX	128	/* fio's room for a sha512 digest */

/* A read's chunks go to the verify_async threads this many at most per hand-over. */
#define VERIFY_ASYNC_CHUNKS	64

/* A block to read back or trim, as it was written. */
struct backlog_entry {
	struct io_file *file;
	uint64_t off;
	uint32_t len;
};

/* A queue of blocks that keeps the newest cap of them. */
struct block_ring {
	struct backlog_entry *e;
	uint64_t cap, head, tail;	/* head: oldest; tail: next free */
	bool forgot;			/* a block was dropped: the ring no longer holds all */
};

/* Add a block; a full ring forgets its oldest (the read-back pass still covers it). */
static inline void ring_push(struct block_ring *q, struct io_file *f, uint64_t off,
			     uint32_t len)
{
	if (q->tail - q->head == q->cap) {
		q->head++;
		q->forgot = true;
	}
	q->e[q->tail++ % q->cap] = (struct backlog_entry){ f, off, len };
}

static inline uint64_t ring_len(const struct block_ring *q)
{
	return q->tail - q->head;
}

/* What a read of one chunk should find, decided when the read completes. */
enum chunk_expect {
	CK_SKIP,	/* a write raced the read: either content is right */
	CK_DATA,	/* a header of generation gen (0 or GEN_ANY: any), and its data */
	CK_ZERO,	/* trimmed: zeros */
};

/* What verify writes carry: fio's new random bytes per write (verify_fill.c). */
#define VFILL_LANES	8
#define VFILL_POOL_MAX	(64u * 1024)	/* the longest payload pooled or staged */
struct vfill {
	bool on;			/* a method with a header, no verify_pattern */
	unsigned random_pct;		/* of each write; buffer_compress_percentage's rest: */
	const unsigned char *pat;	/* buffer_pattern, or zeros */
	unsigned pat_len;
	uint64_t s[VFILL_LANES];	/* the random stream: eight xorshift64 lanes */
	/* md5: payloads (a chunk less its header) made and digested eight at a time */
	unsigned char *pool;		/* NULL: each write filled and digested in place */
	uint32_t payload;
	unsigned next;			/* the next payload not yet written */
	uint8_t sum[MD5_LANES][16];
};

/*
 * md5's reads checked eight at a time: each chunk read is copied here with what it should
 * hold, and when MD5_LANES wait (or the pass ends) their digests are made together.
 */
struct vstage {
	unsigned char *buf;		/* MD5_LANES chunks; NULL: each checked as it comes */
	unsigned n;
	struct vstaged {
		const struct io_file *file;
		uint64_t off, io_off;
		uint32_t gen;
	} e[MD5_LANES];
};

struct verify {
	enum checksum_type csum;
	bool pattern_only;		/* verify=pattern: no header, every byte checked */
	bool meta;			/* verify=meta: the header is checked, not the data */
	bool null;			/* verify=null: read back, check nothing */
	bool any_gen;			/* verify_write_sequence=0: no generation check */
	uint32_t interval;
	uint32_t hlen;			/* bytes of header written per chunk (0: none) */
	uint64_t voff;			/* verify_offset: where the header is swapped to */
	uint32_t gen_pos[2];		/* where numberio's bytes are once swapped */
	unsigned slot;			/* bytes of the digest's room after the header */
	uint16_t fio_type;
	/* verify_pattern as it lies over each I/O: written, compared */
	bool patterned;
	struct vpattern pat;
	/*
	 * Generations are kept per unit: the chunk, or less where writes may start off the
	 * chunks' grid (blockalign=8k under 16k chunks); then a chunk is kept at the unit it
	 * starts at, and cstart marks those units.
	 */
	uint32_t unit;
	uint64_t **cstart;		/* unit < interval: per file, a bit per unit, or NULL */
	uint32_t **gen;			/* per file, per unit: last generation written */
	/* per file, a bit per chunk: a write starts there (writes of several chunks), or NULL */
	uint64_t **starts;
	uint16_t **busy;		/* per file, per chunk: writes in flight (iodepth > 1) */
	uint32_t **issued;		/* per file, per chunk: the last write's generation */
	uint32_t *read_snap;		/* per request slot: its file's next_gen at a read */
	/*
	 * Per request slot: the read in it was issued by verify (the pass, the backlog, a
	 * replay). A mixed job's own reads are not checked, as fio's: its reads are the
	 * workload, and checking them would cost a checksum fio does not make.
	 */
	bool *ours;
	bool check_all_reads;		/* the job only reads: every read is checked */
	uint32_t *next_gen;		/* per file */
	/* verify_backlog: completed writes wait here; every N of them some are read back */
	struct block_ring backlog_q;
	uint64_t backlog, batch, since_batch, drain_left;
	/* trim_percentage: written blocks picked for a trim wait here */
	struct block_ring trim_q;
	uint64_t trim_backlog, trim_batch, since_trim, trim_left;
	struct rng trim_rng;
	bool trims_at_end;		/* trim_backlog=0: the writes ended, trim the rest */
	/* fio's state file: each file's last iodepth completed writes */
	uint64_t **last_off;
	uint64_t *writes_done;		/* per file */
	struct verify_async *async;	/* verify_async threads, or NULL */
	bool pass;			/* reading everything back */
	bool replay;			/* the writes again, in order (experimental_verify, */
	uint64_t replay_left;		/* verify_state_load): how many are left, */
	uint64_t replayed;		/* how many went */
	struct state_list *state;	/* verify_state_load's, or NULL */
	unsigned pass_file;
	uint64_t pass_chunk;		/* the pass's next unit */
	uint64_t failures;
	/*
	 * verify_policy=fsynced: the writes issued, and each file's last completions, when
	 * the sync in flight was issued (mark) and when the last one that completed was
	 * (durable: what the state lists). A sync waits for the writes before it.
	 */
	uint64_t sync_mark, fsynced_writes;
	uint64_t **mark_off, **durable_off;
	uint64_t *mark_done, *durable_done;
	uint64_t first_seq;		/* of the bad chunk whose message is kept */
	struct vfill fill;
	struct vstage stage;
};

/* The method's format in v (checksum, header room, verify_offset), from the job. */
int verify_chunk_setup(struct verify *v, const struct job_desc *j);

/* Len bytes of verify_pattern at buf: the bytes at pos of an I/O at io_off. */
void verify_fill_pattern(const struct verify *v, uint64_t io_off, uint64_t pos,
			 unsigned char *buf, uint32_t len);

/*
 * A write's generation is counted in 32 bits (to order writes and reads in flight) and
 * stored as 1 to 65535 in fio's 16-bit numberio: 0 stays "never written".
 */
uint16_t verify_numberio(uint32_t gen);

/*
 * Write the header of generation gen for the chunk at off into c, with the digest of its
 * data: sum where the data came with one (vfill_take()), else computed here.
 */
void verify_chunk_seal(const struct verify *v, const struct job_desc *j, unsigned char *c,
		       uint64_t off, uint32_t gen, const uint8_t *sum);

/*
 * verify_fill.c: set up what v's writes carry (-1: no memory); len new random bytes of
 * the lanes s; a whole write as fio fills it; and, where f->pool is set, the next
 * payload (f->payload bytes) copied to dst, returning its digest.
 */
int vfill_init(struct vfill *f, const struct verify *v, const struct job_desc *j);
void vfill_free(struct vfill *f);
void vfill_random(uint64_t s[VFILL_LANES], unsigned char *buf, size_t len);
void vfill_buf(struct vfill *f, unsigned char *buf, uint32_t len);
const uint8_t *vfill_take(struct vfill *f, unsigned char *dst);

/*
 * Check one chunk read back against what it should hold: 0 when it does, else 1 with what
 * was wrong in what[]; io_off is the offset of the I/O that read it (its pattern's %o
 * and where in the pattern the chunk is, as fio checks it). Touches only c
 * (verify_offset's swap is undone in place) and reads only v's settings, made before the
 * job starts, so that verify_async threads may call it. sum: the digest of the chunk's
 * data where it was made already (md5_lanes()), else NULL.
 */
int verify_examine(const struct verify *v, uint64_t off, uint64_t io_off,
		   unsigned char *c, enum chunk_expect ex, uint32_t gen, const uint8_t *sum,
		   char *what, size_t n);

/*
 * A bad chunk found by verify_examine(): count it, dump it, and keep its message if it is
 * the first by seq (the order of the reads; 0 for the job's own checks, in that order).
 */
void verify_report_bad(struct worker *w, const struct io_file *f, uint64_t off,
		       uint64_t io_off, const unsigned char *got, const char *what,
		       uint64_t seq);

/*
 * verify_state_load: whether the k-th write replayed (at off in file fi) is one the state
 * says surely reached the file: fio's rule, the first numberio - iodepth surely, then
 * those listed as completed; the replay stops at the first that is not.
 */
bool verify_state_reached(const struct verify *v, uint64_t k, unsigned fi, uint64_t off);

/* A verify read or trim in r, counted as issued. */
void verify_fill_req(struct worker *w, struct io_req *r, int dir, struct io_file *f,
		     uint64_t off, uint32_t len);

/*
 * trim_percentage: pick a completed write for a trim (or not), whether a trim is due now,
 * put the oldest picked block in r, and note a completed trim.
 */
void verify_trim_pick(struct worker *w, struct io_req *r, uint64_t first);
bool verify_trim_due(struct worker *w);
void verify_trim_issue(struct worker *w, struct io_req *r);
void verify_trim_done(struct worker *w, struct io_req *r);

/*
 * verify_async: start the threads (-errno, error_msg set), hand them a read's chunks
 * (waits while all buffers are taken), wait for everything handed to be checked and
 * stop them, and whether one found a bad chunk that verify_fatal must stop the job for.
 */
int verify_async_start(struct worker *w);
void verify_async_submit(struct worker *w, const struct io_file *f, uint64_t io_off,
			 uint64_t first, const unsigned char *buf, uint32_t len, const uint8_t *expect,
			 const uint32_t *gens);
void verify_async_stop(struct worker *w);
bool verify_async_fatal(struct worker *w);

static inline unsigned verify_file_index(const struct worker *w, const struct io_file *f)
{
	return (unsigned)(f - w->files);
}

/* The unit of file f that offset off falls in. */
static inline uint64_t verify_unit_of(const struct verify *v, const struct io_file *f,
				      uint64_t off)
{
	return (off - f->io_off) / v->unit;
}

#endif
