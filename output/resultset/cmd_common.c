/* Shared by iojob report, compare and pts: their options read, formats, loading, messages. */
#include "output/resultset/cmd_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/devices/path_guard.h"
#include "output/resultset/commands.h"
#include "output/resultset/resultset_read.h"
#include "output/resultset/seed_tables.h"
#include "base/diag.h"

int cmd_parse_option(const char *cmd, const struct argopt *opts, void *args, int argc,
		     char **argv, int *i)
{
	struct argopt_got got;
	int ret = argopt_read(opts, ARGOPT_GNU, argc, argv, i, &got);

	if (ret == -ENOENT)
		return cmd_fail(cmd, "unknown option '%s' (see iojob %s --help)", argv[*i], cmd);
	if (ret < 0)
		return cmd_fail(cmd, "--%s needs a value (see iojob %s --help)", got.opt->name,
				cmd);
	if (argopt_store(got.opt, args, got.val) < 0)
		return cmd_fail(cmd, "--%s takes KEY=VALUE, at most %d times ('%s')",
				got.opt->name, ARGOPT_MAX_KV, got.val);
	return EXIT_GO_ON;
}

int cmd_parse_format(const char *s, struct cmd_format *out)
{
	const char *comma = strchr(s, ',');
	char first[32];

	*out = (struct cmd_format){ NULL, TS_TEXT };
	snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - s) : (int)strlen(s), s);
	out->shape = seed_shape_find(first);
	if (out->shape)
		return comma ? table_style_parse(comma + 1, &out->style) : 0;
	if (comma)
		return -EINVAL;
	return table_style_parse(s, &out->style);
}

FILE *cmd_open_output(const char *cmd, const char *opt, const char *path, int *status)
{
	char why[512];
	FILE *f = path_fopen(path, "w", why, sizeof(why));

	if (!f) {
		*status = errno == EPERM ? EXIT_USAGE : EXIT_JOB_FAILED;
		fprintf(stderr, "iojob %s: %s '%s': %s\n", cmd, opt, path, why);
	}
	return f;
}

int cmd_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "iojob %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int cmd_load(const char *cmd, struct rs_set *set, const char *const *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct diag d = { 0 };
		unsigned before = set->skipped;

		if (rs_load(set, files[i], &d) < 0)
			return cmd_fail(cmd, "%s", d.msg);
		if (set->skipped > before)
			fprintf(stderr, "iojob %s: note: '%s': %u line%s that %s not JSON skipped "
				"(a cell cut short)\n", cmd, files[i], set->skipped - before,
				set->skipped - before > 1 ? "s" : "",
				set->skipped - before > 1 ? "are" : "is");
	}
	return 0;
}

void cmd_print_tables(struct table *t, int n, enum table_style s)
{
	table_render_all(stdout, t, (size_t)n, s);
	seed_free_tables(t, n);
}

void cmd_nth_path(const char *path, int i, char *buf, size_t len)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

	if (!i)
		snprintf(buf, len, "%s", path);
	else if (dot && (!slash || dot > slash))
		snprintf(buf, len, "%.*s-%d%s", (int)(dot - path), path, i + 1, dot);
	else
		snprintf(buf, len, "%s-%d", path, i + 1);
}

void cmd_say_written(const char *cmd, const char *svg, size_t n)
{
	char path[4096];

	fprintf(stderr, "iojob %s: %zu charts:", cmd, n);
	for (size_t i = 0; i < n; i++) {
		cmd_nth_path(svg, (int)i, path, sizeof(path));
		fprintf(stderr, "%s %s", i ? "," : "", path);
	}
	fputc('\n', stderr);
}
