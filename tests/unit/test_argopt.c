/*
 * Unit tests for base/argopt.c: options read from argv in both styles, values kept by
 * offset, help lines laid out and completion words, over a table of each kind of entry;
 * and iojob's own switch table walked for names that would shadow one another.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "base/argopt.h"
#include "cli/cli.h"
#include "test_util.h"

struct args {
	const char *out, *mode;
	struct argopt_kv where;
};

#define ARG(field)	offsetof(struct args, field)

static const char *color_at(unsigned i, const char **help)
{
	static const char *const names[] = { "red", "green", "blue" };

	*help = "a color";
	return i < 3 ? names[i] : NULL;
}

static void describe_mode(char *buf, size_t len)
{
	snprintf(buf, len, "made from a table");
}

static void list_words(FILE *f)
{
	fputs("one\ntwo\n", f);
}

static const struct argopt table[] = {
	{ .name = "out", .arg = ARGOPT_REQUIRED, .metavar = "FILE", .help = "write to FILE",
	  .off = ARG(out) },
	{ .name = "mode", .arg = ARGOPT_REQUIRED, .metavar = "MODE", .describe = describe_mode,
	  .values = "fast|slow", .list = list_words, .off = ARG(mode) },
	{ .name = "where", .arg = ARGOPT_REQUIRED, .metavar = "KEY=VALUE", .help = "filter",
	  .off = ARG(where), .kv = true },
	{ .name = "color", .arg = ARGOPT_OPTIONAL, .metavar = "COLOR", .help = "or none",
	  .value_at = color_at, .id = 7 },
	{ .name = "verbose", .alias = "v", .help = "say more", .id = 8 },
	{ .name = "old", .arg = ARGOPT_REQUIRED, .metavar = "X", .help = "refused",
	  .refuse = "use --out" },
	{ .name = "secret", .help = "for scripts", .hidden = true },
	{ NULL },
};

/* Read argv (NULL-ended) from its first argument; *i where the reader left it. */
static int read_args(enum argopt_style s, char **argv, int *i, struct argopt_got *got)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	*i = 0;
	return argopt_read(table, s, argc, argv, i, got);
}

START_TEST(read_takes_the_value_after_equals_or_as_the_next_argument)
{
	char *eq[] = { "--out=a.txt", NULL }, *next[] = { "--out", "b.txt", NULL };
	struct argopt_got got;
	int i;

	ck_assert_int_eq(read_args(ARGOPT_GNU, eq, &i, &got), 0);
	ck_assert_str_eq(got.opt->name, "out");
	ck_assert_str_eq(got.val, "a.txt");
	ck_assert_int_eq(i, 0);
	ck_assert_int_eq(read_args(ARGOPT_GNU, next, &i, &got), 0);
	ck_assert_str_eq(got.val, "b.txt");
	ck_assert_int_eq(i, 1);
}
END_TEST

START_TEST(read_says_a_required_value_is_missing)
{
	char *argv[] = { "--out", NULL };
	struct argopt_got got;
	int i;

	ck_assert_int_eq(read_args(ARGOPT_GNU, argv, &i, &got), -EINVAL);
	ck_assert_str_eq(got.opt->name, "out");
}
END_TEST

START_TEST(read_leaves_an_optional_value_and_a_flag_alone)
{
	char *opt[] = { "--color", "red", NULL }, *flag[] = { "--verbose", "x", NULL };
	struct argopt_got got;
	int i;

	ck_assert_int_eq(read_args(ARGOPT_GNU, opt, &i, &got), 0);
	ck_assert_ptr_null(got.val);
	ck_assert_int_eq(i, 0);
	ck_assert_int_eq(read_args(ARGOPT_GNU, flag, &i, &got), 0);
	ck_assert_ptr_null(got.val);
	ck_assert_int_eq(i, 0);
}
END_TEST

