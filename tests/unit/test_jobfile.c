/*
 * Unit tests for parser/jobfile.c: the job-file grammar, includes, ${VAR}, sources and
 * error messages. Each test runs in a fresh mkdtemp directory, which is its cwd.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "base/diag.h"
#include "parser/jobfile.h"
#include "test_util.h"

static char tmpdir[64];
static char *saved_cwd;

static void enter_tmpdir(void)
{
	saved_cwd = getcwd(NULL, 0);
	ck_assert_ptr_nonnull(saved_cwd);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iojob-jobfile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	ck_assert_int_eq(chdir(tmpdir), 0);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void leave_tmpdir(void)
{
	ck_assert_int_eq(chdir(saved_cwd), 0);
	free(saved_cwd);
	ck_assert_int_eq(nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

static void parse_ok(struct jobfile *jf, const char *path)
{
	struct diag d = { 0 };
	int ret;

	ret = jobfile_parse(jf, path, &d);
	ck_assert_msg(ret == 0, "%s: returned %d: %s", path, ret, d.msg);
}

/* Parse job.fio holding text and check that it fails with exactly err and msg. */
static void parse_fails(const char *path, const char *text, int err, const char *msg)
{
	struct jobfile jf = { 0 };
	struct diag d = { 0 };
	int ret;

	if (text)
		write_file(path, text);
	ret = jobfile_parse(&jf, path, &d);
	ck_assert_int_eq(ret, err);
	ck_assert_str_eq(d.msg, msg);
	ck_assert_uint_eq(jf.nsecs, 0);
	ck_assert_int_eq(jf.nsources, 0);
	jobfile_free(&jf);
}

static void check_key(const struct jf_section *s, size_t i, const char *key, const char *val,
		      const char *file, int line)
{
	ck_assert_uint_lt(i, s->nkeys);
	ck_assert_str_eq(s->keys[i].key, key);
	ck_assert_str_eq(s->keys[i].val, val);
	ck_assert_str_eq(s->keys[i].file, file);
	ck_assert_int_eq(s->keys[i].line, line);
}

static void check_section(const struct jf_section *s, const char *name, const char *file,
			  int line, size_t nkeys)
{
	ck_assert_str_eq(s->name, name);
	ck_assert_str_eq(s->file, file);
	ck_assert_int_eq(s->line, line);
	ck_assert_uint_eq(s->nkeys, nkeys);
}

/* A string of n copies of c, malloc'd. */
static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	ck_assert_ptr_nonnull(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

START_TEST(sections_and_keys_remember_file_and_line)
{
	struct jobfile jf = { 0 };

	write_file("job.fio", "[job]\nrw=read\n  bs = 4k  \n\n[job2]\nsize=1m\n");
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.nsecs, 2);
	check_section(&jf.secs[0], "job", "job.fio", 1, 2);
	check_key(&jf.secs[0], 0, "rw", "read", "job.fio", 2);
	check_key(&jf.secs[0], 1, "bs", "4k", "job.fio", 3);
	check_section(&jf.secs[1], "job2", "job.fio", 5, 1);
	check_key(&jf.secs[1], 0, "size", "1m", "job.fio", 6);
	jobfile_free(&jf);
}
END_TEST

START_TEST(comments_are_cut_anywhere_in_a_line)
{
	struct jobfile jf = { 0 };

	write_file("job.fio", "; top\n# top\n[job] ; the job\n  ; indented\nrw=read ; note\n"
		   "bs=4k#note\nsize=1m;\n\t# tab\n");
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.nsecs, 1);
	check_section(&jf.secs[0], "job", "job.fio", 3, 3);
	check_key(&jf.secs[0], 0, "rw", "read", "job.fio", 5);
	check_key(&jf.secs[0], 1, "bs", "4k", "job.fio", 6);
	check_key(&jf.secs[0], 2, "size", "1m", "job.fio", 7);
	jobfile_free(&jf);
}
END_TEST

