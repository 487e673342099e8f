/*
 * Unit tests for striping: md RAID0's arithmetic (engine/stripe/stripe_map.c) on tables of
 * offsets at and around chunk boundaries, and the stripe engine (engine/stripe/stripe.c) in front
 * of a scripted engine that records every part and completes them in the order a test
 * chooses, so that splitting, submitting and completing requests are checked exactly.
 */
#include "engine/stripe/stripe.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine/stripe/stripe_map.h"
#include "engine/worker.h"
#include "engine/plan/offsets.h"
#include "test_util.h"

#define KiB		1024ULL
#define MiB		(1024ULL * KiB)

static void map4(struct stripe_map *m, uint64_t chunk)
{
	const uint64_t sizes[] = { 4 * MiB, 4 * MiB, 4 * MiB, 4 * MiB };

	ck_assert_int_eq(stripe_map_init(m, chunk, sizes, 4), 0);
}

/* --- where an offset lives -------------------------------------------------------------- */

static const struct {
	uint64_t chunk, off;
	unsigned n, member;
	uint64_t member_off;
} locate_cases[] = {
	{ 64 * KiB, 0, 4, 0, 0 },
	{ 64 * KiB, 64 * KiB - 1, 4, 0, 64 * KiB - 1 },		/* last byte of the first chunk */
	{ 64 * KiB, 64 * KiB, 4, 1, 0 },			/* first byte of the second */
	{ 64 * KiB, 3 * 64 * KiB, 4, 3, 0 },			/* last chunk of the first row */
	{ 64 * KiB, 4 * 64 * KiB - 1, 4, 3, 64 * KiB - 1 },	/* the row's last byte */
	{ 64 * KiB, 4 * 64 * KiB, 4, 0, 64 * KiB },		/* the next row: member 0 */
	{ 64 * KiB, 5 * 64 * KiB + 5, 4, 1, 64 * KiB + 5 },
	{ 64 * KiB, 4 * MiB - 1, 4, 3, MiB - 1 },		/* the last byte of the target */
	{ 96 * KiB, 3 * 96 * KiB, 3, 0, 96 * KiB },		/* a chunk that is no power of 2 */
	{ 96 * KiB, 5 * 96 * KiB + 7, 3, 2, 96 * KiB + 7 },
	{ 4 * KiB, 9 * 4 * KiB, 2, 1, 4 * 4 * KiB },
};

START_TEST(locate_follows_the_raid0_formula)
{
	const uint64_t sizes[] = { 64 * MiB, 64 * MiB, 64 * MiB, 64 * MiB };
	struct stripe_map m;
	uint64_t moff;
	unsigned member;

	ck_assert_int_eq(stripe_map_init(&m, locate_cases[_i].chunk, sizes, locate_cases[_i].n),
			 0);
	stripe_map_locate(&m, locate_cases[_i].off, &member, &moff);
	ck_assert_uint_eq(member, locate_cases[_i].member);
	ck_assert_uint_eq(moff, locate_cases[_i].member_off);
}
END_TEST

/* --- the target's size -------------------------------------------------------------------- */

START_TEST(size_is_n_times_the_smallest_member_in_whole_chunks)
{
	const uint64_t unequal[] = { MiB + 100 * KiB, MiB + 4 * KiB, 2 * MiB, MiB + 63 * KiB };
	const uint64_t odd[] = { 3 * MiB, MiB - 1 };
	const uint64_t even[] = { MiB, MiB };
	struct stripe_map m;

	ck_assert_int_eq(stripe_map_init(&m, 64 * KiB, unequal, 4), 0);
	ck_assert_uint_eq(m.member_bytes, MiB);		/* MiB + 63k: the 63k is no chunk */
	ck_assert_uint_eq(m.size, 4 * MiB);
	ck_assert_int_eq(stripe_map_init(&m, 64 * KiB, odd, 2), 0);
	ck_assert_uint_eq(m.member_bytes, MiB - 64 * KiB);
	ck_assert_uint_eq(m.size, 2 * (MiB - 64 * KiB));
	ck_assert_int_eq(stripe_map_init(&m, 96 * KiB, even, 2), 0);
	ck_assert_uint_eq(m.member_bytes, 10 * 96 * KiB);	/* 1024k holds ten 96k chunks */
	ck_assert_uint_eq(m.size, 20 * 96 * KiB);
}
END_TEST

