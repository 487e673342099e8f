/* openfiles=: which of a job's files are open, and the one the next I/O goes to. */
#include "engine/plan/file_window.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/plan/files.h"
#include "engine/worker.h"

struct window_file {
	uint64_t served;	/* bytes planned in this pass */
	unsigned inflight;	/* I/Os and syncs planned and not yet completed */
	bool done;		/* its pass is planned to the end: close it, take no more */
};

int window_init(struct worker *w)
{
	struct file_window *win = &w->plan.window;
	unsigned limit = w->job->openfiles;

	memset(win, 0, sizeof(*win));
	/* an engine of names (filecreate, filestat) opens no file it keeps: nothing to limit */
	if (!limit || limit >= w->nfiles || w->target || (w->eng.ops->flags & IOENG_NAMES))
		return 0;
	win->files = calloc(w->nfiles, sizeof(*win->files));
	if (!win->files)
		return -ENOMEM;
	win->on = true;
	win->limit = limit;
	win->nopen = win->next_open = limit;	/* files_open() opened the first ones */
	win->left = w->job->file_service_nr;
	return 0;
}

void window_free(struct worker *w)
{
	free(w->plan.window.files);
	w->plan.window.files = NULL;
	w->plan.window.on = false;
}

static void open_failed(struct worker *w, int err, const char *msg);
static void tell_engine(struct worker *w);

/*
 * A new loop starts from the first files, as fio's (it closes the files between loops):
 * those open are closed (synced first where fsync_on_close or end_fsync asks and the
 * loop's end did not), the first openfiles= of them opened. The loop before may have
 * ended with any of them open, the first ones closed.
 */
void window_reset(struct worker *w)
{
	struct file_window *win = &w->plan.window;
	const struct job_desc *j = w->job;
	char err[512];

	if (!win->on)
		return;
	for (unsigned i = 0; i < w->nfiles; i++) {
		struct io_file *f = &w->files[i];

		if (f->fd < 0)
			continue;
		if ((j->fsync_on_close || j->end_fsync) && job_modifies(j) && !f->synced)
			fsync(f->fd);
		close(f->fd);
		f->fd = -1;
	}
	memset(win->files, 0, w->nfiles * sizeof(*win->files));
	win->nopen = win->next_open = 0;
	win->cur = 0;
	win->waiting = false;
	win->left = j->file_service_nr;
	for (unsigned i = 0; i < win->limit; i++) {
		int ret = files_open_one(j, &w->files[i], err, sizeof(err));

		if (ret < 0) {
			open_failed(w, -ret, err);
			return;
		}
		win->nopen++;
		win->next_open++;
	}
	win->changed = true;
	tell_engine(w);
}

/* The job fails: a file of its window would not open. */
static void open_failed(struct worker *w, int err, const char *msg)
{
	w->issuing = false;
	if (w->error)
		return;
	w->error = err;
	snprintf(w->error_msg, sizeof(w->error_msg), "%s", msg);
}

/* Close file i, done and with nothing in flight (fsynced first, as fio's close does). */
static void close_one(struct worker *w, unsigned i)
{
	struct io_file *f = &w->files[i];

	if ((w->job->fsync_on_close || w->job->end_fsync) && job_modifies(w->job))
		fsync(f->fd);
	close(f->fd);
	f->fd = -1;
	w->plan.window.nopen--;
	w->plan.window.changed = true;
}

/* Open the next files not done, in order, up to the limit; a new pass once all are done. */
static void refill(struct worker *w)
{
	struct file_window *win = &w->plan.window;
	char err[512];

	/*
	 * the loop's bytes are done: no file to open for them, as fio opens none (a loop cut
	 * short by number_ios goes on where it stopped, so that one still opens its next)
	 */
	if (!w->plan.bytes_left)
		return;

	while (win->nopen < win->limit) {
		unsigned i = win->next_open;
		int ret;

		if (i == w->nfiles) {
			if (win->nopen)
				return;		/* the last of this pass still take I/O */
			for (unsigned k = 0; k < w->nfiles; k++) {
				win->files[k].served = 0, win->files[k].done = false;
				/* seq_ends: every stream starts again, as fio's next loop */
				if (w->plan.seq_ends)
					memset(w->plan.files[k].seq_pos, 0,
					       sizeof(w->plan.files[k].seq_pos));
			}
			win->next_open = 0;
			/* fio's next loop over the files: its draws again (loops_repeat()) */
			if (w->plan.repeat && !(w->plan.random && w->job->time_based))
				w->rng = w->plan.rng_start;
			/* or the loop's end, short of its bytes by the files' tails, as fio's */
			if (w->plan.seq_stop || w->plan.pass_ends)
				w->plan.bytes_left = 0;
			continue;
		}
		win->next_open++;
		if (w->files[i].fd >= 0 || win->files[i].done)
			continue;
		ret = files_open_one(w->job, &w->files[i], err, sizeof(err));
		if (ret < 0) {
			open_failed(w, -ret, err);
			return;
		}
		win->nopen++;
		win->changed = true;
	}
}