START_TEST(read_refuses_before_reading_a_value)
{
	char *argv[] = { "--old", NULL };
	struct argopt_got got;
	int i;

	ck_assert_int_eq(read_args(ARGOPT_GNU, argv, &i, &got), -EPERM);
	ck_assert_str_eq(got.opt->refuse, "use --out");
}
END_TEST

START_TEST(read_names_what_the_table_lacks)
{
	char *argv[] = { "--bs=4k", NULL };
	struct argopt_got got;
	int i;

	ck_assert_int_eq(read_args(ARGOPT_LONG_ONLY, argv, &i, &got), -ENOENT);
	ck_assert_ptr_null(got.opt);
	ck_assert_str_eq(got.key, "bs");
	ck_assert_str_eq(got.val, "4k");
}
END_TEST

START_TEST(gnu_style_takes_an_alias_after_one_dash_only)
{
	char *alias[] = { "-v", NULL }, *long_alias[] = { "--v", NULL };
	char *one_dash[] = { "-verbose", NULL };
	struct argopt_got got;
	int i;

	ck_assert_int_eq(read_args(ARGOPT_GNU, alias, &i, &got), 0);
	ck_assert_str_eq(got.opt->name, "verbose");
	ck_assert_int_eq(read_args(ARGOPT_GNU, long_alias, &i, &got), -ENOENT);
	ck_assert_int_eq(read_args(ARGOPT_GNU, one_dash, &i, &got), -ENOENT);
}
END_TEST

START_TEST(long_only_style_takes_names_and_aliases_after_either)
{
	char *one_dash[] = { "-verbose", NULL }, *long_alias[] = { "--v", NULL };
	struct argopt_got got;
	int i;

	ck_assert_int_eq(read_args(ARGOPT_LONG_ONLY, one_dash, &i, &got), 0);
	ck_assert_str_eq(got.opt->name, "verbose");
	ck_assert_int_eq(read_args(ARGOPT_LONG_ONLY, long_alias, &i, &got), 0);
	ck_assert_str_eq(got.opt->name, "verbose");
}
END_TEST

START_TEST(store_sets_the_field_at_the_offset)
{
	struct args a = { 0 };

	ck_assert_int_eq(argopt_store(argopt_find(table, "out"), &a, "x.txt"), 0);
	ck_assert_str_eq(a.out, "x.txt");
	ck_assert_ptr_null(a.mode);
}
END_TEST

START_TEST(store_keeps_key_values_in_order_up_to_the_limit)
{
	const struct argopt *w = argopt_find(table, "where");
	struct args a = { 0 };

	ck_assert_int_eq(argopt_store(w, &a, "novalue"), -EINVAL);
	for (int i = 0; i < ARGOPT_MAX_KV; i++)
		ck_assert_int_eq(argopt_store(w, &a, i ? "k=2" : "k=1"), 0);
	ck_assert_int_eq(argopt_store(w, &a, "k=3"), -ENOSPC);
	ck_assert_uint_eq(a.where.n, ARGOPT_MAX_KV);
	ck_assert_str_eq(a.where.kv[0], "k=1");
	ck_assert_str_eq(a.where.kv[1], "k=2");
}
END_TEST

