/*
 * Unit tests for output/json_reader.c, the seam where the result-set tools read what a run
 * wrote: numbers (range, 64-bit integers kept whole, floats), strings and their escapes,
 * nesting, where an error is reported, and the lookups jv_get, jv_path, jv_num, jv_str.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "output/json_reader.h"
#include "test_util.h"

/* Parse s (a C string) into v, which must succeed. */
static void parse_ok(const char *s, struct jv *v)
{
	struct jv_error err = { 0 };
	int ret = jv_parse(s, strlen(s), v, &err);

	ck_assert_msg(ret == 0, "'%s': %d at %zu", s, ret, err.at);
}

/* --- numbers ---------------------------------------------------------------------------- */

struct num_case {
	const char *text;
	double number;
	uint64_t uint;		/* what jv.uint holds */
};

static const struct num_case num_cases[] = {
	{ "0", 0, 0 },
	{ "42", 42, 42 },
	{ "-7", -7, 0 },			/* negative: no unsigned value */
	{ "-0", 0, 0 },
	{ "1.5", 1.5, 1 },
	{ "2.0", 2, 2 },			/* a whole number written as a float */
	{ "1e3", 1000, 1000 },
	{ "1E+2", 100, 100 },
	{ "2.5e-1", 0.25, 0 },
	{ "-1.25e2", -125, 0 },
	{ "4294967296", 4294967296.0, 4294967296ULL },
	{ "1e-400", 0, 0 },			/* underflows to zero: finite, not an error */
};

START_TEST(numbers_are_doubles_with_their_whole_value)
{
	const struct num_case *t = &num_cases[_i];
	struct jv v;

	parse_ok(t->text, &v);
	ck_assert_int_eq(v.type, JV_NUMBER);
	ck_assert_msg(v.number == t->number, "'%s' read as %.17g", t->text, v.number);
	ck_assert_msg(v.uint == t->uint, "'%s' uint %llu", t->text, (unsigned long long)v.uint);
	ck_assert_double_eq(jv_num(&v, -1), t->number);
	jv_free(&v);
}
END_TEST

/* Byte counts and nanoseconds past 2^53, where a double would round them. */
static const struct num_case whole_cases[] = {
	{ "9007199254740993", 9007199254740992.0, 9007199254740993ULL },
	{ "18446744073709551615", 18446744073709551615.0, UINT64_MAX },
	{ "12345678901234567891", 12345678901234567891.0, 12345678901234567891ULL },
};

START_TEST(integers_of_64_bits_are_kept_whole)
{
	const struct num_case *t = &whole_cases[_i];
	struct jv v;

	parse_ok(t->text, &v);
	ck_assert_int_eq(v.type, JV_NUMBER);
	ck_assert_msg(v.uint == t->uint, "'%s' uint %llu", t->text, (unsigned long long)v.uint);
	ck_assert_double_eq(v.number, t->number);
	jv_free(&v);
}
END_TEST

/* What JSON cannot hold in a double is a range error, reported at the number's start. */
static const char *const out_of_range[] = {
	"1e400", "-1e400", "NaN", "-NaN", "Infinity", "-Infinity",
};

START_TEST(numbers_no_double_holds_are_range_errors)
{
	char text[64];
	struct jv_error err = { 0 };
	struct jv v;

	snprintf(text, sizeof(text), "[1, %s]", out_of_range[_i]);
	ck_assert_int_eq(jv_parse(text, strlen(text), &v, &err), -ERANGE);
	ck_assert_uint_eq(err.at, 4);
	ck_assert_int_eq(v.type, JV_NULL);
	ck_assert_uint_eq(v.n, 0);
}
END_TEST

static const char *const bad_numbers[] = {
	"-", "1e", "1.2.3", "--1", "1e+", "12-3",
	/* 64 characters: longer than any number a writer makes */
	"1.000000000000000000000000000000000000000000000000000000000000000",
};

START_TEST(malformed_numbers_are_refused)
{
	struct jv v;

	ck_assert_int_eq(jv_parse(bad_numbers[_i], strlen(bad_numbers[_i]), &v, NULL), -EINVAL);
}
END_TEST

/* --- strings ---------------------------------------------------------------------------- */

struct str_case {
	const char *json;
	const char *value;
};

