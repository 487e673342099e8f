/*
 * sg: SCSI commands through Linux's sg v3 interface, as fio's engine of that name. On a
 * block device (/dev/sdX) each I/O is one SG_IO ioctl; on an sg character device
 * (/dev/sgN) the sg driver's write() of a struct sg_io_hdr starts a command and read()
 * hands back one that ended, so up to iodepth run at once (with direct=1 or sync= set,
 * fio's engine waits for each instead, and so does this one). Reads are READ(10/16),
 * writes what sg_write_mode says, trims UNMAP (the trims queued together share one, as in
 * fio), syncs SYNCHRONIZE CACHE. The size and block size come from READ CAPACITY before
 * the run, which is where a file without SG_IO (a loop device, a regular file) is refused.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/ioengines/sg_scsi.h"
#include "jobs/job.h"

struct sg_opts {
	bool hipri;
	bool readfua;
	bool writefua;
	int write_mode;		/* enum sg_write_mode */
	unsigned stream_id;	/* 0: open a stream per file and close it at the end */
};

/* A command's buffers, one per request slot. */
struct sg_slot {
	struct sg_io_hdr hdr;
	uint8_t cdb[SG_CDB_MAX];
	uint8_t sense[SG_SENSE_MAX];
	uint8_t *unmap;			/* UNMAP's parameter list, room for every slot's range */
	struct io_req **batch;		/* the trims that ride on this slot's UNMAP */
	unsigned nbatch;
	struct sg_io_hdr failed;	/* a failed command as it came back, for the message */
	uint8_t failed_cdb[SG_CDB_MAX];
	uint8_t failed_sense[SG_SENSE_MAX];
};

struct sg_file {
	bool ready;			/* open_files() set it up */
	bool async;			/* sg character device, buffered: write() and read() */
	bool own_stream;		/* write_stream: opened here, closed at the end */
	uint16_t stream;
	unsigned live;			/* commands written, not yet read back */
};

struct sg_state {
	struct sg_slot *slots;
	struct sg_file *files;
	struct io_req **done;		/* what the last getevents() found ended */
	unsigned ndone;
	struct io_req **unsent;		/* trims whose UNMAP could not go: for getevents() */
	unsigned nunsent;
	unsigned unreported;		/* queued, not yet counted by submit() */
	int gather;			/* the slot whose UNMAP collects trims, or -1 */
	struct pollfd *pfds;
};

static struct sg_file *file_of(const struct ioengine *e, const struct io_file *f)
{
	const struct sg_state *st = e->priv;

	return &st->files[f - e->files];
}

static void sg_free(struct ioengine *e, struct sg_state *st)
{
	for (unsigned i = 0; st->slots && i < e->nreqs; i++) {
		free(st->slots[i].unmap);
		free(st->slots[i].batch);
	}
	free(st->slots);
	free(st->files);
	free(st->done);
	free(st->unsent);
	free(st->pfds);
	free(st);
}

static int sg_init(struct ioengine *e)
{
	struct sg_state *st = calloc(1, sizeof(*st));
	unsigned n = e->nreqs, ranges = n < SG_UNMAP_MAX ? n : SG_UNMAP_MAX;

	if (!st)
		return -ENOMEM;
	st->gather = -1;
	st->slots = calloc(n, sizeof(*st->slots));
	st->files = calloc(e->nfiles, sizeof(*st->files));
	st->done = calloc(n, sizeof(*st->done));
	st->unsent = calloc(n, sizeof(*st->unsent));
	st->pfds = calloc(e->nfiles, sizeof(*st->pfds));
	for (unsigned i = 0; st->slots && i < n; i++) {
		st->slots[i].unmap = calloc(1, 8 + 16 * (size_t)ranges);
		st->slots[i].batch = calloc(ranges, sizeof(struct io_req *));
		if (!st->slots[i].unmap || !st->slots[i].batch)
			break;
	}
	if (!st->slots || !st->files || !st->done || !st->unsent || !st->pfds ||
	    !st->slots[n - 1].unmap || !st->slots[n - 1].batch) {
		sg_free(e, st);
		return -ENOMEM;
	}
	e->priv = st;
	return 0;
}

/* fio's rule: commands wait for each other on a block device, or with direct= or sync=. */
static bool waits(const struct ioengine *e, const struct io_file *f)
{
	return !f->is_chr || e->job->direct || e->job->sync != SYNC_NONE;
}