/* What fn writes for the table, as a string to free. */
static char *written(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void complete_options(FILE *f, const void *arg)
{
	argopt_complete_options(f, arg);
}

static void complete_values(FILE *f, const void *arg)
{
	argopt_complete_values(f, arg);
}

START_TEST(completion_words_say_how_each_value_is_given)
{
	char *s = written(complete_options, table);

	ck_assert_str_eq(s, "--out=\tseparate\n--mode=\tseparate\n--where=\tseparate\n"
			 "--color\n--color=\n--verbose\n");
	free(s);
}
END_TEST

START_TEST(completion_values_come_from_the_list_the_table_and_the_function)
{
	char *mode = written(complete_values, argopt_find(table, "mode"));
	char *color = written(complete_values, argopt_find(table, "color"));

	ck_assert_str_eq(mode, "fast\nslow\none\ntwo\n");
	ck_assert_str_eq(color, "red\ngreen\nblue\n");
	free(mode);
	free(color);
}
END_TEST

START_TEST(help_is_described_or_made_of_the_values_then_the_help)
{
	char buf[128];

	ck_assert_str_eq(argopt_help(argopt_find(table, "mode"), buf, sizeof(buf)),
			 "made from a table");
	ck_assert_str_eq(argopt_help(argopt_find(table, "color"), buf, sizeof(buf)),
			 "red, green or blue; or none");
	ck_assert_str_eq(argopt_help(argopt_find(table, "out"), buf, sizeof(buf)),
			 "write to FILE");
}
END_TEST

static void usage(FILE *f, const void *page)
{
	argopt_usage(f, table, page);
}

START_TEST(usage_lines_follow_the_page_and_leave_out_hidden_and_refused)
{
	const struct argopt_page gnu = { 14, 40, 1, false }, fio = { 20, 40, 2, true };
	char *g = written(usage, &gnu), *l = written(usage, &fio);

	ck_assert_str_eq(g, "  --out FILE  write to FILE\n"
			 "  --mode MODE made from a table\n"
			 "  --where KEY=VALUE\n"
			 "              filter\n"
			 "  --color[=COLOR]\n"
			 "              red, green or blue; or\n"
			 "              none\n"
			 "  -v, --verbose\n"
			 "              say more\n");
	ck_assert_str_eq(l, "  --out=FILE        write to FILE\n"
			 "  --mode=MODE       made from a table\n"
			 "  --where KEY=VALUE\n"
			 "                    filter\n"
			 "  --color[=COLOR]   red, green or blue;\n"
			 "                    or none\n"
			 "  -v, --verbose     say more\n");
	free(g);
	free(l);
}
END_TEST

/* A name or alias met twice would leave the later switch unreachable. */
START_TEST(cli_switch_names_and_aliases_are_each_once)
{
	for (const struct argopt *o = cli_options; o->name; o++) {
		ck_assert_ptr_eq(argopt_find(cli_options, o->name), o);
		if (o->alias) {
			ck_assert_uint_eq(strlen(o->alias), 1);
			ck_assert_ptr_eq(argopt_find(cli_options, o->alias), o);
		}
		ck_assert_msg(o->help || o->describe, "--%s has no help", o->name);
		ck_assert_msg(!o->refuse || o->id == CLI_REFUSED, "--%s", o->name);
	}
}
END_TEST

static Suite *argopt_suite(void)
{
	Suite *s = suite_create("argopt");
	TCase *rd = tcase_create("read"), *st = tcase_create("store");
	TCase *help = tcase_create("help"), *tables = tcase_create("tables");

	tcase_add_test(rd, read_takes_the_value_after_equals_or_as_the_next_argument);
	tcase_add_test(rd, read_says_a_required_value_is_missing);
	tcase_add_test(rd, read_leaves_an_optional_value_and_a_flag_alone);
	tcase_add_test(rd, read_refuses_before_reading_a_value);
	tcase_add_test(rd, read_names_what_the_table_lacks);
	tcase_add_test(rd, gnu_style_takes_an_alias_after_one_dash_only);
	tcase_add_test(rd, long_only_style_takes_names_and_aliases_after_either);
	tcase_add_test(st, store_sets_the_field_at_the_offset);
	tcase_add_test(st, store_keeps_key_values_in_order_up_to_the_limit);
	tcase_add_test(help, completion_words_say_how_each_value_is_given);
	tcase_add_test(help, completion_values_come_from_the_list_the_table_and_the_function);
	tcase_add_test(help, help_is_described_or_made_of_the_values_then_the_help);
	tcase_add_test(help, usage_lines_follow_the_page_and_leave_out_hidden_and_refused);
	tcase_add_test(tables, cli_switch_names_and_aliases_are_each_once);
	suite_add_tcase(s, rd);
	suite_add_tcase(s, st);
	suite_add_tcase(s, help);
	suite_add_tcase(s, tables);
	return s;
}

int main(void)
{
	return test_run(argopt_suite());
}
