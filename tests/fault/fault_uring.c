/*
 * The fault shim's io_uring part: a submit fails, or sends half of what is queued,
 * and completions of reads and writes are changed in the completion ring after liburing's
 * calls that wait for or run them (__io_uring_get_cqe, io_uring_get_events) and after
 * io_uring_submit() and io_uring_submit_and_get_events(), inside which reads of the page
 * cache complete. Which request
 * a completion belongs to is known from the entries io_uring_submit() sent. With deferred
 * task work (iojob's rings on Linux 6.1 and later) those calls are where every completion
 * appears; on older kernels one that arrives in between may escape its fault.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include <liburing.h>

#include "fault_shim.h"

#define URING_REQS	16384	/* requests remembered, by user_data */
#define URING_RINGS	64

struct uring_req {
	__u64 key;
	bool used;
	bool fixed;		/* fd is an index into registered files */
	__u8 opcode;
	int fd;
};

static pthread_mutex_t uring_lock = PTHREAD_MUTEX_INITIALIZER;
static struct uring_req uring_reqs[URING_REQS];
static struct {
	const struct io_uring *ring;
	unsigned seen;		/* completions up to here were looked at */
} rings[URING_RINGS];

static struct uring_req *uring_slot(__u64 key)
{
	size_t i = (size_t)((key >> 4) ^ (key >> 20)) % URING_REQS;

	for (size_t n = 0; n < URING_REQS; n++, i = (i + 1) % URING_REQS)
		if (!uring_reqs[i].used || uring_reqs[i].key == key)
			return &uring_reqs[i];
	return NULL;
}

/* Remember what each entry about to be submitted asks for. */
static void uring_note_sqes(const struct io_uring *ring)
{
	pthread_mutex_lock(&uring_lock);
	for (unsigned i = ring->sq.sqe_head; i != ring->sq.sqe_tail; i++) {
		const struct io_uring_sqe *sqe = &ring->sq.sqes[i & ring->sq.ring_mask];
		struct uring_req *r = uring_slot(sqe->user_data);

		if (!r)
			continue;
		*r = (struct uring_req){
			.key = sqe->user_data, .used = true, .opcode = sqe->opcode, .fd = sqe->fd,
			.fixed = sqe->flags & IOSQE_FIXED_FILE,
		};
	}
	pthread_mutex_unlock(&uring_lock);
}

static enum fault_call uring_call(__u8 opcode)
{
	switch (opcode) {
	case IORING_OP_READ:
	case IORING_OP_READV:
	case IORING_OP_READ_FIXED:
		return C_URING_READ;
	case IORING_OP_WRITE:
	case IORING_OP_WRITEV:
	case IORING_OP_WRITE_FIXED:
		return C_URING_WRITE;
	default:
		return C_NCALLS;
	}
}

/* Where the completions not looked at yet start; remembers that they will have been. */
static unsigned uring_first_new(const struct io_uring *ring, unsigned head, unsigned tail)
{
	unsigned start = head, i, free_slot = URING_RINGS;

	pthread_mutex_lock(&uring_lock);
	for (i = 0; i < URING_RINGS; i++) {
		if (rings[i].ring == ring)
			break;
		if (!rings[i].ring && free_slot == URING_RINGS)
			free_slot = i;
	}
	if (i == URING_RINGS)
		i = free_slot;
	if (i < URING_RINGS) {
		if (rings[i].ring == ring && (int)(rings[i].seen - head) > 0 &&
		    (int)(tail - rings[i].seen) >= 0)
			start = rings[i].seen;
		rings[i].ring = ring;
		rings[i].seen = tail;
	}
	pthread_mutex_unlock(&uring_lock);
	return start;
}