START_TEST(a_target_needs_a_chunk_two_members_and_a_whole_chunk_each)
{
	const uint64_t small[] = { MiB, 64 * KiB - 512 };
	const uint64_t ok[] = { MiB, MiB };
	struct stripe_map m;

	ck_assert_int_eq(stripe_map_init(&m, 64 * KiB, small, 2), -EINVAL);
	ck_assert_int_eq(stripe_map_init(&m, 0, ok, 2), -EINVAL);
	ck_assert_int_eq(stripe_map_init(&m, 64 * KiB, ok, 1), -EINVAL);
}
END_TEST

/* --- cutting requests --------------------------------------------------------------------- */

struct cut_case {
	uint64_t off;
	uint32_t len;
	unsigned nparts;
	struct stripe_part parts[6];
};

/* chunk 64k over 4 members */
static const struct cut_case cut_cases[] = {
	/* inside one chunk: one part */
	{ 4 * KiB, 16 * KiB, 1, { { 0, 4 * KiB, 0, 16 * KiB } } },
	/* exactly one chunk */
	{ 64 * KiB, 64 * KiB, 1, { { 1, 0, 0, 64 * KiB } } },
	/* across one boundary */
	{ 60 * KiB, 16 * KiB, 2, { { 0, 60 * KiB, 0, 4 * KiB }, { 1, 0, 4 * KiB, 12 * KiB } } },
	/* across two */
	{ 60 * KiB, 72 * KiB, 3, { { 0, 60 * KiB, 0, 4 * KiB }, { 1, 0, 4 * KiB, 64 * KiB },
				  { 2, 0, 68 * KiB, 4 * KiB } } },
	/* 192k from 0: three chunks, three members */
	{ 0, 192 * KiB, 3, { { 0, 0, 0, 64 * KiB }, { 1, 0, 64 * KiB, 64 * KiB },
			     { 2, 0, 128 * KiB, 64 * KiB } } },
	/* from the last chunk of a row across every member into the next row: n boundaries */
	{ 224 * KiB, 256 * KiB, 5, { { 3, 32 * KiB, 0, 32 * KiB },
				     { 0, 64 * KiB, 32 * KiB, 64 * KiB },
				     { 1, 64 * KiB, 96 * KiB, 64 * KiB },
				     { 2, 64 * KiB, 160 * KiB, 64 * KiB },
				     { 3, 64 * KiB, 224 * KiB, 32 * KiB } } },
	/* the target's last chunk */
	{ 4 * MiB - 64 * KiB, 64 * KiB, 1, { { 3, MiB - 64 * KiB, 0, 64 * KiB } } },
};

START_TEST(requests_are_cut_at_chunk_boundaries)
{
	const struct cut_case *c = &cut_cases[_i];
	struct stripe_part got[8];
	struct stripe_map m;
	unsigned n;

	map4(&m, 64 * KiB);
	n = stripe_map_split(&m, c->off, c->len, got);
	ck_assert_uint_eq(n, c->nparts);
	ck_assert_uint_le(n, stripe_map_max_parts(&m, c->len));
	for (unsigned k = 0; k < n; k++) {
		const struct stripe_part *g = &got[k], *want = &c->parts[k];

		ck_assert_msg(g->member == want->member && g->off == want->off &&
			      g->at == want->at && g->len == want->len,
			      "case %d part %u: member %u off %llu at %u len %u", _i, k,
			      g->member, (unsigned long long)g->off, g->at, g->len);
	}
}
END_TEST

