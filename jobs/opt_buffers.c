/* Parsers of buffer_pattern's forms and of mem='s type and file. */
#include "jobs/opt_buffers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/arena.h"

const struct opt_enum mem_vals[] = {
	{ "malloc", MEM_MALLOC, "malloc(3)" },
	{ "shm", MEM_SHM, "a System V shared memory segment (shmget)" },
	{ "shmhuge", MEM_SHMHUGE, "a shared memory segment of huge pages (SHM_HUGETLB)" },
	{ "mmap", MEM_MMAP, "an anonymous private mapping, or mmap:PATH a file's" },
	{ "mmaphuge", MEM_MMAPHUGE, "a mapping of huge pages (MAP_HUGETLB), or mmaphuge:PATH "
	  "a hugetlbfs file's" },
	{ "mmapshared", MEM_MMAPSHARED, "a shared mapping (MAP_SHARED), anonymous or a file's" },
	{ "cudamalloc", MEM_CUDAMALLOC, "GPU memory (refused: iojob is built without CUDA)" },
	{ NULL, 0, NULL },
};

struct pat {
	unsigned char *p;
	size_t n;
	const char *err;	/* what was wrong, for why[] */
	struct pattern_fmt *fmt;	/* NULL: no %o (buffer_pattern) */
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool put(struct pat *t, unsigned char b)
{
	if (t->n == PATTERN_MAX) {
		t->err = "longer than 512 bytes";
		return false;
	}
	t->p[t->n++] = b;
	return true;
}

static bool is_hex_start(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hexval(s[2]) >= 0;
}

/* 0x digits: up to the next 0x (0xff0x14 is ff then 14); an odd count starts with one. */
static const char *parse_hex(struct pat *t, const char *s)
{
	size_t n = 0, i = 0;

	s += 2;
	while (hexval(s[n]) >= 0)
		n++;
	if ((s[n] == 'x' || s[n] == 'X') && s[n - 1] == '0' && n > 1)
		n--;
	if (n & 1) {
		if (!put(t, (unsigned char)hexval(s[0])))
			return NULL;
		i = 1;
	}
	for (; i < n; i += 2)
		if (!put(t, (unsigned char)(hexval(s[i]) << 4 | hexval(s[i + 1]))))
			return NULL;
	return s + n;
}

/* A decimal integer (int range), ended by anything but a digit or by a 0x that follows. */
static const char *parse_decimal(struct pat *t, const char *s)
{
	const char *d = s + (*s == '-' || *s == '+');
	long long v = 0;
	unsigned u;

	if (*d < '0' || *d > '9') {
		t->err = "expected 0x hex, \"text\", 'file' or a number";
		return NULL;
	}
	for (; *d >= '0' && *d <= '9' && !is_hex_start(d); d++) {
		v = v * 10 + (*d - '0');
		if (v > 2147483648LL) {
			t->err = "a number is out of the int range";
			return NULL;
		}
	}
	if (*s == '-')
		v = -v;
	if (v > 2147483647LL) {
		t->err = "a number is out of the int range";
		return NULL;
	}
	u = (unsigned)(int)v;
	if (!put(t, (unsigned char)u))
		return NULL;
	while (u >>= 8)
		if (!put(t, (unsigned char)u))
			return NULL;
	return d;
}

static const char *parse_text(struct pat *t, const char *s)
{
	const char *end = strchr(s + 1, '"');

	if (!end || end == s + 1) {
		t->err = end ? "\"\" is empty" : "a \" is not closed";
		return NULL;
	}
	for (const char *c = s + 1; c < end; c++)
		if (!put(t, (unsigned char)*c))
			return NULL;
	return end + 1;
}

/* 'file': as many of its first bytes as the pattern has room for. */
static const char *parse_file(struct pat *t, const char *s)
{
	const char *end = strchr(s + 1, '\'');
	char path[4096];
	ssize_t got;
	int fd;

	if (!end || end == s + 1 || (size_t)(end - s - 1) >= sizeof(path)) {
		t->err = end ? "'' names no file" : "a ' is not closed";
		return NULL;
	}
	memcpy(path, s + 1, (size_t)(end - s - 1));
	path[end - s - 1] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		t->err = "its file cannot be opened";
		return NULL;
	}
	got = read(fd, t->p + t->n, PATTERN_MAX - t->n);
	close(fd);
	if (got <= 0) {
		t->err = got ? "its file cannot be read" : "its file is empty or no room is left";
		return NULL;
	}
	t->n += (size_t)got;
	return end + 1;
}

