/*
 * Checksums for verify=, as fio's verify headers hold them: the SHA family and md5 from
 * libcrypto, xxhash (XXH32) from libxxhash; crc32c (a table, or the CPU's crc32
 * instruction), and fio's crc32, crc64, crc16 and crc7 here, as no Debian library offers
 * those variants.
 */
#include "engine/verify/checksum.h"

#include <pthread.h>
#include <string.h>

#include <openssl/evp.h>
#include <xxhash.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* crc32c (Castagnoli, reflected polynomial 0x82f63b78), one byte per step. */
static const uint32_t crc32c_table[256] = {
	0x00000000, 0xf26b8303, 0xe13b70f7, 0x1350f3f4, 0xc79a971f, 0x35f1141c,
	0x26a1e7e8, 0xd4ca64eb, 0x8ad958cf, 0x78b2dbcc, 0x6be22838, 0x9989ab3b,
	0x4d43cfd0, 0xbf284cd3, 0xac78bf27, 0x5e133c24, 0x105ec76f, 0xe235446c,
	0xf165b798, 0x030e349b, 0xd7c45070, 0x25afd373, 0x36ff2087, 0xc494a384,
	0x9a879fa0, 0x68ec1ca3, 0x7bbcef57, 0x89d76c54, 0x5d1d08bf, 0xaf768bbc,
	0xbc267848, 0x4e4dfb4b, 0x20bd8ede, 0xd2d60ddd, 0xc186fe29, 0x33ed7d2a,
	0xe72719c1, 0x154c9ac2, 0x061c6936, 0xf477ea35, 0xaa64d611, 0x580f5512,
	0x4b5fa6e6, 0xb93425e5, 0x6dfe410e, 0x9f95c20d, 0x8cc531f9, 0x7eaeb2fa,
	0x30e349b1, 0xc288cab2, 0xd1d83946, 0x23b3ba45, 0xf779deae, 0x05125dad,
	0x1642ae59, 0xe4292d5a, 0xba3a117e, 0x4851927d, 0x5b016189, 0xa96ae28a,
	0x7da08661, 0x8fcb0562, 0x9c9bf696, 0x6ef07595, 0x417b1dbc, 0xb3109ebf,
	0xa0406d4b, 0x522bee48, 0x86e18aa3, 0x748a09a0, 0x67dafa54, 0x95b17957,
	0xcba24573, 0x39c9c670, 0x2a993584, 0xd8f2b687, 0x0c38d26c, 0xfe53516f,
	0xed03a29b, 0x1f682198, 0x5125dad3, 0xa34e59d0, 0xb01eaa24, 0x42752927,
	0x96bf4dcc, 0x64d4cecf, 0x77843d3b, 0x85efbe38, 0xdbfc821c, 0x2997011f,
	0x3ac7f2eb, 0xc8ac71e8, 0x1c661503, 0xee0d9600, 0xfd5d65f4, 0x0f36e6f7,
	0x61c69362, 0x93ad1061, 0x80fde395, 0x72966096, 0xa65c047d, 0x5437877e,
	0x4767748a, 0xb50cf789, 0xeb1fcbad, 0x197448ae, 0x0a24bb5a, 0xf84f3859,
	0x2c855cb2, 0xdeeedfb1, 0xcdbe2c45, 0x3fd5af46, 0x7198540d, 0x83f3d70e,
	0x90a324fa, 0x62c8a7f9, 0xb602c312, 0x44694011, 0x5739b3e5, 0xa55230e6,
	0xfb410cc2, 0x092a8fc1, 0x1a7a7c35, 0xe811ff36, 0x3cdb9bdd, 0xceb018de,
	0xdde0eb2a, 0x2f8b6829, 0x82f63b78, 0x709db87b, 0x63cd4b8f, 0x91a6c88c,
	0x456cac67, 0xb7072f64, 0xa457dc90, 0x563c5f93, 0x082f63b7, 0xfa44e0b4,
	0xe9141340, 0x1b7f9043, 0xcfb5f4a8, 0x3dde77ab, 0x2e8e845f, 0xdce5075c,
	0x92a8fc17, 0x60c37f14, 0x73938ce0, 0x81f80fe3, 0x55326b08, 0xa759e80b,
	0xb4091bff, 0x466298fc, 0x1871a4d8, 0xea1a27db, 0xf94ad42f, 0x0b21572c,
	0xdfeb33c7, 0x2d80b0c4, 0x3ed04330, 0xccbbc033, 0xa24bb5a6, 0x502036a5,
	0x4370c551, 0xb11b4652, 0x65d122b9, 0x97baa1ba, 0x84ea524e, 0x7681d14d,
	0x2892ed69, 0xdaf96e6a, 0xc9a99d9e, 0x3bc21e9d, 0xef087a76, 0x1d63f975,
	0x0e330a81, 0xfc588982, 0xb21572c9, 0x407ef1ca, 0x532e023e, 0xa145813d,
	0x758fe5d6, 0x87e466d5, 0x94b49521, 0x66df1622, 0x38cc2a06, 0xcaa7a905,
	0xd9f75af1, 0x2b9cd9f2, 0xff56bd19, 0x0d3d3e1a, 0x1e6dcdee, 0xec064eed,
	0xc38d26c4, 0x31e6a5c7, 0x22b65633, 0xd0ddd530, 0x0417b1db, 0xf67c32d8,
	0xe52cc12c, 0x1747422f, 0x49547e0b, 0xbb3ffd08, 0xa86f0efc, 0x5a048dff,
	0x8ecee914, 0x7ca56a17, 0x6ff599e3, 0x9d9e1ae0, 0xd3d3e1ab, 0x21b862a8,
	0x32e8915c, 0xc083125f, 0x144976b4, 0xe622f5b7, 0xf5720643, 0x07198540,
	0x590ab964, 0xab613a67, 0xb831c993, 0x4a5a4a90, 0x9e902e7b, 0x6cfbad78,
	0x7fab5e8c, 0x8dc0dd8f, 0xe330a81a, 0x115b2b19, 0x020bd8ed, 0xf0605bee,
	0x24aa3f05, 0xd6c1bc06, 0xc5914ff2, 0x37faccf1, 0x69e9f0d5, 0x9b8273d6,
	0x88d28022, 0x7ab90321, 0xae7367ca, 0x5c18e4c9, 0x4f48173d, 0xbd23943e,
	0xf36e6f75, 0x0105ec76, 0x12551f82, 0xe03e9c81, 0x34f4f86a, 0xc69f7b69,
	0xd5cf889d, 0x27a40b9e, 0x79b737ba, 0x8bdcb4b9, 0x988c474d, 0x6ae7c44e,
	0xbe2da0a5, 0x4c4623a6, 0x5f16d052, 0xad7d5351,
};

uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static bool crc32c_hw_ok, avx2_ok;
static unsigned cpu_nprobes;
static uint32_t (*crc32c_best)(uint32_t crc, const void *buf, size_t len) = crc32c_sw;

/*
 * The CPU asked once, as the program loads: cpuid traps to the hypervisor in a VM, and
 * asked for every verify header it took a fifth of a verifying job's time.
 */
__attribute__((constructor)) static void cpu_probe(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;

	crc32c_hw_ok = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_2);
	/* libgcc's answer also says whether the kernel saves the AVX registers */
	__builtin_cpu_init();
	avx2_ok = __builtin_cpu_supports("avx2");
#endif
	cpu_nprobes++;
	if (crc32c_hw_ok)
		crc32c_best = crc32c_hw;
}

bool crc32c_hw_available(void)
{
	return crc32c_hw_ok;
}

bool cpu_has_avx2(void)
{
	return avx2_ok;
}

unsigned cpu_probes(void)
{
	return cpu_nprobes;
}

uint32_t crc32c_fio(const void *buf, size_t len)
{
	return ~crc32c_best(0, buf, len);
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t c = ~crc;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return ~(uint32_t)c;
}
#else
uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_sw(crc, buf, len);
}
#endif

/*
 * crc64, crc32, crc16 and crc7 as fio computes them, all from 0 and without a final xor:
 * crc64 LSB first with the constant 0x95ac9329ac4bc9b5 (Redis's Jones crc64), crc32 MSB
 * first with 0x04c11db7 (POSIX cksum's, without the length), crc16 with 0x8005 (ARC),
 * crc7 with 0x09 (MMC). Their tables are made once, on first use.
 */
static uint64_t crc64_table[256];
static uint32_t crc32_table[256];
static uint16_t crc16_table[256];
static uint8_t crc7_table[256];
static pthread_once_t crc_tables_once = PTHREAD_ONCE_INIT;

