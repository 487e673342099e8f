/* The checksums of verify= against published test vectors. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/verify/checksum.h"
#include "engine/verify/md5_lanes.h"
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

/* The CPU is asked once a process, however many checksums follow (cpuid traps in a VM). */
START_TEST(crc32c_asks_the_cpu_once)
{
	uint8_t buf[512] = { 1 };
	uint8_t out[CHECKSUM_MAX];

	for (int i = 0; i < 1000; i++) {
		buf[1] = (uint8_t)i;
		checksum(CSUM_CRC32C, buf, sizeof(buf), out);
		ck_assert_uint_eq(crc32c_fio(buf, sizeof(buf)), ~crc32c_sw(0, buf, sizeof(buf)));
	}
	ck_assert_uint_eq(cpu_probes(), 1);
}
END_TEST

/*
 * Eight MD5s at once: every lane is libcrypto's MD5 of its own buffer, at every length
 * around the 56-byte padding edge and at verify's 4 KiB chunk less its md5 header; the
 * lanes start at odd addresses and hold different bytes.
 */
START_TEST(md5_lanes_match_md5_in_every_lane)
{
	static unsigned char buf[MD5_LANES][4200];
	const unsigned char *p[MD5_LANES];
	uint8_t got[MD5_LANES][16], want[16];
	static const size_t lens[] = { 0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200, 4040 };

	for (int l = 0; l < MD5_LANES; l++) {
		for (unsigned i = 0; i < sizeof(buf[l]); i++)
			buf[l][i] = (unsigned char)(i * 31 + l * 7 + (i >> 8));
		p[l] = buf[l] + 1 + l;
	}
	if (!md5_lanes_simd())
		fprintf(stderr, "test_checksum: no AVX2 here: md5_lanes runs one lane at a time\n");
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		md5_lanes(p, lens[k], got);
		for (int l = 0; l < MD5_LANES; l++) {
			md5(p[l], lens[k], want);
			ck_assert_msg(!memcmp(got[l], want, 16), "lane %d, %zu bytes", l, lens[k]);
		}
	}
	ck_assert_uint_eq(cpu_probes(), 1);
}
END_TEST

START_TEST(xxh32_matches_the_reference)
{
	ck_assert_uint_eq(xxh32("", 0, 0), 0x02cc5d05);
	ck_assert_uint_eq(xxh32("abc", 3, 0), 0x32d153ff);
	ck_assert_uint_eq(xxh32("Nobody inspects the spammish repetition", 39, 0), 0xe2293b2f);
}
END_TEST

START_TEST(fio_crcs_match_their_check_values)
{
	const char *s = "123456789";
	uint8_t d[CHECKSUM_MAX];

	/*
	 * The catalogue values of CRC-64/Jones (Redis), CRC-16/ARC, CRC-7/MMC; fio's crc32 is
	 * CRC-32/MPEG-2's polynomial and order from 0 (0x89a1897f), its crc32c the standard
	 * one's register without the final xor.
	 */
	ck_assert_uint_eq(crc64(s, 9), 0xe9c6d914c4b8d9caull);
	ck_assert_uint_eq(crc16(s, 9), 0xbb3d);
	ck_assert_uint_eq(crc7(s, 9), 0x75);
	ck_assert_uint_eq(crc32_fio(s, 9), 0x89a1897f);
	checksum(CSUM_CRC32, s, 9, d);
	ck_assert_str_eq(hex(d, 4), "7f89a189");
	checksum(CSUM_CRC32C, s, 9, d);
	ck_assert_str_eq(hex(d, 4), "7c6df91c");	/* ~0xe3069283, little-endian */
	checksum(CSUM_CRC64, s, 9, d);
	ck_assert_str_eq(hex(d, 8), "cad9b8c414d9c6e9");
}
END_TEST

static const struct {
	enum checksum_type type;
	const char *abc;	/* the digest of "abc" */
} sha_cases[] = {
	/* fio's sha1: each of the five words little-endian */
	{ CSUM_SHA1, "363e99a96a81064771253eba6cc250789dd8d09c" },
	{ CSUM_SHA512, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a27"
		       "4fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	{ CSUM_SHA3_224, "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf" },
	{ CSUM_SHA3_256, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532" },
	{ CSUM_SHA3_384, "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88c"
			 "ea927ac7f539f1edf228376d25" },
	{ CSUM_SHA3_512, "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116"
			 "e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0" },
};

START_TEST(sha_family_matches_published_vectors)
{
	uint8_t d[CHECKSUM_MAX];
	enum checksum_type t = sha_cases[_i].type;

	checksum(t, "abc", 3, d);
	ck_assert_uint_eq(2 * checksum_size(t), strlen(sha_cases[_i].abc));
	ck_assert_str_eq(hex(d, checksum_size(t)), sha_cases[_i].abc);
}
END_TEST

/* The table verify= and --crctest read: every kind named, sized, and computable. */
START_TEST(every_kind_is_in_the_table)
{
	uint8_t a[CHECKSUM_MAX], b[CHECKSUM_MAX];

	for (int t = 0; t < CSUM_NKINDS; t++) {
		ck_assert_ptr_nonnull(checksum_kinds[t].name);
		ck_assert_ptr_nonnull(checksum_kinds[t].sum);
		ck_assert_uint_ge(checksum_kinds[t].size, 1);
		ck_assert_uint_le(checksum_kinds[t].size, CHECKSUM_MAX);
		checksum((enum checksum_type)t, "abc", 3, a);
		checksum((enum checksum_type)t, "abd", 3, b);
		ck_assert_mem_ne(a, b, checksum_kinds[t].size);
	}
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
	tcase_add_test(tc, crc32c_asks_the_cpu_once);
	tcase_add_test(tc, md5_lanes_match_md5_in_every_lane);
	tcase_add_test(tc, xxh32_matches_the_reference);
	tcase_add_test(tc, fio_crcs_match_their_check_values);
	tcase_add_loop_test(tc, sha_family_matches_published_vectors, 0, TABLE_LEN(sha_cases));
	tcase_add_test(tc, every_kind_is_in_the_table);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(checksum_suite());
}