START_TEST(indented_lines_are_keys_of_their_own)
{
	struct jobfile jf = { 0 };

	write_file("job.fio", "  [job]\n  rw=read\n\tbs=4k\n \t size = 1m\n");
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.nsecs, 1);
	ck_assert_uint_eq(jf.secs[0].nkeys, 3);
	check_key(&jf.secs[0], 0, "rw", "read", "job.fio", 2);
	check_key(&jf.secs[0], 1, "bs", "4k", "job.fio", 3);
	check_key(&jf.secs[0], 2, "size", "1m", "job.fio", 4);
	jobfile_free(&jf);
}
END_TEST

START_TEST(bare_key_means_one)
{
	struct jobfile jf = { 0 };

	write_file("job.fio", "[job]\ntime_based\n  group_reporting  \nstonewall ; why\n");
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.secs[0].nkeys, 3);
	check_key(&jf.secs[0], 0, "time_based", "1", "job.fio", 2);
	check_key(&jf.secs[0], 1, "group_reporting", "1", "job.fio", 3);
	check_key(&jf.secs[0], 2, "stonewall", "1", "job.fio", 4);
	ck_assert(jf.secs[0].keys[0].bare && jf.secs[0].keys[2].bare);
	jobfile_free(&jf);
	write_file("job.fio", "[job]\nstonewall=1\n");
	parse_ok(&jf, "job.fio");
	ck_assert(!jf.secs[0].keys[0].bare);	/* the same value, written out: not bare */
	jobfile_free(&jf);
}
END_TEST

START_TEST(values_keep_inner_equals_colons_and_empty_text)
{
	struct jobfile jf = { 0 };

	write_file("job.fio", "[job]\nsize=\nbuffer_pattern=a=b\nfilename=/dev/a:/dev/b\n"
		   "odd:key=1\nfilename_format = $jobname.$jobnum \n");
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.secs[0].nkeys, 5);
	check_key(&jf.secs[0], 0, "size", "", "job.fio", 2);
	check_key(&jf.secs[0], 1, "buffer_pattern", "a=b", "job.fio", 3);
	check_key(&jf.secs[0], 2, "filename", "/dev/a:/dev/b", "job.fio", 4);
	check_key(&jf.secs[0], 3, "odd:key", "1", "job.fio", 5);
	check_key(&jf.secs[0], 4, "filename_format", "$jobname.$jobnum", "job.fio", 6);
	jobfile_free(&jf);
}
END_TEST

START_TEST(repeated_keys_and_sections_are_all_kept)
{
	struct jobfile jf = { 0 };

	write_file("job.fio", "[job]\nfilename=a\nfilename=b\n[job]\n");
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.nsecs, 2);
	check_key(&jf.secs[0], 0, "filename", "a", "job.fio", 2);
	check_key(&jf.secs[0], 1, "filename", "b", "job.fio", 3);
	check_section(&jf.secs[1], "job", "job.fio", 4, 0);
	jobfile_free(&jf);
}
END_TEST

START_TEST(section_names_are_passed_through_as_written)
{
	struct jobfile jf = { 0 };
	char *text, *name = repeat('n', 300);

	ck_assert_int_ge(asprintf(&text, "[global]\nbs=4k\n[ my job ]\n[a]b]\n[%s]\n[global2]\n",
				  name), 0);
	write_file("job.fio", text);
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.nsecs, 5);
	check_section(&jf.secs[0], "global", "job.fio", 1, 1);
	check_section(&jf.secs[1], "my job", "job.fio", 3, 0);
	check_section(&jf.secs[2], "a]b", "job.fio", 4, 0);
	check_section(&jf.secs[3], name, "job.fio", 5, 0);
	check_section(&jf.secs[4], "global2", "job.fio", 6, 0);
	jobfile_free(&jf);
	free(text);
	free(name);
}
END_TEST

START_TEST(crlf_bom_and_missing_final_newline_are_accepted)
{
	struct jobfile jf = { 0 };

	write_file("job.fio", "\xef\xbb\xbf[job]\r\nrw=read\r\nbs=4k");
	parse_ok(&jf, "job.fio");
	check_section(&jf.secs[0], "job", "job.fio", 1, 2);
	check_key(&jf.secs[0], 0, "rw", "read", "job.fio", 2);
	check_key(&jf.secs[0], 1, "bs", "4k", "job.fio", 3);
	jobfile_free(&jf);
}
END_TEST