/* The engine lets go of the old descriptors and takes the new ones (registered files). */
static void tell_engine(struct worker *w)
{
	if (!w->plan.window.changed || !w->ops->open_files)
		return;
	w->plan.window.changed = false;
	if (w->ops->close_files)
		w->ops->close_files(&w->eng);
	if (w->ops->open_files(&w->eng) < 0)
		open_failed(w, EIO, "openfiles: the engine cannot take the files opened");
}

static bool usable(const struct worker *w, unsigned i)
{
	return w->files[i].fd >= 0 && !w->plan.window.files[i].done;
}

/*
 * The next open file after i that can take I/O: for file_service_type=random any usable
 * one alike; for zipf, pareto and normal a few draws of their skew, then the next usable
 * after the last draw.
 */
static int next_usable(struct worker *w, unsigned i)
{
	unsigned n = w->nfiles;

	if (w->job->file_service > FSRV_RANDOM) {
		for (int tries = 0; tries < 8; tries++) {
			i = plan_draw_file(w);
			if (usable(w, i))
				return (int)i;
		}
	} else if (w->job->file_service == FSRV_RANDOM) {
		unsigned k = 0, pick;

		for (unsigned f = 0; f < n; f++)
			k += usable(w, f);
		if (!k)
			return -1;
		pick = (unsigned)rng_below(&w->rng, k);
		for (unsigned f = 0; f < n; f++)
			if (usable(w, f) && !pick--)
				return (int)f;
	}
	for (unsigned k = 1; k <= n; k++)
		if (usable(w, (i + k) % n))
			return (int)((i + k) % n);
	return -1;
}

int window_pick(struct worker *w)
{
	struct file_window *win = &w->plan.window;
	int i = (int)win->cur;

	if (!usable(w, win->cur))
		i = next_usable(w, win->cur);
	win->waiting = i < 0 && w->issuing;
	if (i < 0)
		return -1;
	win->cur = (unsigned)i;
	return i;
}

void window_served(struct worker *w, unsigned i, uint32_t len)
{
	struct file_window *win = &w->plan.window;
	struct window_file *wf = &win->files[i];

	wf->served += len;
	/*
	 * closed when its last I/O completes: its region served, or its random pass over
	 * first (bs_unaligned: an I/O of 1.5k takes two 1k blocks of the map; a region's tail
	 * of less than a block); seq_ends: when a stream ends (window_file_over())
	 */
	if ((wf->served >= w->files[i].io_len ||
	     plan_random_pass_over(&w->plan, &w->plan.files[i])) && !w->plan.seq_ends)
		wf->done = true;
	/* switch every file_service_nr I/Os; sequential stays until the file is done */
	if (w->job->file_service != FSRV_SEQUENTIAL && --win->left == 0) {
		int next = next_usable(w, i);

		win->left = w->job->file_service_nr;
		if (next >= 0)
			win->cur = (unsigned)next;
	}
}

/*
 * seq_ends: file i has no room for its stream's next block, so its pass is over: it takes
 * no more I/O, and closes now if nothing of it is in flight (else at the last completion).
 * The I/O window_pick() counted on it goes to another file.
 */
void window_file_over(struct worker *w, unsigned i)
{
	struct file_window *win = &w->plan.window;
	struct window_file *wf = &win->files[i];

	wf->done = true;
	if (wf->inflight || w->files[i].fd < 0 || w->plan.sync_due == &w->files[i])
		return;
	close_one(w, i);
	refill(w);
	tell_engine(w);
}

void window_issued(struct worker *w, unsigned i)
{
	w->plan.window.files[i].inflight++;
}

void window_completed(struct worker *w, const struct io_req *r)
{
	struct file_window *win = &w->plan.window;
	unsigned i = (unsigned)(r->file - w->files);
	struct window_file *wf = &win->files[i];

	/* a sync planned after its last write (fsync=, sync_file_range=) goes first */
	if (--wf->inflight || !wf->done || w->files[i].fd < 0 || w->plan.sync_due == r->file)
		return;
	close_one(w, i);
	refill(w);
	tell_engine(w);
	win->waiting = false;
}
