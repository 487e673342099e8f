/*
 * The job-file line reader: physical lines of any length, `include` splicing, comments,
 * and the grammar errors that inih could only report as a bare line number.
 */
#include "parser/jf_reader.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "parser/jobfile.h"
#include "base/grow.h"

#define UTF8_BOM	"\xef\xbb\xbf"

static char *skip_blanks(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static char *trim_end(char *s, char *end)
{
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	return end;
}

/* Record which file fp is, for loop detection; a directory only fails later, so refuse it now. */
static int identify(struct jfr_input *in)
{
	struct stat st;

	if (fstat(fileno(in->fp), &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	in->has_id = true;
	in->dev = st.st_dev;
	in->ino = st.st_ino;
	return 0;
}

/* Refuse what is not a regular file: a FIFO could block for ever, /dev/zero never ends. */
static int check_regular(const struct stat *st, const char **kind)
{
	if (S_ISREG(st->st_mode))
		return 0;
	*kind = S_ISDIR(st->st_mode) ? "a directory" : S_ISFIFO(st->st_mode) ? "a FIFO" :
		S_ISCHR(st->st_mode) ? "a character device" :
		S_ISBLK(st->st_mode) ? "a block device" : "not a regular file";
	return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
}

/*
 * Open an included file: O_NONBLOCK so that opening a FIFO does not wait for a writer,
 * then only a regular file is read (where O_NONBLOCK changes nothing). *kind says what
 * else it was.
 */
static FILE *open_include(const char *path, const char **kind, int *err)
{
	struct stat st;
	FILE *fp;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		*err = -errno;
		goto err_close;
	}
	*err = check_regular(&st, kind);
	if (*err < 0)
		goto err_close;
	fp = fdopen(fd, "r");
	if (fp)
		return fp;
	*err = -errno;
err_close:
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * Open path as the next input (an include when r->depth > 0); -ELOOP if that file is
 * already being read, -EINVAL with *kind set for an include that is not a regular file.
 */
static int push_file(struct jfr *r, const char *path, const char **kind)
{
	struct jfr_input *in = &r->stack[r->depth];
	int ret, i;

	memset(in, 0, sizeof(*in));
	in->name = jobfile_strdup(r->jf, path);
	if (!in->name)
		return -ENOMEM;
	if (r->depth > 0)
		in->fp = open_include(path, kind, &ret);
	else if (!(in->fp = fopen(path, "re")))
		ret = -errno;
	if (!in->fp)
		return ret;
	in->close_fp = true;
	ret = identify(in);
	for (i = 0; ret == 0 && i < r->depth; i++) {
		if (r->stack[i].has_id && r->stack[i].dev == in->dev &&
		    r->stack[i].ino == in->ino)
			ret = -ELOOP;
	}
	if (ret < 0) {
		fclose(in->fp);
		return ret;
	}
	r->depth++;
	return 0;
}

static void pop_input(struct jfr *r)
{
	struct jfr_input *in = &r->stack[--r->depth];

	if (in->close_fp)
		fclose(in->fp);
	in->fp = NULL;
}

int jfr_open_file(struct jfr *r, struct jobfile *jf, const char *path, struct diag *d)
{
	struct jfr_input *in = &r->stack[0];
	int ret;

	memset(r, 0, sizeof(*r));
	r->jf = jf;
	r->d = d;
	if (strcmp(path, "-") != 0) {
		ret = push_file(r, path, NULL);
		return ret < 0 ? diag_at(d, ret, path, 0, "%s", strerror(-ret)) : 0;
	}
	in->name = jobfile_strdup(jf, "<stdin>");
	if (!in->name)
		return diag_set(d, -ENOMEM, "<stdin>: out of memory");
	in->fp = stdin;
	ret = identify(in);
	if (ret < 0)
		return diag_at(d, ret, in->name, 0, "%s", strerror(-ret));
	r->depth = 1;
	return 0;
}

int jfr_open_string(struct jfr *r, struct jobfile *jf, const char *name, const char *text,
		    struct diag *d)
{
	struct jfr_input *in = &r->stack[0];

	memset(r, 0, sizeof(*r));
	r->jf = jf;
	r->d = d;
	in->text = text;
	in->name = jobfile_strdup(jf, name);
	if (!in->name)
		return diag_set(d, -ENOMEM, "%s: out of memory", name);
	r->depth = 1;
	return 0;
}

void jfr_close(struct jfr *r)
{
	while (r->depth > 0)
		pop_input(r);
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
}

/* Make room for len bytes in r->buf. */
static int reserve(struct jfr *r, size_t len)
{
	return grow_reserve(&r->buf, &r->cap, len, 1);
}

/*
 * A line of a file, without its '\n', into r->buf (r->len bytes): 1, 0 at the end, or
 * -errno. Every byte counts against JFR_MAX_TEXT_BYTES (-EFBIG), so that a file without
 * an end or without a newline stops there.
 */
static int read_file_line(struct jfr *r, struct jfr_input *in)
{
	size_t len = 0;
	int c;

	while ((c = getc(in->fp)) != EOF && c != '\n') {
		if (++r->text_bytes > JFR_MAX_TEXT_BYTES)
			return -EFBIG;
		if (reserve(r, len + 2) < 0)
			return -ENOMEM;
		r->buf[len++] = (char)c;
	}
	if (c == EOF && ferror(in->fp))
		return errno ? -errno : -EIO;
	if (c == EOF && len == 0)
		return 0;
	r->text_bytes++;	/* the newline */
	if (reserve(r, len + 1) < 0)
		return -ENOMEM;
	r->buf[len] = '\0';
	r->len = len;
	return 1;
}

/* Read the next physical line of in into r->buf: 1, 0 at the end, or -errno. */
static int read_line(struct jfr *r, struct jfr_input *in)
{
	const char *nl;
	size_t len;
	int ret;

	if (in->fp) {
		errno = 0;
		ret = read_file_line(r, in);
		if (ret <= 0)
			return ret;
	} else {
		if (!*in->text)
			return 0;
		nl = strchrnul(in->text, '\n');
		len = nl - in->text;
		if (reserve(r, len + 1) < 0)
			return -ENOMEM;
		memcpy(r->buf, in->text, len);
		r->buf[len] = '\0';
		r->len = len;
		in->text = *nl ? nl + 1 : nl;
	}
	in->line++;
	return 1;
}

/* Cut the comment (fio cuts at the first ';' or '#' anywhere) and the blanks around the rest. */
static char *strip_line(char *s, bool first_line)
{
	if (first_line && strncmp(s, UTF8_BOM, strlen(UTF8_BOM)) == 0)
		s += strlen(UTF8_BOM);
	s[strcspn(s, ";#")] = '\0';
	s = skip_blanks(s);
	*trim_end(s, s + strlen(s)) = '\0';
	return s;
}

static int parse_header(struct jfr *r, char *s, struct jfr_line *l)
{
	size_t len = strlen(s);
	char *name;

	if (len < 2 || s[len - 1] != ']')
		return diag_at(r->d, -EINVAL, l->file, l->line,
			       "malformed section header '%s' (expected '[name]')", s);
	if (r->depth > 1)
		return diag_at(r->d, -EINVAL, l->file, l->line,
			       "section header '%s' is not allowed in an included file", s);
	s[len - 1] = '\0';
	name = skip_blanks(s + 1);
	*trim_end(name, name + strlen(name)) = '\0';
	if (!*name)
		return diag_at(r->d, -EINVAL, l->file, l->line, "empty section name '[]'");
	r->in_section = true;
	l->kind = JFR_SECTION;
	l->name = name;
	l->val = NULL;
	return 1;
}

/*
 * "a/job.fio" + "x.inc" -> "a/x.inc"; absolute names and names next to "job.fio" stay. As
 * in fio, a name that exists as given (from the current directory) is taken first.
 */
static char *resolve_include(const char *includer, const char *file)
{
	const char *slash = strrchr(includer, '/');
	char *path;

	if (file[0] == '/' || !slash || access(file, F_OK) == 0)
		return strdup(file);
	if (asprintf(&path, "%.*s/%s", (int)(slash - includer), includer, file) < 0)
		return NULL;
	return path;
}

static int include_file(struct jfr *r, const char *file, const struct jfr_line *at)
{
	const char *kind = NULL;
	char *path;
	int ret;

	if (!r->in_section)
		return diag_at(r->d, -EINVAL, at->file, at->line,
			       "include '%s' is outside of any [section]", file);
	if (r->depth > JFR_MAX_INCLUDE_DEPTH)
		return diag_at(r->d, -ELOOP, at->file, at->line,
			       "include '%s': nested too deeply (more than %d levels)", file,
			       JFR_MAX_INCLUDE_DEPTH);
	path = resolve_include(at->file, file);
	if (!path)
		return diag_at(r->d, -ENOMEM, at->file, at->line, "include '%s': %s", file,
			       strerror(ENOMEM));
	ret = push_file(r, path, &kind);
	if (ret == -ELOOP)
		diag_at(r->d, ret, at->file, at->line,
			"include '%s': include loop ('%s' is already being read)", file, path);
	else if (kind)
		diag_at(r->d, ret, at->file, at->line,
			"include '%s': %s, not a regular file", file, kind);
	else if (ret < 0)
		diag_at(r->d, ret, at->file, at->line, "include '%s': %s", file, strerror(-ret));
	free(path);
	return ret;
}

/* "key=value" or a bare "key" (meaning key=1); a key may not contain blanks. */
static int parse_key(struct jfr *r, char *s, struct jfr_line *l)
{
	char *eq = strchr(s, '='), *key_end, *p;

	key_end = trim_end(s, eq ? eq : s + strlen(s));
	if (key_end == s)
		return diag_at(r->d, -EINVAL, l->file, l->line,
			       "malformed line '%s' (no option name before '=')", s);
	for (p = s; p < key_end; p++) {
		if (isspace((unsigned char)*p))
			return diag_at(r->d, -EINVAL, l->file, l->line, "malformed line '%s' "
				       "(an option name cannot contain blanks)", s);
	}
	if (!r->in_section)
		return diag_at(r->d, -EINVAL, l->file, l->line,
			       "option '%.*s' is outside of any [section]", (int)(key_end - s), s);
	l->kind = JFR_KEY;
	l->val = eq ? skip_blanks(eq + 1) : "1";
	l->bare = !eq;
	*key_end = '\0';
	l->name = s;
	return 1;
}

/* "include FILE": the word, then blanks, then the file name. */
static bool is_include(const char *s)
{
	return strncmp(s, "include", 7) == 0 && (s[7] == '\0' || isspace((unsigned char)s[7]));
}

/*
 * A read error of the input on top: past the size limit, the include that brought it in is
 * named at its line (the top-level file at the line reached).
 */
static int read_error(struct jfr *r, int err)
{
	const struct jfr_input *in = &r->stack[r->depth - 1], *up = in - 1;

	if (err != -EFBIG)
		return diag_at(r->d, err, in->name, 0, "%s", strerror(-err));
	if (r->depth == 1)
		return diag_at(r->d, -EFBIG, in->name, in->line + 1,
			       "job file longer than %u MiB (the limit for a job file and its "
			       "includes)", JFR_MAX_TEXT_BYTES >> 20);
	return diag_at(r->d, -EFBIG, up->name, up->line,
		       "include '%s': job file text longer than %u MiB (the limit for a job "
		       "file and its includes)", in->name, JFR_MAX_TEXT_BYTES >> 20);
}

int jfr_next(struct jfr *r, struct jfr_line *l)
{
	struct jfr_input *in;
	char *s;
	int ret;

	while (r->depth > 0) {
		in = &r->stack[r->depth - 1];
		ret = read_line(r, in);
		if (ret < 0)
			return read_error(r, ret);
		if (ret == 0 && r->depth == 1)
			return 0;
		if (ret == 0) {
			pop_input(r);
			continue;
		}
		/* fio's fgets() would end the line there: 'bs=4k\0,64k' would read as bs=4k */
		if (strlen(r->buf) != r->len)
			return diag_at(r->d, -EINVAL, in->name, in->line,
				       "NUL byte at column %zu (a job file is text)",
				       strlen(r->buf) + 1);
		s = strip_line(r->buf, in->line == 1);
		if (!*s)
			continue;
		l->file = in->name;
		l->line = in->line;
		if (*s == '[')
			return parse_header(r, s, l);
		if (!is_include(s))
			return parse_key(r, s, l);
		if (!s[7])
			return diag_at(r->d, -EINVAL, l->file, l->line,
				       "include without a file name");
		ret = include_file(r, skip_blanks(s + 7), l);
		if (ret < 0)
			return ret;
	}
	return 0;
}
