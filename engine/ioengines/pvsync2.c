/*
 * pvsync2: preadv2(2)/pwritev2(2) of a one-element vector, one I/O at a time, with the
 * per-call RWF_* flags fio's options ask for: hipri (polled completion, on a share of the
 * I/Os), uncached (buffered I/O that leaves no pages behind) and nowait.
 */
#include "engine/ioengine.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engine/plan/offsets.h"

struct pvsync2_opts {
	bool hipri;
	unsigned hipri_percentage;
	unsigned uncached;
	bool nowait;
};

struct pvsync2_state {
	int rwf;		/* the flags every I/O gets */
	int wrwf;		/* and every write: atomic */
	bool hipri_some;	/* hipri on a share of the I/Os only */
	struct rng rng;
};

static int pvsync2_init(struct ioengine *e)
{
	const struct pvsync2_opts *o = e->opts;
	struct pvsync2_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	/* as fio: uncached is for buffered I/O, and direct I/O caches nothing anyway */
	if (o->uncached && !e->job->direct)
		st->rwf |= RWF_DONTCACHE;
	if (o->nowait)
		st->rwf |= RWF_NOWAIT;
	if (o->hipri && o->hipri_percentage >= 100)
		st->rwf |= RWF_HIPRI;
	st->hipri_some = o->hipri && o->hipri_percentage < 100;
	st->wrwf = e->job->atomic ? RWF_ATOMIC : 0;
	rng_seed(&st->rng, e->job->randseed ^ 0x9e3779b9ULL ^ (uint64_t)e->job->jobnum << 32);
	e->priv = st;
	return 0;
}

static int pvsync2_open_files(struct ioengine *e)
{
	const struct pvsync2_state *st = e->priv;

	if (!(st->rwf & RWF_DONTCACHE))
		return 0;
	for (unsigned i = 0; i < e->nfiles; i++)
		if (ioengine_probe_dontcache(&e->files[i]) < 0)
			return -EOPNOTSUPP;
	return 0;
}

static const char *pvsync2_hint(int err)
{
	if (err == EOPNOTSUPP)
		return "uncached: the kernel or the file system refuses RWF_DONTCACHE (Linux "
		       "6.14 and a file system that supports it are needed)";
	return NULL;
}

static void pvsync2_cleanup(struct ioengine *e)
{
	free(e->priv);
	e->priv = NULL;
}

static enum ioq_status pvsync2_queue(struct ioengine *e, struct io_req *r)
{
	const struct pvsync2_opts *o = e->opts;
	struct pvsync2_state *st = e->priv;
	int rwf = st->rwf | (r->dir == IO_WRITE ? st->wrwf : 0);

	if (__builtin_expect(st->hipri_some, 0) &&
	    rng_below(&st->rng, 100) < o->hipri_percentage)
		rwf |= RWF_HIPRI;
	ioengine_do_vec_io(r, rwf);
	return IOQ_DONE;
}

static const struct opt_def pvsync2_options[] = {
	ENGINE_BOOL("pvsync2", struct pvsync2_opts, "hipri", hipri, "0",
		    "RWF_HIPRI: poll for the completion (needs a device with poll queues)"),
	ENGINE_UINT("pvsync2", struct pvsync2_opts, "hipri_percentage", hipri_percentage, "100",
		    0, 100, "with hipri: the percentage of I/Os that poll, drawn at random"),
	ENGINE_UINT("pvsync2", struct pvsync2_opts, "uncached", uncached, "0", 0, UINT32_MAX,
		    "non-zero: buffered I/O drops its pages once done (RWF_DONTCACHE)"),
	ENGINE_BOOL_ARG("pvsync2", struct pvsync2_opts, "nowait", nowait, "0",
			"RWF_NOWAIT: fail with EAGAIN rather than block (a read not cached)"),
	{ NULL },
};

const struct ioengine_ops pvsync2_engine = {
	.name		= "pvsync2",
	.flags		= IOENG_SYNC | IOENG_TRIM | IOENG_POSITIONAL | IOENG_ATOMIC,
	.help		= "preadv2/pwritev2 of one vector with RWF_* flags, one I/O at a time",
	.options	= pvsync2_options,
	.options_size	= sizeof(struct pvsync2_opts),
	.init		= pvsync2_init,
	.init_hint	= pvsync2_hint,
	.cleanup	= pvsync2_cleanup,
	.open_files	= pvsync2_open_files,
	.queue		= pvsync2_queue,
};
