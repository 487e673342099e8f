/*
 * splice: data goes through a pipe, as fio's engine does. A read splices the file into the
 * pipe and vmsplices the pipe into the buffer, 64 KiB at a time; a write vmsplices the
 * buffer into the pipe and splices the pipe into the file. One I/O at a time.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#define SPLICE_CHUNK	(64u << 10)	/* a pipe's default capacity */

struct splice_state {
	int pipe[2];
	unsigned char scratch[SPLICE_CHUNK];	/* what is left in the pipe after an error */
};

static int splice_init(struct ioengine *e)
{
	struct splice_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	if (pipe2(st->pipe, O_CLOEXEC) < 0) {
		int err = errno;

		free(st);
		return -err;
	}
	e->priv = st;
	return 0;
}

static void splice_cleanup(struct ioengine *e)
{
	struct splice_state *st = e->priv;

	if (!st)
		return;
	close(st->pipe[0]);
	close(st->pipe[1]);
	free(st);
	e->priv = NULL;
}

/* What an error left in the pipe goes, so that the next I/O starts with it empty. */
static void discard(struct splice_state *st, size_t n)
{
	while (n) {
		ssize_t got = read(st->pipe[0], st->scratch, n < SPLICE_CHUNK ? n : SPLICE_CHUNK);

		if (got <= 0)
			return;
		n -= (size_t)got;
	}
}

/* Move the n bytes a splice put in the pipe into p. 0, or -errno. */
static int drain(struct splice_state *st, unsigned char *p, size_t n)
{
	while (n) {
		struct iovec iov = { .iov_base = p, .iov_len = n };
		ssize_t got = vmsplice(st->pipe[0], &iov, 1, 0);

		if (got <= 0) {
			discard(st, n);
			return got < 0 ? -errno : -EIO;
		}
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

/*
 * A chunk at a time: bytes read, or -errno when nothing was. A splice that moves less than
 * asked ends the call, short, and the loop sends the rest, as after a short pread.
 */
static int64_t splice_read(struct splice_state *st, struct io_req *r)
{
	loff_t off = (loff_t)r->off;
	uint32_t done = 0;

	while (done < r->len) {
		size_t want = r->len - done < SPLICE_CHUNK ? r->len - done : SPLICE_CHUNK;
		ssize_t got = splice(r->file->fd, &off, st->pipe[1], NULL, want,
				     want < r->len - done ? SPLICE_F_MORE : 0);
		int ret;

		if (got < 0)
			return done ? (int64_t)done : -errno;
		ret = drain(st, r->buf + done, (size_t)got);
		if (ret < 0)
			return done ? (int64_t)done : ret;
		done += (uint32_t)got;
		if ((size_t)got < want)
			break;
	}
	return done;
}

/* The same for a write: the buffer into the pipe, the pipe into the file. */
static int64_t splice_write(struct splice_state *st, struct io_req *r)
{
	loff_t off = (loff_t)r->off;
	uint32_t done = 0;

	while (done < r->len) {
		size_t want = r->len - done < SPLICE_CHUNK ? r->len - done : SPLICE_CHUNK;
		struct iovec iov = { .iov_base = r->buf + done, .iov_len = want };
		ssize_t got = vmsplice(st->pipe[1], &iov, 1, 0), put;

		if (got <= 0)
			return done ? (int64_t)done : got < 0 ? -errno : -EIO;
		put = splice(st->pipe[0], NULL, r->file->fd, &off, (size_t)got, 0);
		if (put < 0) {
			int err = errno;

			discard(st, (size_t)got);
			return done ? (int64_t)done : -err;
		}
		discard(st, (size_t)(got - put));
		done += (uint32_t)put;
		if (put < got || (size_t)got < want)
			break;
	}
	return done;
}

static enum ioq_status splice_queue(struct ioengine *e, struct io_req *r)
{
	struct splice_state *st = e->priv;

	if (r->dir == IO_READ)
		r->res = splice_read(st, r);
	else if (r->dir == IO_WRITE)
		r->res = splice_write(st, r);
	else
		ioengine_do_sync_io(r, true);
	return IOQ_DONE;
}

static const char *splice_hint(int err)
{
	return err == EMFILE || err == ENFILE ? "no file descriptors left for its pipe" : NULL;
}

const struct ioengine_ops splice_engine = {
	.name		= "splice",
	.flags		= IOENG_SYNC | IOENG_TRIM | IOENG_POSITIONAL,
	.fds		= 2,	/* the pipe */
	.help		= "splice and vmsplice through a pipe, one I/O at a time",
	.init		= splice_init,
	.init_hint	= splice_hint,
	.cleanup	= splice_cleanup,
	.queue		= splice_queue,
};