static const struct str_case str_cases[] = {
	{ "\"\"", "" },
	{ "\"plain\"", "plain" },
	{ "\"q\\\"b\\\\s\\/\"", "q\"b\\s/" },
	{ "\"\\b\\f\\n\\r\\t\"", "\b\f\n\r\t" },
	/* \u escapes of one, two and three UTF-8 bytes; hex digits in either case */
	{ "\"\\u0041\\u00e9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac" },
	{ "\"\\u001b[0m\"", "\x1b[0m" },
	/* a UTF-16 surrogate pair is one code point of four bytes */
	{ "\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80" },
	{ "\"\\uDBFF\\uDFFF\"", "\xf4\x8f\xbf\xbf" },
	/* a lone surrogate is kept as its three bytes, not dropped */
	{ "\"\\ud83dx\"", "\xed\xa0\xbdx" },
	{ "\"\\ude00\"", "\xed\xb8\x80" },
	{ "\"\\ud83d\\u0041\"", "\xed\xa0\xbd" "A" },
	/* raw UTF-8, valid or not, is copied as it is: the reader never refuses a line for it */
	{ "\"\xc3\xa9\xf0\x9f\x98\x80\"", "\xc3\xa9\xf0\x9f\x98\x80" },
	{ "\"\xff\xfe\xc0\xaf\"", "\xff\xfe\xc0\xaf" },
	/* long enough to grow the buffer several times */
	{ "\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"",
	  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" },
};

START_TEST(strings_are_decoded)
{
	const struct str_case *t = &str_cases[_i];
	struct jv v;

	parse_ok(t->json, &v);
	ck_assert_int_eq(v.type, JV_STRING);
	ck_assert_str_eq(v.string, t->value);
	ck_assert_str_eq(jv_str(&v, "dflt"), t->value);
	jv_free(&v);
}
END_TEST

START_TEST(a_u0000_escape_is_not_an_error)
{
	struct jv v;

	parse_ok("\"a\\u0000b\"", &v);
	ck_assert_int_eq(v.type, JV_STRING);
	ck_assert_str_eq(v.string, "a");	/* C strings end at the NUL */
	jv_free(&v);
}
END_TEST

struct bad_case {
	const char *text;
	size_t at;		/* where err.at points */
};

static const struct bad_case bad_strings[] = {
	{ "\"abc", 4 },			/* no closing quote */
	{ "\"a\\q\"", 3 },		/* unknown escape */
	{ "\"a\\u12g4\"", 3 },		/* not hex */
	{ "\"a\\u12\"", 3 },		/* cut short */
	{ "\"a\\", 3 },			/* a backslash at the end */
	{ "\"a\nb\"", 2 },		/* a raw control character */
	{ "\"a\tb\"", 2 },
};

START_TEST(bad_strings_are_refused_where_they_go_wrong)
{
	const struct bad_case *t = &bad_strings[_i];
	struct jv_error err = { 0 };
	struct jv v;

	ck_assert_int_eq(jv_parse(t->text, strlen(t->text), &v, &err), -EINVAL);
	ck_assert_uint_eq(err.at, t->at);
	ck_assert_str_eq(err.key, "");
}
END_TEST

/* --- literals, containers, nesting ------------------------------------------------------ */

START_TEST(literals_and_whitespace)
{
	struct jv v;

	parse_ok(" \t\r\n[true, false ,null]\n ", &v);
	ck_assert_int_eq(v.type, JV_ARRAY);
	ck_assert_uint_eq(v.n, 3);
	ck_assert_int_eq(v.items[0].type, JV_BOOL);
	ck_assert(v.items[0].boolean);
	ck_assert_int_eq(v.items[1].type, JV_BOOL);
	ck_assert(!v.items[1].boolean);
	ck_assert_int_eq(v.items[2].type, JV_NULL);
	jv_free(&v);
}
END_TEST

START_TEST(empty_containers)
{
	struct jv v;

	parse_ok("{\"a\": [], \"o\": { }}", &v);
	ck_assert_int_eq(v.type, JV_OBJECT);
	ck_assert_uint_eq(v.n, 2);
	ck_assert_int_eq(jv_get(&v, "a")->type, JV_ARRAY);
	ck_assert_uint_eq(jv_get(&v, "a")->n, 0);
	ck_assert_int_eq(jv_get(&v, "o")->type, JV_OBJECT);
	ck_assert_uint_eq(jv_get(&v, "o")->n, 0);
	jv_free(&v);
}
END_TEST

START_TEST(objects_keep_keys_in_order)
{
	struct jv v;

	parse_ok("{\"b\": 1, \"a\\u0062\": \"x\", \"\": null, \"b\": 2}", &v);
	ck_assert_uint_eq(v.n, 4);
	ck_assert_str_eq(v.keys[0], "b");
	ck_assert_str_eq(v.keys[1], "ab");	/* keys are decoded as strings are */
	ck_assert_str_eq(v.keys[2], "");
	ck_assert_str_eq(v.keys[3], "b");
	/* of a repeated key, the first counts */
	ck_assert_double_eq(jv_num(jv_get(&v, "b"), -1), 1);
	ck_assert_str_eq(jv_str(jv_get(&v, "ab"), NULL), "x");
	ck_assert_int_eq(jv_get(&v, "")->type, JV_NULL);
	jv_free(&v);
}
END_TEST

/* Many members, to grow the item and key arrays past their first size. */
START_TEST(large_arrays_and_objects)
{
	char text[8192], *p = text;
	struct jv v;

	p += sprintf(p, "{\"list\": [");
	for (int i = 0; i < 300; i++)
		p += sprintf(p, "%s%d", i ? "," : "", i);
	p += sprintf(p, "]");
	for (int i = 0; i < 100; i++)
		p += sprintf(p, ", \"k%d\": %d", i, i * 2);
	sprintf(p, "}");
	parse_ok(text, &v);
	ck_assert_uint_eq(v.n, 101);
	ck_assert_uint_eq(jv_get(&v, "list")->n, 300);
	ck_assert_uint_eq(jv_path(&v, "list.299")->uint, 299);
	ck_assert_double_eq(jv_num(jv_get(&v, "k99"), -1), 198);
	jv_free(&v);
}
END_TEST

/*
 * A complete object holds its keys in one block (packed), and its items take no more room
 * than they need; an object cut short by an error is freed key by key (ASan sees leaks or
 * double frees either way). Together they are what a result set of thousands of lines
 * costs: 24 bytes a value, not the 56 of a struct with every type's members.
 */
START_TEST(complete_objects_are_packed)
{
	static const char *const cut[] = {
		"{\"a\": {\"x\": 1, \"y\": 2}, \"b\": {\"z\": 3",
		"{\"a\": {\"x\": 1}, \"b\": [1, {\"c\": 2}, ",
		"{\"a\": \"s\", \"bb\": ",
	};
	static const char after[] = "{\"a\": {\"x\": 1, \"yy\": 2}, }";
	struct jv_error err;
	struct jv v;

	ck_assert_uint_eq(sizeof(struct jv), 24);
	parse_ok("{\"outer\": {\"first\": 1, \"second\": \"two\"}, \"n\": [1, 2, 3]}", &v);
	ck_assert(v.packed);
	ck_assert(jv_get(&v, "outer")->packed);
	ck_assert_str_eq(jv_str(jv_path(&v, "outer.second"), ""), "two");
	ck_assert_uint_eq(jv_uint(jv_path(&v, "outer.first"), 0), 1);
	ck_assert_uint_eq(jv_uint(jv_path(&v, "n.2"), 0), 3);
	ck_assert_uint_eq(jv_uint(jv_path(&v, "outer.second"), 7), 7);	/* not a number */
	jv_free(&v);
	for (size_t i = 0; i < TABLE_LEN(cut); i++)
		ck_assert_int_eq(jv_parse(cut[i], strlen(cut[i]), &v, NULL), -EINVAL);
	/* the error names the last key read, which moved when its object was packed */
	ck_assert_int_eq(jv_parse(after, strlen(after), &v, &err), -EINVAL);
	ck_assert_str_eq(err.key, "yy");
}
END_TEST

/* Nest n arrays around a 1. */
static void nested(char *text, int n)
{
	memset(text, '[', (size_t)n);
	text[n] = '1';
	memset(text + n + 1, ']', (size_t)n);
	text[2 * n + 1] = '\0';
}

START_TEST(nesting_is_bounded)
{
	char text[256];
	struct jv_error err = { 0 };
	struct jv v;
	const struct jv *in;

	nested(text, 64);
	parse_ok(text, &v);
	in = &v;
	for (int i = 0; i < 64; i++) {
		ck_assert_int_eq(in->type, JV_ARRAY);
		ck_assert_uint_eq(in->n, 1);
		in = &in->items[0];
	}
	ck_assert_uint_eq(in->uint, 1);
	jv_free(&v);
	/* one more level is refused (a stack bound), where it begins */
	nested(text, 65);
	ck_assert_int_eq(jv_parse(text, strlen(text), &v, &err), -EINVAL);
	ck_assert_uint_eq(err.at, 65);
}
END_TEST

/* --- errors ----------------------------------------------------------------------------- */

static const struct bad_case bad_docs[] = {
	{ "", 0 },
	{ "   ", 3 },
	{ "tru", 0 },
	{ "nul", 0 },
	{ "[1 2]", 3 },			/* a missing comma */
	{ "[1,]", 3 },			/* a trailing comma */
	{ "[1", 2 },			/* cut short */
	{ "{\"a\" 1}", 5 },		/* a missing colon */
	{ "{a: 1}", 1 },		/* a bare key */
	{ "{\"a\": 1,}", 8 },
	{ "{\"a\": 1", 7 },
	{ "[1] x", 4 },			/* text after the value */
	{ "1 2", 2 },
	{ "{\"a\": }", 6 },
};

START_TEST(malformed_documents_say_where)
{
	const struct bad_case *t = &bad_docs[_i];
	struct jv_error err = { 0 };
	struct jv v;

	ck_assert_int_eq(jv_parse(t->text, strlen(t->text), &v, &err), -EINVAL);
	ck_assert_msg(err.at == t->at, "'%s': at %zu, not %zu", t->text, err.at, t->at);
	/* what was built is freed, and *out is left empty */
	ck_assert_int_eq(v.type, JV_NULL);
	ck_assert_ptr_null(v.items);
	ck_assert_uint_eq(v.n, 0);
}
END_TEST

START_TEST(errors_name_the_member_being_read)
{
	static const char text[] = "{\"jobs\": [{\"jobname\": \"a\", \"read\": {\"iops\": 1e999}}]}";
	struct jv_error err = { 0 };
	struct jv v;

	ck_assert_int_eq(jv_parse(text, strlen(text), &v, &err), -ERANGE);
	ck_assert_str_eq(err.key, "iops");
	ck_assert_uint_eq(err.at, (size_t)(strstr(text, "1e999") - text));
}
END_TEST

START_TEST(a_long_key_is_cut_in_the_error)
{
	char text[256], key[101];
	struct jv_error err = { 0 };
	struct jv v;

	memset(key, 'k', 100);
	key[100] = '\0';
	snprintf(text, sizeof(text), "{\"%s\": NaN}", key);
	ck_assert_int_eq(jv_parse(text, strlen(text), &v, &err), -ERANGE);
	ck_assert_uint_eq(strlen(err.key), sizeof(err.key) - 1);
	ck_assert(!strncmp(err.key, key, sizeof(err.key) - 1));
}
END_TEST

START_TEST(the_error_may_be_null)
{
	struct jv v;

	ck_assert_int_eq(jv_parse("[", 1, &v, NULL), -EINVAL);
	ck_assert_int_eq(jv_parse("1e400", 5, &v, NULL), -ERANGE);
}
END_TEST

/* Only len bytes are read: a line of a file need not end in a NUL. */
START_TEST(only_len_bytes_are_read)
{
	static const char text[] = "[1,2]garbage";
	struct jv_error err = { 0 };
	struct jv v;

	ck_assert_int_eq(jv_parse(text, 5, &v, &err), 0);
	ck_assert_uint_eq(v.n, 2);
	jv_free(&v);
	/* and a document cut at len is cut short, not read past its end */
	ck_assert_int_eq(jv_parse("\"abc\"", 3, &v, &err), -EINVAL);
	ck_assert_uint_eq(err.at, 3);
	ck_assert_int_eq(jv_parse("true", 3, &v, &err), -EINVAL);
	ck_assert_int_eq(jv_parse("123", 2, &v, &err), 0);
	ck_assert_uint_eq(v.uint, 12);
	jv_free(&v);
}
END_TEST

/* --- lookups ---------------------------------------------------------------------------- */

static const char doc[] =
	"{\"jobs\": [{\"jobname\": \"seq\", \"read\": {\"iops\": 2.5, \"io_bytes\": 4096}},"
	" {\"jobname\": \"rand\", \"0\": \"zero\"}], \"n\": null, \"s\": \"str\"}";

START_TEST(paths_walk_keys_and_indexes)
{
	struct jv v;

	parse_ok(doc, &v);
	ck_assert_ptr_eq(jv_path(&v, ""), &v);
	ck_assert_str_eq(jv_str(jv_path(&v, "jobs.0.jobname"), NULL), "seq");
	ck_assert_double_eq(jv_num(jv_path(&v, "jobs.0.read.iops"), -1), 2.5);
	ck_assert_uint_eq(jv_path(&v, "jobs.0.read.io_bytes")->uint, 4096);
	ck_assert_str_eq(jv_str(jv_path(&v, "jobs.1.jobname"), NULL), "rand");
	/* a number names a member of an object, an index of an array */
	ck_assert_str_eq(jv_str(jv_path(&v, "jobs.1.0"), NULL), "zero");
	ck_assert_ptr_null(jv_path(&v, "jobs.2"));
	ck_assert_ptr_null(jv_path(&v, "jobs.x"));
	ck_assert_ptr_null(jv_path(&v, "jobs.0.read.iops.more"));
	ck_assert_ptr_null(jv_path(&v, "nothing.0"));
	ck_assert_ptr_null(jv_path(NULL, "jobs"));
	jv_free(&v);
}
END_TEST

START_TEST(lookups_fall_back_to_their_default)
{
	struct jv v;

	parse_ok(doc, &v);
	ck_assert_ptr_null(jv_get(NULL, "jobs"));
	ck_assert_ptr_null(jv_get(jv_get(&v, "jobs"), "0"));	/* an array has no keys */
	ck_assert_ptr_null(jv_get(&v, "missing"));
	ck_assert_double_eq(jv_num(NULL, 7), 7);
	ck_assert_double_eq(jv_num(jv_get(&v, "s"), 7), 7);
	ck_assert_double_eq(jv_num(jv_get(&v, "n"), 7), 7);
	ck_assert_str_eq(jv_str(NULL, "d"), "d");
	ck_assert_str_eq(jv_str(jv_get(&v, "n"), "d"), "d");
	ck_assert_str_eq(jv_str(jv_get(&v, "jobs"), "d"), "d");
	ck_assert_str_eq(jv_str(jv_get(&v, "s"), "d"), "str");
	jv_free(&v);
}
END_TEST

START_TEST(free_leaves_an_empty_value)
{
	struct jv v;

	parse_ok(doc, &v);
	jv_free(&v);
	ck_assert_int_eq(v.type, JV_NULL);
	ck_assert_ptr_null(v.items);
	ck_assert_ptr_null(v.keys);
	ck_assert_uint_eq(v.n, 0);
	jv_free(&v);		/* and freeing it again is harmless */
}
END_TEST

static Suite *json_reader_suite(void)
{
	Suite *s = suite_create("json_reader");
	TCase *tc;

	tc = tcase_create("numbers");
	tcase_add_loop_test(tc, numbers_are_doubles_with_their_whole_value, 0,
			    TABLE_LEN(num_cases));
	tcase_add_loop_test(tc, integers_of_64_bits_are_kept_whole, 0, TABLE_LEN(whole_cases));
	tcase_add_loop_test(tc, numbers_no_double_holds_are_range_errors, 0,
			    TABLE_LEN(out_of_range));
	tcase_add_loop_test(tc, malformed_numbers_are_refused, 0, TABLE_LEN(bad_numbers));
	suite_add_tcase(s, tc);

	tc = tcase_create("strings");
	tcase_add_loop_test(tc, strings_are_decoded, 0, TABLE_LEN(str_cases));
	tcase_add_test(tc, a_u0000_escape_is_not_an_error);
	tcase_add_loop_test(tc, bad_strings_are_refused_where_they_go_wrong, 0,
			    TABLE_LEN(bad_strings));
	suite_add_tcase(s, tc);

	tc = tcase_create("structure");
	tcase_add_test(tc, literals_and_whitespace);
	tcase_add_test(tc, empty_containers);
	tcase_add_test(tc, objects_keep_keys_in_order);
	tcase_add_test(tc, large_arrays_and_objects);
	tcase_add_test(tc, complete_objects_are_packed);
	tcase_add_test(tc, nesting_is_bounded);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_loop_test(tc, malformed_documents_say_where, 0, TABLE_LEN(bad_docs));
	tcase_add_test(tc, errors_name_the_member_being_read);
	tcase_add_test(tc, a_long_key_is_cut_in_the_error);
	tcase_add_test(tc, the_error_may_be_null);
	tcase_add_test(tc, only_len_bytes_are_read);
	suite_add_tcase(s, tc);

	tc = tcase_create("lookups");
	tcase_add_test(tc, paths_walk_keys_and_indexes);
	tcase_add_test(tc, lookups_fall_back_to_their_default);
	tcase_add_test(tc, free_leaves_an_empty_value);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(json_reader_suite());
}
