/*
 * io_submit_mode=offload: the job's synchronous engine behind a pool of iodepth threads,
 * one per request slot, which the loop drives as an asynchronous engine.
 */
#ifndef ENGINE_LOOP_OFFLOAD_H
#define ENGINE_LOOP_OFFLOAD_H

struct worker;

/*
 * Stand in front of w's engine (w->ops and w->eng.priv are the offload's from here),
 * before the engine starts: its init() starts the threads, cleanup() stops them.
 * Returns 0 or -ENOMEM.
 */
int offload_attach(struct worker *w);

/* Give w its own engine back, after cleanup(); nothing when none was attached. */
void offload_detach(struct worker *w);

#endif