START_TEST(a_5000_character_line_comes_through_intact)
{
	struct jobfile jf = { 0 };
	char *files, *key, *text;
	size_t i;

	files = repeat('f', 5000);
	for (i = 1; i < 5000; i += 2)
		files[i] = ':';
	key = repeat('k', 5000);
	ck_assert_int_ge(asprintf(&text, "[job]\nfilename=%s\nrw=read\n%s\n%s=%s\n", files, key,
				  key, files), 0);
	write_file("job.fio", text);
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.secs[0].nkeys, 4);
	check_key(&jf.secs[0], 0, "filename", files, "job.fio", 2);
	check_key(&jf.secs[0], 1, "rw", "read", "job.fio", 3);
	check_key(&jf.secs[0], 2, key, "1", "job.fio", 4);
	check_key(&jf.secs[0], 3, key, files, "job.fio", 5);
	jobfile_free(&jf);
	free(text);
	free(key);
	free(files);
}
END_TEST

/* Lines around inih's 200-byte buffer, where it would start cutting. */
START_TEST(lines_near_the_inih_limit_come_through_intact)
{
	struct jobfile jf = { 0 };
	char *val, *text;

	val = repeat('v', 180 + _i);
	ck_assert_int_ge(asprintf(&text, "[job]\nfilename=%s\nbs=4k\n", val), 0);
	write_file("job.fio", text);
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.secs[0].nkeys, 2);
	check_key(&jf.secs[0], 0, "filename", val, "job.fio", 2);
	check_key(&jf.secs[0], 1, "bs", "4k", "job.fio", 3);
	jobfile_free(&jf);
	free(text);
	free(val);
}
END_TEST

struct error_case {
	const char *text;
	int err;
	const char *msg;
};

static const struct error_case error_cases[] = {
	{ "filename=x\n", -EINVAL, "job.fio:1: option 'filename' is outside of any [section]" },
	{ "; c\n\ntime_based\n[job]\n", -EINVAL,
	  "job.fio:3: option 'time_based' is outside of any [section]" },
	{ "[job]\nrw=read\n\n[job\n", -EINVAL,
	  "job.fio:4: malformed section header '[job' (expected '[name]')" },
	{ "[job]x\n", -EINVAL,
	  "job.fio:1: malformed section header '[job]x' (expected '[name]')" },
	{ "[\n", -EINVAL, "job.fio:1: malformed section header '[' (expected '[name]')" },
	{ "[]\n", -EINVAL, "job.fio:1: empty section name '[]'" },
	{ "[ \t]\n", -EINVAL, "job.fio:1: empty section name '[]'" },
	{ "[job]\nfoo bar=1\n", -EINVAL,
	  "job.fio:2: malformed line 'foo bar=1' (an option name cannot contain blanks)" },
	{ "[job]\nfoo bar\n", -EINVAL,
	  "job.fio:2: malformed line 'foo bar' (an option name cannot contain blanks)" },
	{ "[job]\n = 5\n", -EINVAL,
	  "job.fio:2: malformed line '= 5' (no option name before '=')" },
	{ "[job]\ninclude  ; what\n", -EINVAL, "job.fio:2: include without a file name" },
};

START_TEST(errors_name_the_file_and_line)
{
	const struct error_case *c = &error_cases[_i];

	unsetenv("IOJOB_TEST_UNSET");
	parse_fails("job.fio", c->text, c->err, c->msg);
}
END_TEST

START_TEST(failed_parse_leaves_earlier_sources_alone)
{
	struct jobfile jf = { 0 };
	struct diag d = { 0 };

	write_file("ok.fio", "[a]\nrw=read\n");
	write_file("bad.fio", "[b]\nrw=write\n[c]\nfoo bar\n");
	parse_ok(&jf, "ok.fio");
	ck_assert_int_eq(jobfile_parse(&jf, "bad.fio", &d), -EINVAL);
	ck_assert_uint_eq(jf.nsecs, 1);
	ck_assert_int_eq(jf.nsources, 1);
	ck_assert_str_eq(jf.secs[0].name, "a");
	jobfile_free(&jf);
}
END_TEST