static void uring_fault_cqes(struct io_uring *ring)
{
	unsigned head = *ring->cq.khead, tail = __atomic_load_n(ring->cq.ktail, __ATOMIC_ACQUIRE);

	for (unsigned i = uring_first_new(ring, head, tail); i != tail; i++) {
		struct io_uring_cqe *cqe = &ring->cq.cqes[i & ring->cq.ring_mask];
		struct uring_req r = { 0 };
		struct uring_req *slot;
		enum fault_call call;
		int f;

		pthread_mutex_lock(&uring_lock);
		slot = uring_slot(cqe->user_data);
		if (slot && slot->used)
			r = *slot;
		pthread_mutex_unlock(&uring_lock);
		call = r.used ? uring_call(r.opcode) : C_NCALLS;
		if (call == C_NCALLS)
			continue;
		f = fault_hit(call, r.fixed ? FAULT_ANY_FD : r.fd);
		if (f > 0)
			cqe->res = -f;
		else if (f == FAULT_SHORT && cqe->res > 0)
			cqe->res = (__s32)fault_shorter((size_t)cqe->res);
	}
}

int io_uring_queue_init_params(unsigned entries, struct io_uring *ring,
			       struct io_uring_params *p)
{
	static int (*real)(unsigned, struct io_uring *, struct io_uring_params *);
	int f = fault_hit(C_URING_INIT, FAULT_ANY_FD);

	if (!real)
		real = (int (*)(unsigned, struct io_uring *, struct io_uring_params *))
		       dlsym(RTLD_NEXT, "io_uring_queue_init_params");
	if (f > 0)
		return -f;	/* liburing returns -errno */
	return real(entries, ring, p);
}

/* io_uring_submit() or io_uring_submit_and_get_events() (real), failed or cut short. */
static int submit_as(struct io_uring *ring, int (*real)(struct io_uring *))
{
	unsigned pending = ring->sq.sqe_tail - ring->sq.sqe_head, held = 0;
	int f, ret;

	uring_note_sqes(ring);
	f = fault_hit(C_URING_SUBMIT, FAULT_ANY_FD);
	if (f > 0)
		return -f;	/* liburing returns -errno; the entries stay queued */
	/* a partial submit: the last half waits for the next call */
	if (f == FAULT_SHORT && pending > 1) {
		held = pending / 2;
		ring->sq.sqe_tail -= held;
	}
	ret = real(ring);
	ring->sq.sqe_tail += held;
	uring_fault_cqes(ring);
	return ret;
}

int io_uring_submit(struct io_uring *ring)
{
	static int (*real)(struct io_uring *);

	if (!real)
		real = (int (*)(struct io_uring *))dlsym(RTLD_NEXT, "io_uring_submit");
	return submit_as(ring, real);
}

int io_uring_submit_and_get_events(struct io_uring *ring)
{
	static int (*real)(struct io_uring *);

	if (!real)
		real = (int (*)(struct io_uring *))dlsym(RTLD_NEXT,
							 "io_uring_submit_and_get_events");
	return submit_as(ring, real);
}

int __io_uring_get_cqe(struct io_uring *ring, struct io_uring_cqe **cqe_ptr, unsigned submit,
		       unsigned wait_nr, sigset_t *sigmask)
{
	static int (*real)(struct io_uring *, struct io_uring_cqe **, unsigned, unsigned,
			   sigset_t *);
	int ret;

	if (!real)
		real = (int (*)(struct io_uring *, struct io_uring_cqe **, unsigned, unsigned,
				sigset_t *))dlsym(RTLD_NEXT, "__io_uring_get_cqe");
	ret = real(ring, cqe_ptr, submit, wait_nr, sigmask);
	uring_fault_cqes(ring);
	return ret;
}

int io_uring_get_events(struct io_uring *ring)
{
	static int (*real)(struct io_uring *);
	int ret;

	if (!real)
		real = (int (*)(struct io_uring *))dlsym(RTLD_NEXT, "io_uring_get_events");
	ret = real(ring);
	uring_fault_cqes(ring);
	return ret;
}