START_TEST(max_parts_is_the_worst_start)
{
	struct stripe_map m;

	map4(&m, 64 * KiB);
	ck_assert_uint_eq(stripe_map_max_parts(&m, 1), 1);
	ck_assert_uint_eq(stripe_map_max_parts(&m, 512), 2);	/* from a byte before a boundary */
	ck_assert_uint_eq(stripe_map_max_parts(&m, 16 * KiB), 2);
	ck_assert_uint_eq(stripe_map_max_parts(&m, 64 * KiB), 2);	/* unaligned: two */
	ck_assert_uint_eq(stripe_map_max_parts(&m, 64 * KiB + 512), 3);
	ck_assert_uint_eq(stripe_map_max_parts(&m, 192 * KiB), 4);
}
END_TEST

/* Any request: parts are contiguous in it, each in one chunk, each where locate says. */
START_TEST(random_cuts_cover_the_request_where_locate_says)
{
	const uint64_t sizes[] = { 8 * MiB, 8 * MiB, 8 * MiB };
	struct stripe_part parts[16];
	struct stripe_map m;
	struct rng rng;

	ck_assert_int_eq(stripe_map_init(&m, 24 * KiB, sizes, 3), 0);
	rng_seed(&rng, 42);
	for (int i = 0; i < 20000; i++) {
		uint32_t len = (uint32_t)(1 + rng_below(&rng, 200 * KiB));
		uint64_t off = rng_below(&rng, m.size - len), moff;
		unsigned n = stripe_map_split(&m, off, len, parts), member;
		uint32_t at = 0;

		if (n > stripe_map_max_parts(&m, len))
			ck_abort_msg("%u parts, max %u", n, stripe_map_max_parts(&m, len));
		for (unsigned k = 0; k < n; k++) {
			const struct stripe_part *p = &parts[k];

			stripe_map_locate(&m, off + at, &member, &moff);
			if (p->at != at || p->member != member || p->off != moff ||
			    moff / m.chunk != (moff + p->len - 1) / m.chunk)
				ck_abort_msg("off %llu len %u: part %u wrong",
					     (unsigned long long)off, len, k);
			at += p->len;
		}
		if (at != len)
			ck_abort_msg("off %llu len %u: parts cover %u", (unsigned long long)off,
				     len, at);
	}
}
END_TEST

/* --- the stripe engine over a scripted one ------------------------------------------------ */

#define MAX_SEEN	64

/* The scripted engine: records parts, submits at most submit_limit per call, completes
 * the submitted parts that a test releases. */
static struct {
	struct io_req *queued[MAX_SEEN], *inflight[MAX_SEEN], *events[MAX_SEEN];
	unsigned nqueued, ninflight, nreleased;
	unsigned submit_limit;
	struct io_req *seen[MAX_SEEN];	/* every part queued, in order */
	unsigned nseen;
	bool sync;
	int64_t fail_res;		/* result of the part at fail_at (0: none) */
	unsigned fail_at;
} fake;

static enum ioq_status fake_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	r->res = fake.fail_res && fake.nseen == fake.fail_at ? fake.fail_res : (int64_t)r->len;
	fake.seen[fake.nseen++] = r;
	if (fake.sync)
		return IOQ_DONE;
	fake.queued[fake.nqueued++] = r;
	return IOQ_QUEUED;
}

static int fake_submit(struct ioengine *e)
{
	unsigned n = fake.nqueued < fake.submit_limit ? fake.nqueued : fake.submit_limit;

	(void)e;
	memcpy(fake.inflight + fake.ninflight, fake.queued, n * sizeof(*fake.queued));
	fake.ninflight += n;
	fake.nqueued -= n;
	memmove(fake.queued, fake.queued + n, fake.nqueued * sizeof(*fake.queued));
	return (int)n;
}

/* Completes released parts, last submitted first: the parts' order must not matter. */
static int fake_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	unsigned n = 0;

	(void)e;
	(void)min;
	while (fake.nreleased && fake.ninflight && n < max) {
		fake.events[n++] = fake.inflight[--fake.ninflight];
		fake.nreleased--;
	}
	return (int)n;
}

static struct io_req *fake_event(struct ioengine *e, unsigned i)
{
	(void)e;
	return fake.events[i];
}