static void make_crc_tables(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint64_t c64 = i;
		uint32_t c32 = (uint32_t)i << 24;
		uint16_t c16 = (uint16_t)i;
		uint8_t c7 = (uint8_t)i;	/* the byte, MSB first, in a 7-bit register */

		for (int b = 0; b < 8; b++) {
			c64 = c64 & 1 ? (c64 >> 1) ^ 0x95ac9329ac4bc9b5ull : c64 >> 1;
			c32 = c32 & 0x80000000u ? (c32 << 1) ^ 0x04c11db7u : c32 << 1;
			c16 = c16 & 1 ? (uint16_t)((c16 >> 1) ^ 0xa001) : (uint16_t)(c16 >> 1);
			c7 = c7 & 0x80 ? (uint8_t)((c7 << 1) ^ (0x09 << 1)) : (uint8_t)(c7 << 1);
		}
		crc64_table[i] = c64;
		crc32_table[i] = c32;
		crc16_table[i] = c16;
		crc7_table[i] = c7;
	}
}

uint64_t crc64(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t crc = 0;

	pthread_once(&crc_tables_once, make_crc_tables);
	while (len--)
		crc = crc64_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

uint32_t crc32_fio(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t crc = 0;

	pthread_once(&crc_tables_once, make_crc_tables);
	while (len--)
		crc = (crc << 8) ^ crc32_table[((crc >> 24) ^ *p++) & 0xff];
	return crc;
}

uint16_t crc16(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint16_t crc = 0;

	pthread_once(&crc_tables_once, make_crc_tables);
	while (len--)
		crc = (uint16_t)((crc >> 8) ^ crc16_table[(crc ^ *p++) & 0xff]);
	return crc;
}

uint8_t crc7(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint8_t crc = 0;	/* kept shifted left by one, as the table makes it */

	pthread_once(&crc_tables_once, make_crc_tables);
	while (len--)
		crc = crc7_table[crc ^ *p++];
	return crc >> 1;
}

/*
 * The digests come from OpenSSL's libcrypto, xxhash from libxxhash: libraries made for
 * the field, as verify results must match what other tools compute. Each digest's
 * implementation is fetched once (EVP_md5() and the like look it up under a lock at
 * every use) and each thread keeps one context (EVP_Digest() allocates one per call):
 * a verified chunk costs the digest alone.
 */
static const char *const evp_names[CSUM_NKINDS] = {
	[CSUM_MD5] = "MD5", [CSUM_SHA1] = "SHA1", [CSUM_SHA256] = "SHA256",
	[CSUM_SHA512] = "SHA512", [CSUM_SHA3_224] = "SHA3-224", [CSUM_SHA3_256] = "SHA3-256",
	[CSUM_SHA3_384] = "SHA3-384", [CSUM_SHA3_512] = "SHA3-512",
};
static EVP_MD *evp_mds[CSUM_NKINDS];
static pthread_once_t evp_once = PTHREAD_ONCE_INIT;
static pthread_key_t evp_ctx_key;
static _Thread_local EVP_MD_CTX *evp_ctx;

static void free_ctx(void *c)
{
	EVP_MD_CTX_free(c);
}

static void fetch_digests(void)
{
	(void)pthread_key_create(&evp_ctx_key, free_ctx);
	for (unsigned t = 0; t < CSUM_NKINDS; t++)
		if (evp_names[t])
			evp_mds[t] = EVP_MD_fetch(NULL, evp_names[t], NULL);
}

/* This thread's context, made at its first digest and freed when the thread ends. */
static EVP_MD_CTX *thread_ctx(void)
{
	if (!evp_ctx) {
		evp_ctx = EVP_MD_CTX_new();
		(void)pthread_setspecific(evp_ctx_key, evp_ctx);
	}
	return evp_ctx;
}

static void evp_digest(enum checksum_type t, const void *buf, size_t len, uint8_t *out)
{
	EVP_MD_CTX *c;
	unsigned n;

	pthread_once(&evp_once, fetch_digests);
	c = thread_ctx();
	/* only fails for want of memory: an all-zero digest then fails the verify loudly */
	if (!c || !evp_mds[t] || !EVP_DigestInit_ex2(c, evp_mds[t], NULL) ||
	    !EVP_DigestUpdate(c, buf, len) || !EVP_DigestFinal_ex(c, out, &n))
		memset(out, 0, checksum_kinds[t].size);
}

void md5(const void *buf, size_t len, uint8_t out[16])
{
	evp_digest(CSUM_MD5, buf, len, out);
}

void sha256(const void *buf, size_t len, uint8_t out[32])
{
	evp_digest(CSUM_SHA256, buf, len, out);
}

uint32_t xxh32(const void *buf, size_t len, uint32_t seed)
{
	return XXH32(buf, len, seed);
}

/* fio keeps crc32c without its final xor */
static void sum_crc32c(const void *buf, size_t len, uint8_t *out)
{
	uint32_t v = crc32c_fio(buf, len);

	memcpy(out, &v, sizeof(v));
}

static void sum_crc32(const void *buf, size_t len, uint8_t *out)
{
	uint32_t v = crc32_fio(buf, len);

	memcpy(out, &v, sizeof(v));
}

static void sum_crc64(const void *buf, size_t len, uint8_t *out)
{
	uint64_t v = crc64(buf, len);

	memcpy(out, &v, sizeof(v));
}

static void sum_crc16(const void *buf, size_t len, uint8_t *out)
{
	uint16_t v = crc16(buf, len);

	memcpy(out, &v, sizeof(v));
}

static void sum_crc7(const void *buf, size_t len, uint8_t *out)
{
	out[0] = crc7(buf, len);
}

/* fio seeds XXH32 with 1 */
static void sum_xxhash(const void *buf, size_t len, uint8_t *out)
{
	uint32_t v = xxh32(buf, len, 1);

	memcpy(out, &v, sizeof(v));
}

static void sum_md5(const void *buf, size_t len, uint8_t *out)
{
	evp_digest(CSUM_MD5, buf, len, out);
}

/* fio keeps sha1 as five host-order (little-endian) words: each word's bytes reversed */
static void sum_sha1(const void *buf, size_t len, uint8_t *out)
{
	evp_digest(CSUM_SHA1, buf, len, out);
	for (unsigned w = 0; w < 20; w += 4) {
		uint8_t t = out[w];

		out[w] = out[w + 3];
		out[w + 3] = t;
		t = out[w + 1];
		out[w + 1] = out[w + 2];
		out[w + 2] = t;
	}
}

static void sum_sha256(const void *buf, size_t len, uint8_t *out)
{
	evp_digest(CSUM_SHA256, buf, len, out);
}

static void sum_sha512(const void *buf, size_t len, uint8_t *out)
{
	evp_digest(CSUM_SHA512, buf, len, out);
}

static void sum_sha3_224(const void *buf, size_t len, uint8_t *out)
{
	evp_digest(CSUM_SHA3_224, buf, len, out);
}

static void sum_sha3_256(const void *buf, size_t len, uint8_t *out)
{
	evp_digest(CSUM_SHA3_256, buf, len, out);
}

static void sum_sha3_384(const void *buf, size_t len, uint8_t *out)
{
	evp_digest(CSUM_SHA3_384, buf, len, out);
}

static void sum_sha3_512(const void *buf, size_t len, uint8_t *out)
{
	evp_digest(CSUM_SHA3_512, buf, len, out);
}

/* Every kind: its name (as verify= and --crctest spell it), digest size and function. */
const struct checksum_kind checksum_kinds[CSUM_NKINDS] = {
	[CSUM_CRC32C] = { "crc32c", 4, sum_crc32c },
	[CSUM_CRC32] = { "crc32", 4, sum_crc32 },
	[CSUM_CRC64] = { "crc64", 8, sum_crc64 },
	[CSUM_CRC16] = { "crc16", 2, sum_crc16 },
	[CSUM_CRC7] = { "crc7", 1, sum_crc7 },
	[CSUM_XXHASH] = { "xxhash", 4, sum_xxhash },
	[CSUM_MD5] = { "md5", 16, sum_md5 },
	[CSUM_SHA1] = { "sha1", 20, sum_sha1 },
	[CSUM_SHA256] = { "sha256", 32, sum_sha256 },
	[CSUM_SHA512] = { "sha512", 64, sum_sha512 },
	[CSUM_SHA3_224] = { "sha3-224", 28, sum_sha3_224 },
	[CSUM_SHA3_256] = { "sha3-256", 32, sum_sha3_256 },
	[CSUM_SHA3_384] = { "sha3-384", 48, sum_sha3_384 },
	[CSUM_SHA3_512] = { "sha3-512", 64, sum_sha3_512 },
};

unsigned checksum_size(enum checksum_type t)
{
	return checksum_kinds[t].size;
}

void checksum(enum checksum_type t, const void *buf, size_t len, uint8_t *out)
{
	checksum_kinds[t].sum(buf, len, out);
}