START_TEST(missing_and_unreadable_files_are_errors)
{
	ck_assert_int_eq(mkdir("dir.fio", 0700), 0);
	parse_fails("missing.fio", NULL, -ENOENT, "missing.fio: No such file or directory");
	parse_fails("dir.fio", NULL, -EISDIR, "dir.fio: Is a directory");
}
END_TEST

START_TEST(include_splices_lines_relative_to_the_including_file)
{
	struct jobfile jf = { 0 };

	ck_assert_int_eq(mkdir("sub", 0700), 0);
	ck_assert_int_eq(mkdir("sub/inc", 0700), 0);
	write_file("sub/job.fio", "[global]\ninclude inc/common.inc\n[job]\nrw=read\n"
		   "include   inc/common.inc ; again\nsize=1m\n");
	write_file("sub/inc/common.inc", "; shared\nbs=4k\n\ninclude deeper.inc\n");
	write_file("sub/inc/deeper.inc", "iodepth=8\n");
	parse_ok(&jf, "sub/job.fio");
	ck_assert_uint_eq(jf.nsecs, 2);
	check_section(&jf.secs[0], "global", "sub/job.fio", 1, 2);
	check_key(&jf.secs[0], 0, "bs", "4k", "sub/inc/common.inc", 2);
	check_key(&jf.secs[0], 1, "iodepth", "8", "sub/inc/deeper.inc", 1);
	check_section(&jf.secs[1], "job", "sub/job.fio", 3, 4);
	check_key(&jf.secs[1], 0, "rw", "read", "sub/job.fio", 4);
	check_key(&jf.secs[1], 1, "bs", "4k", "sub/inc/common.inc", 2);
	check_key(&jf.secs[1], 2, "iodepth", "8", "sub/inc/deeper.inc", 1);
	check_key(&jf.secs[1], 3, "size", "1m", "sub/job.fio", 6);
	jobfile_free(&jf);
}
END_TEST

START_TEST(include_accepts_an_absolute_path)
{
	struct jobfile jf = { 0 };
	char *text;

	write_file("abs.inc", "bs=8k\n");
	ck_assert_int_ge(asprintf(&text, "[job]\ninclude %s/abs.inc\n", tmpdir), 0);
	write_file("job.fio", text);
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(jf.secs[0].nkeys, 1);
	ck_assert_str_eq(jf.secs[0].keys[0].val, "8k");
	jobfile_free(&jf);
	free(text);
}
END_TEST

START_TEST(include_of_a_missing_file_is_an_error)
{
	parse_fails("job.fio", "[job]\nrw=read\n\n\ninclude missing.inc\n", -ENOENT,
		    "job.fio:5: include 'missing.inc': No such file or directory");
}
END_TEST

START_TEST(include_outside_a_section_is_an_error)
{
	write_file("a.inc", "bs=4k\n");
	parse_fails("job.fio", "include a.inc\n[job]\n", -EINVAL,
		    "job.fio:1: include 'a.inc' is outside of any [section]");
}
END_TEST

START_TEST(include_may_not_open_a_section)
{
	write_file("a.inc", "bs=4k\n[job2]\n");
	parse_fails("job.fio", "[job]\ninclude a.inc\n", -EINVAL,
		    "a.inc:2: section header '[job2]' is not allowed in an included file");
}
END_TEST

START_TEST(include_reports_errors_at_the_included_line)
{
	write_file("a.inc", "bs=4k\nfoo bar\n");
	parse_fails("job.fio", "[job]\ninclude a.inc\n", -EINVAL,
		    "a.inc:2: malformed line 'foo bar' (an option name cannot contain blanks)");
}
END_TEST

START_TEST(include_of_a_directory_is_an_error)
{
	ck_assert_int_eq(mkdir("sub", 0700), 0);
	parse_fails("job.fio", "[job]\ninclude sub\n", -EISDIR,
		    "job.fio:2: include 'sub': a directory, not a regular file");
}
END_TEST