/* %o: 8 bytes the offset of each I/O fills in, where the pattern may hold one. */
static const char *parse_fmt(struct pat *t, const char *s)
{
	if (!t->fmt) {
		t->err = "%o, the I/O's offset, is verify_pattern's alone";
		return NULL;
	}
	if (t->fmt->n == PATTERN_FMT_MAX) {
		t->err = "more than 8 %o";
		return NULL;
	}
	t->fmt->pos[t->fmt->n++] = (unsigned)t->n;
	for (int i = 0; i < 8; i++)
		if (!put(t, 0))
			return NULL;
	return s + 2;
}

int pattern_parse(const struct opt_ctx *ctx, const char *val, unsigned char **out,
		  unsigned *outlen, char *why, size_t whylen)
{
	return pattern_parse_fmt(ctx, val, out, outlen, NULL, why, whylen);
}

int pattern_parse_fmt(const struct opt_ctx *ctx, const char *val, unsigned char **out,
		      unsigned *outlen, struct pattern_fmt *fmt, char *why, size_t whylen)
{
	struct pat t = { .err = "it is empty", .fmt = fmt };
	const char *s = val;

	if (fmt)
		fmt->n = 0;

	t.p = arena_alloc(ctx->arena, PATTERN_MAX);
	if (!t.p)
		return -ENOMEM;
	while (s && *s) {
		if (*s == '"')
			s = parse_text(&t, s);
		else if (*s == '\'')
			s = parse_file(&t, s);
		else if (is_hex_start(s))
			s = parse_hex(&t, s);
		else if (s[0] == '%' && s[1] == 'o')
			s = parse_fmt(&t, s);
		else
			s = parse_decimal(&t, s);
	}
	if (!s || !t.n) {
		snprintf(why, whylen, "'%.64s%s' is not a pattern (%s; a pattern joins 0x hex "
			 "bytes, \"text\", 'file' and decimal numbers%s, such as "
			 "0xdeadface\"abc\"-12)", val, strlen(val) > 64 ? "..." : "", t.err,
			 fmt ? ", and %o for the I/O's offset" : "");
		return -EINVAL;
	}
	*out = t.p;
	*outlen = (unsigned)t.n;
	return 0;
}

static bool takes_file(int type)
{
	return type == MEM_MMAP || type == MEM_MMAPHUGE || type == MEM_MMAPSHARED;
}

int opt_mem_parse(const struct opt_ctx *ctx, const char *val, void *dst, char *why,
		  size_t whylen)
{
	struct job_desc *j = dst;
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);

	for (const struct opt_enum *v = mem_vals; v->name; v++) {
		if (strlen(v->name) != len || strncasecmp(v->name, val, len))
			continue;
		if (colon && (!takes_file(v->value) || !colon[1])) {
			snprintf(why, whylen, "'%s': %s", val, takes_file(v->value) ?
				 "no file follows ':'" : "only mmap, mmaphuge and mmapshared take "
				 "a file (mmap:PATH)");
			return -EINVAL;
		}
		j->mem_type = v->value;
		j->mem_path = colon ? arena_strdup(ctx->arena, colon + 1) : NULL;
		return colon && !j->mem_path ? -ENOMEM : 0;
	}
	opt_enum_error(mem_vals, val, why, whylen);
	return -EINVAL;
}
