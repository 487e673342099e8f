/*
 * Unit tests of the offset and size parsers (jobs/opt_offsets.c, and rw=, bs= and
 * random_distribution= in jobs/opt_custom.c): fio's value forms and what each refuses.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <check.h>

#include "base/arena.h"
#include "jobs/opt_custom.h"
#include "jobs/opt_offsets.h"
#include "test_util.h"

static struct arena *arena;
static struct job_desc j;
static char why[256];

static const struct opt_ctx ctx = { .kb_base = 1024, .arena = &arena };

static void setup(void)
{
	memset(&j, 0, sizeof(j));
	why[0] = '\0';
}

static void teardown(void)
{
	arena_free(&arena);
}

START_TEST(io_size_takes_bytes_percent_and_zones)
{
	ck_assert_int_eq(opt_io_size_parse(&ctx, "64k", &j, why, sizeof(why)), 0);
	ck_assert_uint_eq(j.io_size, 65536);
	ck_assert_int_eq(opt_io_size_parse(&ctx, "25%", &j, why, sizeof(why)), 0);
	ck_assert_uint_eq(j.io_size, 0);
	ck_assert_uint_eq(j.io_size_pct, 25);
	ck_assert_int_eq(opt_io_size_parse(&ctx, "3z", &j, why, sizeof(why)), 0);
	ck_assert_uint_eq(j.io_size_zones, 3);
	ck_assert_uint_eq(j.io_size_pct, 0);
}
END_TEST

START_TEST(io_size_refuses_above_a_hundred_percent_and_junk)
{
	ck_assert_int_eq(opt_io_size_parse(&ctx, "150%", &j, why, sizeof(why)), -ERANGE);
	ck_assert_int_eq(opt_io_size_parse(&ctx, "2q", &j, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(opt_io_size_parse(&ctx, "xz", &j, why, sizeof(why)), -EINVAL);
}
END_TEST

START_TEST(zoneskip_takes_bytes_or_zones)
{
	ck_assert_int_eq(opt_zoneskip_parse(&ctx, "16k", &j, why, sizeof(why)), 0);
	ck_assert_uint_eq(j.zone_skip, 16384);
	ck_assert_int_eq(opt_zoneskip_parse(&ctx, "2z", &j, why, sizeof(why)), 0);
	ck_assert_uint_eq(j.zone_skip, 0);
	ck_assert_uint_eq(j.zone_skip_zones, 2);
}
END_TEST

START_TEST(percentage_random_is_per_direction)
{
	ck_assert_int_eq(opt_perc_random_parse(&ctx, "30", &j, why, sizeof(why)), 0);
	for (int d = 0; d < IO_NDIR; d++)
		ck_assert_uint_eq(j.percentage_random[d], 30);
	ck_assert_int_eq(opt_perc_random_parse(&ctx, "10,90", &j, why, sizeof(why)), 0);
	ck_assert_uint_eq(j.percentage_random[IO_READ], 10);
	ck_assert_uint_eq(j.percentage_random[IO_WRITE], 90);
	ck_assert_uint_eq(j.percentage_random[IO_TRIM], 90);
	ck_assert_int_eq(opt_perc_random_parse(&ctx, "101", &j, why, sizeof(why)), -EINVAL);
}
END_TEST

START_TEST(zoned_tables_per_direction)
{
	ck_assert_int_eq(opt_distribution_parse(&ctx, "zoned:60/10:30/20:10/70,100/50", &j, why,
						sizeof(why)), 0);
	ck_assert_int_eq(j.random_distribution, DIST_ZONED);
	ck_assert_uint_eq(j.ndist_zones[IO_READ], 3);
	ck_assert_uint_eq(j.dist_zones[IO_READ][1].access_pct, 30);
	ck_assert_uint_eq(j.dist_zones[IO_READ][1].size_pct, 20);
	ck_assert_uint_eq(j.ndist_zones[IO_WRITE], 1);
	ck_assert_uint_eq(j.ndist_zones[IO_TRIM], 1);
	ck_assert_int_eq(opt_distribution_parse(&ctx, "zoned_abs:50/1g:50/3g", &j, why,
						sizeof(why)), 0);
	ck_assert_int_eq(j.random_distribution, DIST_ZONED_ABS);
	ck_assert_uint_eq(j.dist_zones[IO_READ][1].size_bytes, 3ULL << 30);
}
END_TEST

START_TEST(zoned_accesses_must_add_up_to_a_hundred)
{
	ck_assert_int_eq(opt_distribution_parse(&ctx, "zoned:60/10:30/20", &j, why, sizeof(why)),
			 -EINVAL);
	ck_assert(strstr(why, "90"));
	ck_assert_int_eq(opt_distribution_parse(&ctx, "zoned:50/60:50/60", &j, why, sizeof(why)),
			 -EINVAL);
	ck_assert_int_eq(opt_distribution_parse(&ctx, "zoned", &j, why, sizeof(why)), -EINVAL);
}
END_TEST

START_TEST(skewed_distributions_take_a_center)
{
	ck_assert_int_eq(opt_distribution_parse(&ctx, "zipf:1.2:0.25", &j, why, sizeof(why)), 0);
	ck_assert(j.dist_param == 1.2 && j.dist_center == 0.25);
	ck_assert_int_eq(opt_distribution_parse(&ctx, "normal:20", &j, why, sizeof(why)), 0);
	ck_assert(j.dist_center == -1);
	ck_assert_int_eq(opt_distribution_parse(&ctx, "pareto:0.3:1.5", &j, why, sizeof(why)),
			 -EINVAL);
}
END_TEST

START_TEST(rw_skip_may_be_negative)
{
	ck_assert_int_eq(opt_rw_parse(&ctx, "read:-8k", &j, why, sizeof(why)), 0);
	ck_assert_int_eq(j.rw_nr, -8192);
	ck_assert_int_eq(opt_rw_parse(&ctx, "write:4k", &j, why, sizeof(why)), 0);
	ck_assert_int_eq(j.rw_nr, 4096);
	ck_assert_int_eq(opt_rw_parse(&ctx, "randread:-2", &j, why, sizeof(why)), -EINVAL);
}
END_TEST

START_TEST(bs_dash_form_is_its_first_size)
{
	ck_assert_int_eq(opt_bs_parse(&ctx, "4k-16k", &j, why, sizeof(why)), 0);
	ck_assert_uint_eq(j.bs[IO_READ].min, 4096);
	ck_assert_uint_eq(j.bs[IO_READ].max, 4096);
	ck_assert_int_eq(opt_bs_parse(&ctx, "4k-16q", &j, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(opt_bs_parse(&ctx, "4kq", &j, why, sizeof(why)), -EINVAL);
}
END_TEST

static Suite *opt_offsets_suite(void)
{
	Suite *s = suite_create("opt_offsets");
	TCase *tc = tcase_create("sizes");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, io_size_takes_bytes_percent_and_zones);
	tcase_add_test(tc, io_size_refuses_above_a_hundred_percent_and_junk);
	tcase_add_test(tc, zoneskip_takes_bytes_or_zones);
	tcase_add_test(tc, bs_dash_form_is_its_first_size);
	suite_add_tcase(s, tc);

	tc = tcase_create("pattern");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, percentage_random_is_per_direction);
	tcase_add_test(tc, rw_skip_may_be_negative);
	suite_add_tcase(s, tc);

	tc = tcase_create("distributions");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, zoned_tables_per_direction);
	tcase_add_test(tc, zoned_accesses_must_add_up_to_a_hundred);
	tcase_add_test(tc, skewed_distributions_take_a_center);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(opt_offsets_suite());
}