START_TEST(include_loops_are_detected)
{
	write_file("a.inc", "include b.inc\n");
	write_file("b.inc", "bs=4k\ninclude a.inc\n");
	parse_fails("job.fio", "[job]\ninclude a.inc\n", -ELOOP,
		    "b.inc:2: include 'a.inc': include loop ('a.inc' is already being read)");
	parse_fails("job.fio", "[job]\ninclude job.fio\n", -ELOOP,
		    "job.fio:2: include 'job.fio': "
		    "include loop ('job.fio' is already being read)");
}
END_TEST

/* Write a chain job.fio -> d1.inc -> ... -> d<depth>.inc, the last one setting bs. */
static void write_include_chain(int depth)
{
	char name[32], text[64];
	int i;

	write_file("job.fio", "[job]\ninclude d1.inc\n");
	for (i = 1; i <= depth; i++) {
		snprintf(name, sizeof(name), "d%d.inc", i);
		if (i < depth)
			snprintf(text, sizeof(text), "include d%d.inc\n", i + 1);
		else
			snprintf(text, sizeof(text), "bs=4k\n");
		write_file(name, text);
	}
}

START_TEST(include_nesting_is_limited_to_16_levels)
{
	struct jobfile jf = { 0 };

	write_include_chain(16);
	parse_ok(&jf, "job.fio");
	check_key(&jf.secs[0], 0, "bs", "4k", "d16.inc", 1);
	jobfile_free(&jf);
	write_include_chain(17);
	parse_fails("job.fio", NULL, -ELOOP,
		    "d16.inc:1: include 'd17.inc': nested too deeply (more than 16 levels)");
}
END_TEST

START_TEST(env_vars_are_replaced_in_values)
{
	struct jobfile jf = { 0 };

	setenv("IOJOB_TEST_SIZE", "4m", 1);
	setenv("IOJOB_TEST_DIR", "/mnt/x", 1);
	setenv("IOJOB_TEST_EMPTY", "", 1);
	write_file("job.fio", "[job]\nsize=${IOJOB_TEST_SIZE}\n"
		   "filename=${IOJOB_TEST_DIR}/a:${IOJOB_TEST_DIR}/b\nx=[${IOJOB_TEST_EMPTY}]\n");
	parse_ok(&jf, "job.fio");
	check_key(&jf.secs[0], 0, "size", "4m", "job.fio", 2);
	check_key(&jf.secs[0], 1, "filename", "/mnt/x/a:/mnt/x/b", "job.fio", 3);
	check_key(&jf.secs[0], 2, "x", "[]", "job.fio", 4);
	jobfile_free(&jf);
}
END_TEST

START_TEST(unset_env_vars_are_empty_as_in_fio)
{
	struct jobfile jf = { 0 };
	struct diag d = { 0 };

	unsetenv("IOJOB_TEST_UNSET");
	write_file("job.fio", "[job]\nfilename=a${IOJOB_TEST_UNSET}b\nsize=${IOJOB_TEST_UNSET\n");
	ck_assert_int_eq(jobfile_parse(&jf, "job.fio", &d), 0);
	check_key(&jf.secs[0], 0, "filename", "ab", "job.fio", 2);
	check_key(&jf.secs[0], 1, "size", "${IOJOB_TEST_UNSET", "job.fio", 3);
	ck_assert_ptr_nonnull(strstr(d.notes, "'IOJOB_TEST_UNSET' is not set"));
	jobfile_free(&jf);
	free(d.notes);
}
END_TEST

START_TEST(keywords_are_replaced_in_values)
{
	struct jobfile jf = { 0 };
	char want[64];

	write_file("job.fio", "[job]\nbs=$pagesize*2\nsize=(8*$mb_memory)/2\n");
	parse_ok(&jf, "job.fio");
	snprintf(want, sizeof(want), "%ld", sysconf(_SC_PAGESIZE) * 2);
	check_key(&jf.secs[0], 0, "bs", want, "job.fio", 2);
	snprintf(want, sizeof(want), "%lld", (long long)sysconf(_SC_PHYS_PAGES) *
		 sysconf(_SC_PAGESIZE) / (1 << 20) * 8 / 2);
	check_key(&jf.secs[0], 1, "size", want, "job.fio", 3);
	jobfile_free(&jf);
}
END_TEST