static const struct ioengine_ops fake_async = {
	.name = "fake", .queue = fake_queue, .submit = fake_submit,
	.getevents = fake_getevents, .event = fake_event,
};

static const struct ioengine_ops fake_sync = {
	.name = "fakesync", .flags = IOENG_SYNC, .queue = fake_queue,
};

#define DEPTH	4

static struct job_desc job;
static struct io_file members[4], target;
static struct io_req reqs[DEPTH];
static unsigned char bufs[DEPTH][256 * 1024];
static struct worker w;

/* A worker as worker_setup() leaves it, on 4 members of 1 MiB with 64k chunks. */
static void setup(const struct ioengine_ops *ops)
{
	static char *names[] = { "m0", "m1", "m2", "m3" };
	const char *why;

	memset(&fake, 0, sizeof(fake));
	fake.submit_limit = MAX_SEEN;
	fake.sync = ops->flags & IOENG_SYNC;
	memset(&job, 0, sizeof(job));
	job.name = "t";
	job.stripe_chunk = 64 * KiB;
	for (int d = 0; d < IO_NDIR; d++)
		job.bs[d].min = job.bs[d].max = 192 * KiB;
	for (int i = 0; i < 4; i++)
		members[i] = (struct io_file){ .path = names[i], .real_size = MiB, .lbs = 512 };
	target = (struct io_file){ .path = "target", .real_size = 4 * MiB, .io_len = 4 * MiB };
	memset(&w, 0, sizeof(w));
	w.job = &job;
	w.ops = ops;
	w.files = members;
	w.nfiles = 4;
	w.target = &target;
	why = ioengine_check_ops(ops);
	ck_assert_msg(!why, "the fake engine is refused: %s", why);
	ck_assert_int_eq(stripe_attach(&w), 0);
	/* the ops the stripe puts in front pass the registry's check too */
	why = ioengine_check_ops(w.ops);
	ck_assert_msg(!why, "the stripe's ops are refused: %s", why);
	for (unsigned i = 0; i < DEPTH; i++)
		reqs[i] = (struct io_req){ .slot = i, .buf_slot = i, .buf_base = bufs[i] };
	w.eng = (struct ioengine){ .ops = w.ops, .job = &job, .files = w.files, .nfiles = 1,
				   .reqs = reqs, .nreqs = DEPTH, .bufs = &bufs[0][0],
				   .nbufs = DEPTH, .buf_size = sizeof(bufs[0]),
				   .priv = w.eng.priv };
	ck_assert_int_eq(w.ops->init(&w.eng), 0);
}

static void teardown(void)
{
	w.ops->cleanup(&w.eng);
	stripe_detach(&w);
}

static struct io_req *request(unsigned slot, int dir, uint64_t off, uint32_t len)
{
	struct io_req *r = &reqs[slot];

	r->file = &target;
	r->dir = dir;
	r->off = off;
	r->len = r->full_len = len;
	r->buf = r->buf_base;
	r->res = 0;
	return r;
}

START_TEST(the_loop_sees_a_file_and_the_engine_the_members)
{
	setup(&fake_async);
	ck_assert_ptr_eq(w.files, &target);
	ck_assert_uint_eq(w.nfiles, 1);
	ck_assert_str_eq(w.ops->name, "fake");
	ck_assert_uint_eq(w.ops->flags & IOENG_INLINE_QD1, 0);
	teardown();
	ck_assert_ptr_eq(w.ops, &fake_async);
}
END_TEST

