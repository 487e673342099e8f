/* Unit tests for output/text.c and the JSON writer's strings: what user text becomes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "output/json_writer.h"
#include "output/text.h"
#include "test_util.h"

struct text_case {
	const char *in;
	const char *json;	/* json_string_to() */
	const char *escaped;	/* text_put_escaped() */
	const char *terse;	/* text_put_terse() */
};

static const struct text_case cases[] = {
	{ "plain", "\"plain\"", "plain", "plain" },
	{ "a\nb", "\"a\\nb\"", "a\\nb", "a_b" },
	{ "x;y", "\"x;y\"", "x;y", "x_y" },
	{ "\x1b[31m", "\"\\u001b[31m\"", "\\x1b[31m", "_[31m" },
	{ "\x7f", "\"\x7f\"", "\\x7f", "_" },
	{ "q\"\\", "\"q\\\"\\\\\"", "q\"\\", "q\"\\" },
	/* valid UTF-8 of each length passes */
	{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
	  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" },
	/* stray bytes, overlong forms, a surrogate, beyond U+10FFFF, a sequence cut short */
	{ "\xff\xfe", "\"\\ufffd\\ufffd\"", "\\xff\\xfe", "\xff\xfe" },
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"", "\\xc0\\xaf", "\xc0\xaf" },
	{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"", "\\xe0\\x80\\xaf", "\xe0\x80\xaf" },
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", "\\xed\\xa0\\x80", "\xed\xa0\x80" },
	{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", "\\xf4\\x90\\x80\\x80",
	  "\xf4\x90\x80\x80" },
	{ "\xe2\x82", "\"\\ufffd\\ufffd\"", "\\xe2\\x82", "\xe2\x82" },
	/* a C1 control (CSI) escaped for the terminal, kept in JSON */
	{ "\xc2\x9b", "\"\xc2\x9b\"", "\\u009b", "\xc2\x9b" },
};

/* What fn wrote for s, in buf. */
static const char *render(void (*fn)(FILE *, const char *), const char *s, char *buf,
			  size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	ck_assert_ptr_nonnull(f);
	fn(f, s);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

START_TEST(user_text_is_safe_in_every_output)
{
	const struct text_case *t = &cases[_i];
	char buf[256];

	ck_assert_str_eq(render(json_string_to, t->in, buf, sizeof(buf)), t->json);
	ck_assert_str_eq(render(text_put_escaped, t->in, buf, sizeof(buf)), t->escaped);
	ck_assert_str_eq(render(text_put_terse, t->in, buf, sizeof(buf)), t->terse);
}
END_TEST

START_TEST(utf8_len_names_each_sequence)
{
	ck_assert_uint_eq(text_utf8_len("a"), 1);
	ck_assert_uint_eq(text_utf8_len("\xc3\xa9"), 2);
	ck_assert_uint_eq(text_utf8_len("\xef\xbf\xbd"), 3);
	ck_assert_uint_eq(text_utf8_len("\xf4\x8f\xbf\xbf"), 4);
	ck_assert_uint_eq(text_utf8_len("\x80"), 0);
	ck_assert_uint_eq(text_utf8_len("\xf0\x8f\xbf\xbf"), 0);
	ck_assert_uint_eq(text_utf8_len("\xf5\x80\x80\x80"), 0);
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");

	tcase_add_loop_test(tc, user_text_is_safe_in_every_output, 0, TABLE_LEN(cases));
	tcase_add_test(tc, utf8_len_names_each_sequence);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(text_suite());
}
