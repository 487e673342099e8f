/*
 * Unit tests for engine/plan/content.c: what made blocks hold. A chunk is random for its first
 * 100-N% and zeros (or the pattern) after; dedupe_percentage=100 makes one block over and
 * over; a repeat copy is the unique block made next; a working-set copy is one of the
 * first unique blocks, and with dedupe_global one of another job's.
 */
#include "engine/plan/content.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "jobs/job.h"
#include "test_util.h"

#define BS	4096u

static void job_init(struct job_desc *j)
{
	memset(j, 0, sizeof(*j));
	j->name = "t";
	j->rw = RW_WRITE;
	for (int d = 0; d < IO_NDIR; d++)
		j->bs[d].min = j->bs[d].max = BS;
	j->scramble_buffers = true;
	j->randseed = 0x89;
	j->compress_chunk = 512;
	j->dedupe_ws_pct = 5;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

START_TEST(chunks_are_random_then_zeros_or_the_pattern)
{
	static const unsigned char pat[] = { 0xde, 0xad, 0xbe };
	unsigned char buf[BS];
	struct job_desc j;
	struct content c;

	job_init(&j);
	j.compress_pct = 75;
	j.compress_chunk = 1024;
	if (_i) {
		j.buffer_pattern = (unsigned char *)pat;
		j.buffer_pattern_len = sizeof(pat);
	}
	content_init(&c, &j, 1 << 20, 1);
	ck_assert_int_eq(c.per_write, CONTENT_FILL);	/* compress implies refill_buffers */
	content_fill(&c, buf, sizeof(buf));
	for (unsigned at = 0; at < BS; at += 1024) {
		ck_assert(!all_zero(buf + at + 256 - 8, 8));
		for (unsigned k = 256; k < 1024; k++)
			ck_assert_uint_eq(buf[at + k], _i ? pat[(k - 256) % sizeof(pat)] : 0);
	}
	ck_assert(memcmp(buf, buf + 1024, 256) != 0);	/* each chunk its own seed */
}
END_TEST

START_TEST(dedupe_100_makes_one_block)
{
	unsigned char a[BS], b[BS];
	struct job_desc j;
	struct content c;

	job_init(&j);
	j.dedupe_pct = 100;
	content_init(&c, &j, 1 << 20, 1);
	content_fill(&c, a, sizeof(a));
	content_fill(&c, b, sizeof(b));
	ck_assert(memcmp(a, b, BS) == 0);
	ck_assert(memcmp(a, a + 512, 512) == 0);	/* every chunk of it too */
}
END_TEST

/* Fill n blocks of one job into a new array. */
static unsigned char *fill_blocks(struct content *c, unsigned n)
{
	unsigned char *p = malloc((size_t)n * BS);

	ck_assert_ptr_nonnull(p);
	for (unsigned i = 0; i < n; i++)
		content_fill(c, p + (size_t)i * BS, BS);
	return p;
}

static int find_block(const unsigned char *set, unsigned n, const unsigned char *b)
{
	for (unsigned i = 0; i < n; i++)
		if (!memcmp(set + (size_t)i * BS, b, BS))
			return (int)i;
	return -1;
}

START_TEST(a_repeat_copy_is_the_unique_block_made_next)
{
	struct job_desc j;
	struct content c;
	unsigned char *p;
	unsigned copies = 0;

	job_init(&j);
	j.dedupe_pct = 50;
	content_init(&c, &j, 1 << 20, 1);
	p = fill_blocks(&c, 200);
	/* copies and the unique block they copy come together: each content in one run */
	for (unsigned i = 1; i < 200; i++) {
		const unsigned char *b = p + (size_t)i * BS;
		int first = find_block(p, 200, b);

		if (first == (int)i)
			continue;
		copies++;
		ck_assert_msg(memcmp(b, b - BS, BS) == 0, "block %u repeats block %d, not the "
			      "one before it", i, first);
	}
	ck_assert_uint_gt(copies, 50);
	free(p);
}
END_TEST

START_TEST(working_set_copies_come_from_the_first_unique_blocks)
{
	struct job_desc j;
	struct content c, u;
	unsigned char *p, *first;
	unsigned pages, n = 256;

	job_init(&j);
	j.dedupe_pct = 50;
	j.dedupe_mode = DEDUPE_WORKING_SET;
	j.dedupe_ws_pct = 10;
	content_init(&c, &j, (uint64_t)n * BS, 1);
	pages = (unsigned)c.ws_pages;
	ck_assert_uint_eq(pages, n / 10);
	p = fill_blocks(&c, n);
	content_init(&u, &j, (uint64_t)n * BS, 1);
	u.dedupe_pct = 0;	/* the same job's unique stream alone */
	first = fill_blocks(&u, pages);
	for (unsigned i = 0; i < n; i++) {
		const unsigned char *b = p + (size_t)i * BS;

		if (find_block(p, n, b) != (int)i)	/* a block seen before: a copy */
			ck_assert_int_ge(find_block(first, pages, b), 0);
	}
	free(p);
	free(first);
}
END_TEST

START_TEST(dedupe_global_copies_other_jobs_blocks)
{
	struct job_desc j;
	struct content c, other;
	unsigned char *p, *theirs;
	unsigned n = 256, found = 0;

	job_init(&j);
	j.dedupe_pct = 50;
	j.dedupe_mode = DEDUPE_WORKING_SET;
	j.dedupe_ws_pct = 20;
	j.dedupe_global = true;
	content_init(&c, &j, (uint64_t)n * BS, 2);
	p = fill_blocks(&c, n);
	j.index = 1;
	content_init(&other, &j, (uint64_t)n * BS, 2);
	other.dedupe_pct = 0;	/* job 1's unique stream */
	theirs = fill_blocks(&other, n);
	for (unsigned i = 0; i < n; i++)
		found += find_block(theirs, n, p + (size_t)i * BS) >= 0;
	ck_assert_uint_gt(found, 10);
	free(p);
	free(theirs);
}
END_TEST

START_TEST(defaults_scramble_and_zero_buffers_keep)
{
	struct job_desc j;
	struct content c;

	job_init(&j);
	content_init(&c, &j, 1 << 20, 1);
	ck_assert_int_eq(c.per_write, CONTENT_SCRAMBLE);
	j.zero_buffers = true;
	content_init(&c, &j, 1 << 20, 1);
	ck_assert_int_eq(c.per_write, CONTENT_KEEP);
	j.refill_buffers = true;
	content_init(&c, &j, 1 << 20, 1);
	ck_assert_int_eq(c.per_write, CONTENT_FILL);
	j.zero_buffers = false;
	content_init(&c, &j, 1 << 20, 1);
	ck_assert_int_eq(c.per_write, CONTENT_RANDOM);
}
END_TEST

static Suite *content_suite(void)
{
	Suite *s = suite_create("content");
	TCase *tc;

	tc = tcase_create("compress");
	tcase_add_loop_test(tc, chunks_are_random_then_zeros_or_the_pattern, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("dedupe");
	tcase_add_test(tc, dedupe_100_makes_one_block);
	tcase_add_test(tc, a_repeat_copy_is_the_unique_block_made_next);
	tcase_add_test(tc, working_set_copies_come_from_the_first_unique_blocks);
	tcase_add_test(tc, dedupe_global_copies_other_jobs_blocks);
	suite_add_tcase(s, tc);

	tc = tcase_create("per_write");
	tcase_add_test(tc, defaults_scramble_and_zero_buffers_keep);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(content_suite());
}