START_TEST(env_var_may_make_a_line_long)
{
	struct jobfile jf = { 0 };
	char *files = repeat('f', 5000);

	setenv("IOJOB_TEST_FILES", files, 1);
	write_file("job.fio", "[job]\nfilename=${IOJOB_TEST_FILES}:last\n");
	parse_ok(&jf, "job.fio");
	ck_assert_uint_eq(strlen(jf.secs[0].keys[0].val), 5005);
	ck_assert_int_eq(strncmp(jf.secs[0].keys[0].val, files, 5000), 0);
	ck_assert_str_eq(jf.secs[0].keys[0].val + 5000, ":last");
	jobfile_free(&jf);
	free(files);
}
END_TEST

START_TEST(dollar_without_brace_stays_as_written)
{
	struct jobfile jf = { 0 };

	write_file("job.fio", "[job]\nfilename_format=$jobname.$jobnum.$filenum\nx=$$\ny=a$\n"
		   "z=$ {A}\n");
	parse_ok(&jf, "job.fio");
	check_key(&jf.secs[0], 0, "filename_format", "$jobname.$jobnum.$filenum", "job.fio", 2);
	check_key(&jf.secs[0], 1, "x", "$$", "job.fio", 3);
	check_key(&jf.secs[0], 2, "y", "a$", "job.fio", 4);
	check_key(&jf.secs[0], 3, "z", "$ {A}", "job.fio", 5);
	jobfile_free(&jf);
}
END_TEST

START_TEST(string_source_uses_its_name_in_messages)
{
	struct jobfile jf = { 0 };
	struct diag d = { 0 };

	ck_assert_int_eq(jobfile_parse_string(&jf, "<stdin>", "\nrw=read\n", &d), -EINVAL);
	ck_assert_str_eq(d.msg, "<stdin>:2: option 'rw' is outside of any [section]");
	ck_assert_int_eq(jobfile_parse_string(&jf, "<stdin>", "[job]\nrw=read", &d), 0);
	check_section(&jf.secs[0], "job", "<stdin>", 1, 1);
	check_key(&jf.secs[0], 0, "rw", "read", "<stdin>", 2);
	ck_assert_int_eq(jobfile_parse_string(&jf, "<empty>", "", &d), 0);
	ck_assert_uint_eq(jf.nsecs, 1);
	ck_assert_int_eq(jf.nsources, 2);
	jobfile_free(&jf);
}
END_TEST

START_TEST(string_source_resolves_includes_next_to_its_name)
{
	struct jobfile jf = { 0 };
	struct diag d = { 0 };

	ck_assert_int_eq(mkdir("sub", 0700), 0);
	write_file("sub/a.inc", "bs=4k\n");
	ck_assert_int_eq(jobfile_parse_string(&jf, "sub/job.fio", "[job]\ninclude a.inc\n", &d),
			 0);
	check_key(&jf.secs[0], 0, "bs", "4k", "sub/a.inc", 1);
	jobfile_free(&jf);
}
END_TEST

