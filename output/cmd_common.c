/* Shared by the report and compare subcommands: options, formats, loading, messages. */
#include "output/cmd_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/resultset_read.h"
#include "output/seed_tables.h"
#include "parser/diag.h"

int cmd_option(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, "--", 2) || strncmp(a + 2, name, n))
		return 0;
	if (a[2 + n] == '=') {
		*val = a + 3 + n;
		return 1;
	}
	if (a[2 + n])
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

int cmd_parse_format(const char *s, struct cmd_format *out)
{
	static const char *const shapes[] = { "plain", "sysbench", "tiobench", "xdd" };
	const char *comma = strchr(s, ',');
	char first[32];

	*out = (struct cmd_format){ SHAPE_PLAIN, TS_TEXT };
	snprintf(first, sizeof(first), "%.*s", comma ? (int)(comma - s) : (int)strlen(s), s);
	for (unsigned i = 1; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		if (!strcmp(first, shapes[i])) {
			out->shape = (enum cmd_shape)i;
			return comma ? table_style_parse(comma + 1, &out->style) : 0;
		}
	}
	if (comma)
		return -EINVAL;
	return table_style_parse(s, &out->style);
}

int cmd_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "iojob %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CMD_USAGE;
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