/* The sg driver takes commands by write(): a read-only descriptor cannot send them. */
static int reopen_rdwr(struct io_file *f)
{
	int flags = fcntl(f->fd, F_GETFL), fd;

	if (flags < 0)
		return -errno;
	if ((flags & O_ACCMODE) == O_RDWR)
		return 0;
	fd = open(f->path, (flags & ~O_ACCMODE) | O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (dup3(fd, f->fd, O_CLOEXEC) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	close(fd);
	return 0;
}

static int open_stream(const struct sg_opts *o, struct io_file *f, struct sg_file *sf)
{
	char why[256];

	if (o->write_mode != SG_MODE_WRITE_STREAM)
		return 0;
	if (o->stream_id) {
		sf->stream = (uint16_t)o->stream_id;
		return 0;
	}
	if (sg_stream_control(f->fd, true, &sf->stream, why, sizeof(why)) < 0)
		return -EIO;
	sf->own_stream = true;
	return 0;
}

static int sg_open_files(struct ioengine *e)
{
	const struct sg_opts *o = e->opts;
	int ret;

	for (unsigned i = 0; i < e->nfiles; i++) {
		struct io_file *f = &e->files[i];
		struct sg_file *sf = file_of(e, f);

		if (f->fd < 0 || sf->ready)
			continue;
		sf->ready = true;
		sf->async = !waits(e, f);
		/* completions are asked for with poll(): read() never blocks */
		if (sf->async && ((ret = reopen_rdwr(f)) < 0 ||
				  fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) | O_NONBLOCK) < 0))
			return ret < 0 ? ret : -errno;
		ret = open_stream(o, f, sf);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static const char *sg_hint(int err)
{
	if (err == EIO)
		return "sg_write_mode=write_stream: the device would not open a stream (STREAM "
		       "CONTROL); set stream_id= to one already open";
	return NULL;
}

/* Streams this engine opened are closed once nothing of theirs is outstanding. */
static void sg_close_files(struct ioengine *e)
{
	char why[256];

	for (unsigned i = 0; i < e->nfiles; i++) {
		struct io_file *f = &e->files[i];
		struct sg_file *sf = file_of(e, f);

		if (!sf->ready || sf->live)
			continue;
		if (sf->own_stream && f->fd >= 0)
			sg_stream_control(f->fd, false, &sf->stream, why, sizeof(why));
		sf->ready = sf->own_stream = false;
	}
}

/* A failed command as it came back, kept for sg_errdetails(). */
static void keep_failure(struct sg_slot *s, const struct sg_io_hdr *h)
{
	unsigned sb = h->sb_len_wr < SG_SENSE_MAX ? h->sb_len_wr : SG_SENSE_MAX;

	s->failed = *h;
	memcpy(s->failed_cdb, h->cmdp, h->cmd_len < SG_CDB_MAX ? h->cmd_len : SG_CDB_MAX);
	memcpy(s->failed_sense, h->sbp, sb);
	s->failed.cmdp = s->failed_cdb;
	s->failed.sbp = s->failed_sense;
	s->failed.sb_len_wr = (unsigned char)sb;
}

/*
 * r's result from its command's header: its length, or fewer bytes when a read or write
 * came back with a residual count (whole blocks: the loop sends the rest), or -EIO.
 */
static void finish(struct sg_state *st, struct io_req *r, const struct sg_io_hdr *h)
{
	struct sg_slot *s = &st->slots[r->slot];
	uint32_t moved;

	if (!sg_hdr_failed(h) && h->resid <= 0) {
		r->res = r->dir < IO_NDIR ? (int64_t)r->len : 0;
		return;
	}
	moved = h->dxfer_len - (uint32_t)h->resid;
	moved -= moved % r->file->lbs;
	if (!sg_hdr_failed(h) && h->resid < (int)h->dxfer_len && h->dxfer_len == r->len &&
	    moved && r->dir != IO_TRIM) {
		r->res = moved;
		return;
	}
	keep_failure(s, h);
	r->res = -EIO;
}

static void push_done(struct sg_state *st, struct io_req *r)
{
	st->done[st->ndone++] = r;
}

/* A command came back: its request, or every trim of its UNMAP, ended. */
static void ended(struct sg_state *st, const struct sg_io_hdr *h)
{
	struct io_req *r = h->usr_ptr;
	struct sg_slot *s = &st->slots[r->slot];

	if (r->dir != IO_TRIM || !s->nbatch) {
		finish(st, r, h);
		push_done(st, r);
		return;
	}
	for (unsigned i = 0; i < s->nbatch; i++) {
		finish(st, s->batch[i], h);
		if (s->batch[i]->res < 0 && s->batch[i] != r)
			keep_failure(&st->slots[s->batch[i]->slot], h);
		push_done(st, s->batch[i]);
	}
	s->nbatch = 0;
}

/* Start h on r's file: at once (SG_IO) where commands wait, else by write(). */
static enum ioq_status send(struct ioengine *e, struct io_req *r, struct sg_io_hdr *h)
{
	struct sg_state *st = e->priv;
	struct sg_file *sf = file_of(e, r->file);

	h->usr_ptr = r;
	h->pack_id = (int)r->slot;
	if (!sf->async) {
		if (ioctl(r->file->fd, SG_IO, h) < 0)
			r->res = -errno;
		else
			finish(st, r, h);
		return IOQ_DONE;
	}
	if (write(r->file->fd, h, sizeof(*h)) < 0) {
		/* EDOM: the sg driver's queue of the descriptor is full (16 in sg v3) */
		if ((errno == EAGAIN || errno == EDOM || errno == ENOMEM) && sf->live)
			return IOQ_BUSY;
		r->res = -errno;
		return IOQ_DONE;
	}
	sf->live++;
	return IOQ_QUEUED;
}

/* Send the UNMAP that gathered trims; if it cannot go, they end with the error. */
static void flush_trims(struct ioengine *e)
{
	struct sg_state *st = e->priv;
	struct sg_slot *s;
	struct io_req *r;
	uint32_t xfer;
	unsigned len;

	if (st->gather < 0)
		return;
	s = &st->slots[st->gather];
	r = s->batch[0];
	st->gather = -1;
	len = sg_cdb_unmap(s->cdb, s->unmap, s->nbatch, &xfer);
	sg_hdr_init(&s->hdr, s->cdb, len, s->sense, s->unmap, xfer, SG_DXFER_TO_DEV);
	if (send(e, r, &s->hdr) == IOQ_QUEUED)
		return;
	for (unsigned i = 0; i < s->nbatch; i++) {
		s->batch[i]->res = r->res < 0 ? r->res : -EAGAIN;
		st->unsent[st->nunsent++] = s->batch[i];
	}
	s->nbatch = 0;
}

/* A trim: an UNMAP of its own where commands wait, else one more range of the gathered. */
static enum ioq_status queue_trim(struct ioengine *e, struct io_req *r, const struct sg_rw *rw)
{
	struct sg_state *st = e->priv;
	struct sg_slot *s = &st->slots[r->slot];
	uint32_t xfer;
	unsigned len;

	if (!file_of(e, r->file)->async) {
		sg_unmap_range(s->unmap, 0, rw->lba, rw->blocks);
		len = sg_cdb_unmap(s->cdb, s->unmap, 1, &xfer);
		sg_hdr_init(&s->hdr, s->cdb, len, s->sense, s->unmap, xfer, SG_DXFER_TO_DEV);
		s->nbatch = 0;
		return send(e, r, &s->hdr);
	}
	if (st->gather >= 0 && (st->slots[st->gather].batch[0]->file != r->file ||
				st->slots[st->gather].nbatch == SG_UNMAP_MAX))
		flush_trims(e);
	if (st->gather < 0) {
		st->gather = (int)r->slot;
		s->nbatch = 0;
	}
	s = &st->slots[st->gather];
	sg_unmap_range(s->unmap, s->nbatch, rw->lba, rw->blocks);
	s->batch[s->nbatch++] = r;
	st->unreported++;
	return IOQ_QUEUED;
}

/* A sync waits for the file's commands to end, as fio's, then goes alone. */
static enum ioq_status queue_sync(struct ioengine *e, struct io_req *r)
{
	struct sg_state *st = e->priv;
	struct sg_slot *s = &st->slots[r->slot];
	struct sg_file *sf = file_of(e, r->file);
	unsigned len;

	if (st->gather >= 0)
		flush_trims(e);
	if (sf->live)
		return IOQ_BUSY;
	len = sg_cdb_sync(s->cdb);
	sg_hdr_init(&s->hdr, s->cdb, len, s->sense, NULL, 0, SG_DXFER_NONE);
	s->hdr.usr_ptr = r;
	if (ioctl(r->file->fd, SG_IO, &s->hdr) < 0)
		r->res = -errno;
	else
		finish(st, r, &s->hdr);
	return IOQ_DONE;
}

static enum ioq_status sg_queue(struct ioengine *e, struct io_req *r)
{
	const struct sg_opts *o = e->opts;
	struct sg_state *st = e->priv;
	struct sg_slot *s = &st->slots[r->slot];
	unsigned lbs = r->file->lbs, len;
	struct sg_rw rw = { r->off / lbs, r->len / lbs, lbs, false, 0 };
	enum ioq_status q;
	uint32_t xfer;
	bool hipri;

	if (r->dir >= IO_NDIR)
		return queue_sync(e, r);
	/* a residual count in part of a block would leave the rest unaligned */
	if ((r->off | r->len) % lbs) {
		r->res = -EINVAL;
		return IOQ_DONE;
	}
	if (r->dir == IO_TRIM)
		return queue_trim(e, r, &rw);
	if (st->gather >= 0)
		flush_trims(e);
	rw.fua = r->dir == IO_READ ? o->readfua : o->writefua;
	rw.stream = file_of(e, r->file)->stream;
	len = sg_cdb_rw(s->cdb, r->dir == IO_WRITE, o->write_mode, &rw, &xfer, &hipri);
	sg_hdr_init(&s->hdr, s->cdb, len, s->sense, r->buf, xfer,
		    r->dir == IO_READ ? SG_DXFER_FROM_DEV : SG_DXFER_TO_DEV);
	if (o->hipri && hipri)
		s->hdr.flags |= SG_FLAG_HIPRI;
	s->nbatch = 0;
	q = send(e, r, &s->hdr);
	if (q == IOQ_QUEUED)
		st->unreported++;
	return q;
}

/* The commands started in queue(); the trims gathered since go now, as one UNMAP. */
static int sg_submit(struct ioengine *e)
{
	struct sg_state *st = e->priv;
	int n = (int)st->unreported;

	flush_trims(e);
	st->unreported = 0;
	return n;
}

/* Read back what has ended, until max requests have: the commands read, or -errno. */
static int read_ended(struct ioengine *e, unsigned max)
{
	struct sg_state *st = e->priv;
	int n = 0;

	for (unsigned i = 0; i < e->nfiles; i++) {
		struct sg_file *sf = &st->files[i];
		struct sg_io_hdr h;

		while (sf->live && st->ndone < max) {
			if (read(e->files[i].fd, &h, sizeof(h)) < 0) {
				if (errno == EINTR)
					continue;
				if (errno == EAGAIN)
					break;
				return -errno;
			}
			sf->live--;
			ended(st, &h);
			n++;
		}
	}
	return n;
}

/* Sleep until a descriptor with commands out has one ended (timeout_ms, -1: for ever). */
static int wait_ended(struct ioengine *e, int timeout_ms)
{
	struct sg_state *st = e->priv;
	nfds_t n = 0;
	int ret;

	for (unsigned i = 0; i < e->nfiles; i++)
		if (st->files[i].live)
			st->pfds[n++] = (struct pollfd){ .fd = e->files[i].fd, .events = POLLIN };
	if (!n)
		return 0;
	ret = poll(st->pfds, n, timeout_ms);
	return ret < 0 && errno != EINTR ? -errno : ret;
}

static unsigned live_total(const struct ioengine *e)
{
	const struct sg_state *st = e->priv;
	unsigned n = 0;

	for (unsigned i = 0; i < e->nfiles; i++)
		n += st->files[i].live;
	return n;
}

/*
 * What has ended, up to max commands' worth: an UNMAP's trims all come back together, as
 * fio's do, even past max.
 */
static int sg_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	struct sg_state *st = e->priv;
	int ret;

	memcpy(st->done, st->unsent, st->nunsent * sizeof(*st->done));
	st->ndone = st->nunsent;
	st->nunsent = 0;
	while (st->ndone < max) {
		ret = read_ended(e, max);
		if (ret < 0)
			return ret;
		if (st->ndone >= min || !live_total(e))
			break;
		if (!ret && (ret = wait_ended(e, -1)) < 0)
			return ret;
	}
	return (int)st->ndone;
}

static struct io_req *sg_event(struct ioengine *e, unsigned i)
{
	const struct sg_state *st = e->priv;

	return st->done[i];
}

/* The device still writes into the buffers of commands out: wait for them (a while). */
static void sg_cleanup(struct ioengine *e)
{
	struct sg_state *st = e->priv;

	if (!st)
		return;
	while (live_total(e) && wait_ended(e, 2 * SG_TIMEOUT_MS) > 0) {
		st->ndone = 0;
		if (read_ended(e, e->nreqs) < 0)
			break;
	}
	sg_free(e, e->priv);
	e->priv = NULL;
}

static size_t sg_errdetails(struct ioengine *e, const struct io_req *r, char *buf, size_t len)
{
	const struct sg_state *st = e->priv;
	const struct sg_slot *s = &st->slots[r->slot];

	if (!s->failed.interface_id)
		return 0;
	return sg_describe(&s->failed, buf, len);
}

/* Before the run: sg_probe_device(), with the job's write mode. */
static int sg_probe_file(const struct job_desc *j, struct io_file *f, char *why, size_t len)
{
	const struct sg_opts *o = (const void *)j->engine_opts.bytes;

	return sg_probe_device(j, f, o->write_mode == SG_MODE_WRITE_STREAM, why, len);
}

static const struct opt_enum write_mode_vals[] = {
	{ "write", SG_MODE_WRITE, "WRITE(10/16), the default" },
	{ "write_and_verify", SG_MODE_WRITE_VERIFY, "WRITE AND VERIFY(10/16), BYTCHK 0: the "
	  "device checks the medium, not the data (writefua does not apply)" },
	{ "verify", SG_MODE_WRITE_VERIFY, "write_and_verify, by its older name" },
	{ "write_same", SG_MODE_WRITE_SAME, "WRITE SAME(10/16): the first block of each I/O "
	  "sent, written over all of its blocks (writefua does not apply)" },
	{ "same", SG_MODE_WRITE_SAME, "write_same, by its older name" },
	{ "write_same_ndob", SG_MODE_WRITE_SAME_NDOB, "WRITE SAME(16) with NDOB: nothing sent, "
	  "the device writes zeros" },
	{ "verify_bytchk_00", SG_MODE_VERIFY_00, "VERIFY(10/16), BYTCHK 00: the medium is "
	  "checked, no data sent" },
	{ "verify_bytchk_01", SG_MODE_VERIFY_01, "VERIFY(10/16), BYTCHK 01: the device compares "
	  "the data sent with the medium" },
	{ "verify_bytchk_11", SG_MODE_VERIFY_11, "VERIFY(10/16), BYTCHK 11: one block sent, "
	  "compared with every block of the I/O" },
	{ "write_stream", SG_MODE_WRITE_STREAM, "WRITE STREAM(16) to stream_id" },
	{ NULL, 0, NULL },
};

static const struct opt_def sg_options[] = {
	ENGINE_BOOL("sg", struct sg_opts, "hipri", hipri, "0",
		    "SGV4_FLAG_HIPRI on reads and writes: poll for the completion (a driver "
		    "without it ignores the flag)"),
	ENGINE_BOOL_ARG("sg", struct sg_opts, "readfua", readfua, "0",
			"set FUA (force unit access) on every read"),
	ENGINE_BOOL_ARG("sg", struct sg_opts, "writefua", writefua, "0",
			"set FUA (force unit access) on every write"),
	ENGINE_ENUM("sg", struct sg_opts, "sg_write_mode", write_mode, "write", write_mode_vals,
		    "the SCSI command a write sends"),
	ENGINE_UINT("sg", struct sg_opts, "stream_id", stream_id, "0", 0, 65535,
		    "write_stream: the stream; 0 opens one per file and closes it at the end"),
	{ NULL },
};

const struct ioengine_ops sg_engine = {
	.name		= "sg",
	.flags		= IOENG_TRIM,
	.help		= "SCSI generic: SG_IO on block devices, sg v3 write/read on /dev/sg* "
			  "(asynchronous up to iodepth)",
	.options	= sg_options,
	.options_size	= sizeof(struct sg_opts),
	.init		= sg_init,
	.init_hint	= sg_hint,
	.cleanup	= sg_cleanup,
	.probe_file	= sg_probe_file,
	.errdetails	= sg_errdetails,
	.open_files	= sg_open_files,
	.close_files	= sg_close_files,
	.queue		= sg_queue,
	.submit		= sg_submit,
	.getevents	= sg_getevents,
	.event		= sg_event,
};