START_TEST(dash_reads_stdin)
{
	struct jobfile jf = { 0 };
	struct diag d = { 0 };
	int fd, saved, ret;

	write_file("a.inc", "bs=4k\n");
	write_file("job.fio", "[job]\nrw=read\ninclude a.inc\n");
	saved = dup(STDIN_FILENO);
	fd = open("job.fio", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(dup2(fd, STDIN_FILENO), 0);
	close(fd);
	ret = jobfile_parse(&jf, "-", &d);
	ck_assert_int_ge(dup2(saved, STDIN_FILENO), 0);
	close(saved);
	clearerr(stdin);
	ck_assert_msg(ret == 0, "returned %d: %s", ret, d.msg);
	check_section(&jf.secs[0], "job", "<stdin>", 1, 2);
	check_key(&jf.secs[0], 0, "rw", "read", "<stdin>", 2);
	check_key(&jf.secs[0], 1, "bs", "4k", "a.inc", 1);
	jobfile_free(&jf);
}
END_TEST

START_TEST(each_source_gets_the_next_number)
{
	struct jobfile jf = { 0 };
	struct diag d = { 0 };

	write_file("one.fio", "[global]\nbs=4k\n[a]\n");
	write_file("two.fio", "bs=8k\n");
	write_file("three.fio", "[b]\n[c]\n");
	parse_ok(&jf, "one.fio");
	ck_assert_int_eq(jobfile_parse(&jf, "two.fio", &d), -EINVAL);
	ck_assert_str_eq(d.msg, "two.fio:1: option 'bs' is outside of any [section]");
	ck_assert_int_eq(jobfile_parse_string(&jf, "<string>", "[s]\n", &d), 0);
	parse_ok(&jf, "three.fio");
	ck_assert_int_eq(jf.nsources, 3);
	ck_assert_uint_eq(jf.nsecs, 5);
	ck_assert_int_eq(jf.secs[0].source, 0);
	ck_assert_int_eq(jf.secs[1].source, 0);
	ck_assert_int_eq(jf.secs[2].source, 1);
	ck_assert_int_eq(jf.secs[3].source, 2);
	ck_assert_int_eq(jf.secs[4].source, 2);
	jobfile_free(&jf);
}
END_TEST

START_TEST(add_key_creates_or_extends_a_section)
{
	struct jobfile jf = { 0 };
	char key[16] = "rw", val[16] = "read";

	ck_assert_int_eq(jobfile_add_key(&jf, 0, "cli", key, val, "<command line>", 0), 0);
	strcpy(key, "changed");
	strcpy(val, "changed");
	ck_assert_int_eq(jobfile_add_key(&jf, 0, NULL, "bs", "4k", "<command line>", 0), 0);
	ck_assert_int_eq(jobfile_parse_string(&jf, "<string>", "[job]\nsize=1m\n", NULL), 0);
	ck_assert_int_eq(jobfile_add_key(&jf, 1, NULL, "iodepth", "4", "x.fio", 7), 0);
	ck_assert_uint_eq(jf.nsecs, 2);
	check_section(&jf.secs[0], "cli", "<command line>", 0, 2);
	ck_assert_int_eq(jf.secs[0].source, -1);
	check_key(&jf.secs[0], 0, "rw", "read", "<command line>", 0);
	check_key(&jf.secs[0], 1, "bs", "4k", "<command line>", 0);
	check_key(&jf.secs[1], 1, "iodepth", "4", "x.fio", 7);
	ck_assert_int_eq(jobfile_add_key(&jf, 5, "far", "bs", "4k", "x", 1), -EINVAL);
	ck_assert_int_eq(jobfile_add_key(&jf, 2, NULL, "bs", "4k", "x", 1), -EINVAL);
	ck_assert_uint_eq(jf.nsecs, 2);
	jobfile_free(&jf);
}
END_TEST

START_TEST(strdup_copies_into_the_arena)
{
	struct jobfile jf = { 0 };
	char *big = repeat('b', 10000);
	const char *a, *b;

	a = jobfile_strdup(&jf, "hello");
	b = jobfile_strdup(&jf, big);
	ck_assert_str_eq(a, "hello");
	ck_assert_str_eq(b, big);
	ck_assert_ptr_ne(b, big);
	jobfile_free(&jf);
	ck_assert_ptr_null(jf.arena);
	free(big);
}
END_TEST

START_TEST(long_names_lose_their_middle_not_the_reason)
{
	struct diag d = { 0 };
	char *name = malloc(3000);

	memset(name, 'n', 2999);
	name[2999] = '\0';
	ck_assert_int_eq(diag_at(&d, -EINVAL, name, 7, "job '%s': '%s.0.0': File name too long",
				 name, name), -EINVAL);
	ck_assert_uint_lt(strlen(d.msg), sizeof(d.msg));
	ck_assert_ptr_nonnull(strstr(d.msg, ":7: job 'nnnnnnnnnnnnnnnnnnnnnnnn...nnn"));
	ck_assert_ptr_nonnull(strstr(d.msg, "nnn.0.0': File name too long"));
	ck_assert_str_eq(d.msg + strlen(d.msg) - 20, "': File name too long" + 1);
	free(name);
}
END_TEST

START_TEST(a_short_message_is_kept_and_a_buffer_of_any_size_fits)
{
	struct diag d = { 0 };
	char buf[100], path[200];

	diag_set(&d, -EINVAL, "option '%s': %s", "bs", "'4q' is not a size");
	ck_assert_str_eq(d.msg, "option 'bs': '4q' is not a size");
	memset(path, 'p', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	diag_format(buf, sizeof(buf), "read '%s': %s", path, "Input/output error");
	ck_assert_uint_eq(strlen(buf), sizeof(buf) - 1);
	ck_assert_ptr_nonnull(strstr(buf, "ppp...ppp"));
	ck_assert_str_eq(buf + strlen(buf) - 21, "': Input/output error");
}
END_TEST

static TCase *checked_tcase(const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, enter_tmpdir, leave_tmpdir);
	return tc;
}

static Suite *jobfile_suite(void)
{
	Suite *s = suite_create("jobfile");
	TCase *tc;

	tc = checked_tcase("grammar");
	tcase_add_test(tc, sections_and_keys_remember_file_and_line);
	tcase_add_test(tc, comments_are_cut_anywhere_in_a_line);
	tcase_add_test(tc, indented_lines_are_keys_of_their_own);
	tcase_add_test(tc, bare_key_means_one);
	tcase_add_test(tc, values_keep_inner_equals_colons_and_empty_text);
	tcase_add_test(tc, repeated_keys_and_sections_are_all_kept);
	tcase_add_test(tc, section_names_are_passed_through_as_written);
	tcase_add_test(tc, crlf_bom_and_missing_final_newline_are_accepted);
	suite_add_tcase(s, tc);

	tc = checked_tcase("long_lines");
	tcase_add_test(tc, a_5000_character_line_comes_through_intact);
	tcase_add_loop_test(tc, lines_near_the_inih_limit_come_through_intact, 0, 40);
	suite_add_tcase(s, tc);

	tc = checked_tcase("errors");
	tcase_add_loop_test(tc, errors_name_the_file_and_line, 0, TABLE_LEN(error_cases));
	tcase_add_test(tc, failed_parse_leaves_earlier_sources_alone);
	tcase_add_test(tc, missing_and_unreadable_files_are_errors);
	suite_add_tcase(s, tc);

	tc = checked_tcase("include");
	tcase_add_test(tc, include_splices_lines_relative_to_the_including_file);
	tcase_add_test(tc, include_accepts_an_absolute_path);
	tcase_add_test(tc, include_of_a_missing_file_is_an_error);
	tcase_add_test(tc, include_outside_a_section_is_an_error);
	tcase_add_test(tc, include_may_not_open_a_section);
	tcase_add_test(tc, include_reports_errors_at_the_included_line);
	tcase_add_test(tc, include_of_a_directory_is_an_error);
	tcase_add_test(tc, include_loops_are_detected);
	tcase_add_test(tc, include_nesting_is_limited_to_16_levels);
	suite_add_tcase(s, tc);

	tc = checked_tcase("env");
	tcase_add_test(tc, env_vars_are_replaced_in_values);
	tcase_add_test(tc, env_var_may_make_a_line_long);
	tcase_add_test(tc, unset_env_vars_are_empty_as_in_fio);
	tcase_add_test(tc, keywords_are_replaced_in_values);
	tcase_add_test(tc, dollar_without_brace_stays_as_written);
	suite_add_tcase(s, tc);

	tc = checked_tcase("sources");
	tcase_add_test(tc, string_source_uses_its_name_in_messages);
	tcase_add_test(tc, string_source_resolves_includes_next_to_its_name);
	tcase_add_test(tc, dash_reads_stdin);
	tcase_add_test(tc, each_source_gets_the_next_number);
	suite_add_tcase(s, tc);

	tc = tcase_create("diag");
	tcase_add_test(tc, long_names_lose_their_middle_not_the_reason);
	tcase_add_test(tc, a_short_message_is_kept_and_a_buffer_of_any_size_fits);
	suite_add_tcase(s, tc);

	tc = tcase_create("api");
	tcase_add_test(tc, add_key_creates_or_extends_a_section);
	tcase_add_test(tc, strdup_copies_into_the_arena);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(jobfile_suite());
}
