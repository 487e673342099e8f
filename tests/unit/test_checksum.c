/* The checksums of verify= against published test vectors. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/checksum.h"
#include "test_util.h"

static const char *hex(const uint8_t *d, unsigned n)
{
	static char out[2 * CHECKSUM_MAX + 1];

	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
	return out;
}

static const struct {
	const char *in;
	const char *md5, *sha256;
} digest_cases[] = {
	{ "", "d41d8cd98f00b204e9800998ecf8427e",
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", "900150983cd24fb0d6963f7d28e17f72",
	  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "8215ef0796a20bcaaae116d3876c664a",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "The quick brown fox jumps over the lazy dog", "9e107d9d372bb6826bd81d3542a419d6",
	  "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592" },
};

START_TEST(md5_and_sha256_match_published_vectors)
{
	uint8_t d[CHECKSUM_MAX];
	const char *in = digest_cases[_i].in;

	md5(in, strlen(in), d);
	ck_assert_str_eq(hex(d, 16), digest_cases[_i].md5);
	sha256(in, strlen(in), d);
	ck_assert_str_eq(hex(d, 32), digest_cases[_i].sha256);
}
END_TEST

/* Every length around the 56- and 64-byte padding edges, against a second computation. */
START_TEST(digests_are_right_at_every_padding_edge)
{
	uint8_t buf[200], a[CHECKSUM_MAX], b[CHECKSUM_MAX];

	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	for (size_t len = 50; len < 140; len++) {
		/* The same bytes at another address must give the same digest. */
		uint8_t *copy = malloc(len + 1);

		memcpy(copy + 1, buf, len);
		sha256(buf, len, a);
		sha256(copy + 1, len, b);
		ck_assert_mem_eq(a, b, 32);
		md5(buf, len, a);
		md5(copy + 1, len, b);
		ck_assert_mem_eq(a, b, 16);
		free(copy);
	}
	md5(buf, 200, a);
	ck_assert_str_eq(hex(a, 16), "4c79b81ac94bad7a875519ce6b964c66");
}
END_TEST

START_TEST(crc32c_table_and_instruction_agree_with_the_vector)
{
	const char *s = "123456789";
	uint8_t buf[4099];

	ck_assert_uint_eq(crc32c_sw(0, s, 9), 0xe3069283);
	if (crc32c_hw_available())
		ck_assert_uint_eq(crc32c_hw(0, s, 9), 0xe3069283);
	else
		fprintf(stderr, "test_checksum: no SSE4.2 here: only the table is tested\n");
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i ^ (i >> 8));
	for (size_t len = 0; len < sizeof(buf); len += 97)
		if (crc32c_hw_available())
			ck_assert_uint_eq(crc32c_hw(0, buf, len), crc32c_sw(0, buf, len));
}
END_TEST

START_TEST(xxh32_matches_the_reference)
{
	ck_assert_uint_eq(xxh32("", 0, 0), 0x02cc5d05);
	ck_assert_uint_eq(xxh32("abc", 3, 0), 0x32d153ff);
	ck_assert_uint_eq(xxh32("Nobody inspects the spammish repetition", 39, 0), 0xe2293b2f);
}
END_TEST

static Suite *checksum_suite(void)
{
	Suite *s = suite_create("checksum");
	TCase *tc = tcase_create("vectors");

	tcase_add_loop_test(tc, md5_and_sha256_match_published_vectors, 0,
			    TABLE_LEN(digest_cases));
	tcase_add_test(tc, digests_are_right_at_every_padding_edge);
	tcase_add_test(tc, crc32c_table_and_instruction_agree_with_the_vector);
	tcase_add_test(tc, xxh32_matches_the_reference);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(checksum_suite());
}