START_TEST(a_request_over_three_chunks_completes_with_its_last_part)
{
	struct io_req *r;

	setup(&fake_async);
	r = request(1, IO_WRITE, 64 * KiB, 192 * KiB);
	ck_assert_int_eq(w.ops->queue(&w.eng, r), IOQ_QUEUED);
	ck_assert_uint_eq(fake.nseen, 3);
	for (unsigned k = 0; k < 3; k++) {
		ck_assert_ptr_eq(fake.seen[k]->file, &members[k + 1]);
		ck_assert_uint_eq(fake.seen[k]->off, 0);
		ck_assert_uint_eq(fake.seen[k]->len, 64 * KiB);
		ck_assert_ptr_eq(fake.seen[k]->buf, bufs[1] + k * 64 * KiB);
		ck_assert_uint_eq(fake.seen[k]->buf_slot, 1);	/* fixedbufs: the request's */
	}
	ck_assert_int_eq(w.ops->submit(&w.eng), 1);
	fake.nreleased = 2;
	ck_assert_int_eq(w.ops->getevents(&w.eng, 0, DEPTH), 0);	/* two of three parts */
	fake.nreleased = 1;
	ck_assert_int_eq(w.ops->getevents(&w.eng, 1, DEPTH), 1);
	ck_assert_ptr_eq(w.ops->event(&w.eng, 0), r);
	ck_assert_int_eq(r->res, 192 * KiB);
	teardown();
}
END_TEST

START_TEST(a_request_counts_as_submitted_once_all_its_parts_are)
{
	setup(&fake_async);
	fake.submit_limit = 2;
	ck_assert_int_eq(w.ops->queue(&w.eng, request(0, IO_READ, 0, 192 * KiB)), IOQ_QUEUED);
	ck_assert_int_eq(w.ops->queue(&w.eng, request(1, IO_READ, 192 * KiB, 192 * KiB)),
			 IOQ_QUEUED);
	ck_assert_int_eq(w.ops->submit(&w.eng), 0);	/* 2 of the first's 3 parts */
	ck_assert_int_eq(w.ops->submit(&w.eng), 1);	/* 4 of 6 */
	ck_assert_int_eq(w.ops->submit(&w.eng), 1);	/* 6 of 6 */
	fake.nreleased = 6;
	ck_assert_int_eq(w.ops->getevents(&w.eng, 2, 1), 1);	/* max 1: one now... */
	ck_assert_int_eq(w.ops->getevents(&w.eng, 1, DEPTH), 1);	/* ...the other kept */
	teardown();
}
END_TEST

START_TEST(a_failed_part_fails_the_request_naming_the_member)
{
	struct io_req *r;

	setup(&fake_async);
	fake.fail_res = -EIO;
	fake.fail_at = 2;	/* parts on members 1, 2, 3 at 64k: the third fails */
	r = request(0, IO_WRITE, 320 * KiB, 192 * KiB);
	w.ops->queue(&w.eng, r);
	ck_assert_int_eq(w.ops->submit(&w.eng), 1);
	fake.nreleased = 3;
	ck_assert_int_eq(w.ops->getevents(&w.eng, 1, DEPTH), 1);
	ck_assert_int_eq(r->res, -EIO);
	ck_assert_ptr_eq(r->file, &members[3]);
	ck_assert_uint_eq(r->off, 64 * KiB);
	ck_assert_uint_eq(r->len, 64 * KiB);
	teardown();
}
END_TEST

START_TEST(a_short_part_completes_the_bytes_before_it)
{
	struct io_req *r;

	setup(&fake_async);
	fake.fail_res = 4096;	/* the second part moves 4k of its 64k */
	fake.fail_at = 1;
	r = request(0, IO_READ, 0, 192 * KiB);
	w.ops->queue(&w.eng, r);
	w.ops->submit(&w.eng);
	fake.nreleased = 3;
	ck_assert_int_eq(w.ops->getevents(&w.eng, 1, DEPTH), 1);
	ck_assert_int_eq(r->res, 64 * KiB + 4096);	/* the loop resubmits from there */
	ck_assert_ptr_eq(r->file, &target);
	teardown();
}
END_TEST

START_TEST(every_part_that_moved_data_counts_on_its_member)
{
	struct stripe_member_io io[4] = { 0 };

	setup(&fake_async);
	w.member_io = io;
	w.ops->queue(&w.eng, request(0, IO_WRITE, 64 * KiB, 192 * KiB));	/* members 1-3 */
	fake.fail_res = 4096;	/* the read's second part, on member 1, moves 4k */
	fake.fail_at = 4;
	w.ops->queue(&w.eng, request(1, IO_READ, 0, 192 * KiB));	/* members 0-2 */
	ck_assert_int_eq(w.ops->submit(&w.eng), 2);
	fake.nreleased = 6;
	ck_assert_int_eq(w.ops->getevents(&w.eng, 2, DEPTH), 2);
	teardown();
	ck_assert_uint_eq(io[0].ios[IO_WRITE], 0);
	for (int m = 1; m < 4; m++) {
		ck_assert_uint_eq(io[m].ios[IO_WRITE], 1);
		ck_assert_uint_eq(io[m].bytes[IO_WRITE], 64 * KiB);
	}
	ck_assert_uint_eq(io[0].bytes[IO_READ], 64 * KiB);
	ck_assert_uint_eq(io[1].bytes[IO_READ], 4096);
	ck_assert_uint_eq(io[2].bytes[IO_READ], 64 * KiB);	/* after the short one: counted */
	ck_assert_uint_eq(io[2].ios[IO_READ] + io[3].ios[IO_READ], 1);
}
END_TEST

START_TEST(a_sync_goes_to_every_member)
{
	struct io_req *r;

	setup(&fake_sync);
	r = request(0, IO_FSYNC, 0, 0);
	ck_assert_int_eq(w.ops->queue(&w.eng, r), IOQ_DONE);
	ck_assert_uint_eq(fake.nseen, 4);
	for (unsigned k = 0; k < 4; k++)
		ck_assert_ptr_eq(fake.seen[k]->file, &members[k]);
	ck_assert_int_eq(r->res, 0);
	teardown();
}
END_TEST

START_TEST(a_sync_engine_completes_every_part_in_queue)
{
	struct io_req *r;

	setup(&fake_sync);
	ck_assert_ptr_null(w.ops->submit);
	r = request(2, IO_WRITE, 4 * MiB - 96 * KiB, 96 * KiB);
	ck_assert_int_eq(w.ops->queue(&w.eng, r), IOQ_DONE);
	ck_assert_uint_eq(fake.nseen, 2);
	ck_assert_ptr_eq(fake.seen[0]->file, &members[2]);
	ck_assert_uint_eq(fake.seen[0]->off, MiB - 32 * KiB);
	ck_assert_ptr_eq(fake.seen[1]->file, &members[3]);
	ck_assert_uint_eq(fake.seen[1]->off, MiB - 64 * KiB);
	ck_assert_int_eq(r->res, 96 * KiB);
	teardown();
}
END_TEST

static Suite *stripe_suite(void)
{
	Suite *s = suite_create("stripe");
	TCase *tc;

	tc = tcase_create("map");
	tcase_add_loop_test(tc, locate_follows_the_raid0_formula, 0, TABLE_LEN(locate_cases));
	tcase_add_test(tc, size_is_n_times_the_smallest_member_in_whole_chunks);
	tcase_add_test(tc, a_target_needs_a_chunk_two_members_and_a_whole_chunk_each);
	tcase_add_loop_test(tc, requests_are_cut_at_chunk_boundaries, 0, TABLE_LEN(cut_cases));
	tcase_add_test(tc, max_parts_is_the_worst_start);
	tcase_add_test(tc, random_cuts_cover_the_request_where_locate_says);
	suite_add_tcase(s, tc);

	tc = tcase_create("engine");
	tcase_add_test(tc, the_loop_sees_a_file_and_the_engine_the_members);
	tcase_add_test(tc, a_request_over_three_chunks_completes_with_its_last_part);
	tcase_add_test(tc, a_request_counts_as_submitted_once_all_its_parts_are);
	tcase_add_test(tc, a_failed_part_fails_the_request_naming_the_member);
	tcase_add_test(tc, a_short_part_completes_the_bytes_before_it);
	tcase_add_test(tc, every_part_that_moved_data_counts_on_its_member);
	tcase_add_test(tc, a_sync_goes_to_every_member);
	tcase_add_test(tc, a_sync_engine_completes_every_part_in_queue);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(stripe_suite());
}
