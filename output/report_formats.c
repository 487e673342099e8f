/* The --output-format table, and the parsing, printing and lists that read it. */
#include "output/report_formats.h"

#include <errno.h>
#include <string.h>

/* The renderers, each in its output/report_NAME.c. */
REPORT_RENDERER(report_render_normal);
REPORT_RENDERER(report_render_json);
REPORT_RENDERER(report_render_terse);

const struct report_format report_formats[] = {
	{ "normal", RF_NORMAL, report_render_normal, 2, "fio's text report" },
	{ "json", RF_JSON, report_render_json, 1, "fio's JSON document" },
	{ "json+", RF_JSON | RF_JSON_PLUS, NULL, 1,
	  "the JSON document with each latency histogram's bins" },
	{ "terse", RF_TERSE, report_render_terse, 0,
	  "fio's terse format, version 3 or --terse-version's: one ';'-separated line per job" },
	{ NULL },
};

static const struct report_format *format_find(const char *name)
{
	for (const struct report_format *rf = report_formats; rf->name; rf++)
		if (!strcmp(rf->name, name))
			return rf;
	return NULL;
}

int report_formats_parse(const char *list, unsigned *set, char *bad, size_t len)
{
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", list);
	*set &= RF_TERSE_VERSION_MASK;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct report_format *rf = format_find(tok);

		if (!rf) {
			snprintf(bad, len, "%s", tok);
			return -EINVAL;
		}
		*set |= rf->bits;
	}
	if (!(*set & ~RF_TERSE_VERSION_MASK)) {
		snprintf(bad, len, "%s", list);
		return -ENODATA;
	}
	return 0;
}

int report_formats_set_terse(unsigned *set, const char *version)
{
	/* one digit and nothing else, where fio's atoi() takes "4x" as 4 */
	if (!version || !version[0] || version[1] || version[0] < '0' + RF_TERSE_VERSION_MIN ||
	    version[0] > '0' + RF_TERSE_VERSION_MAX)
		return -EINVAL;
	*set = (*set & ~RF_TERSE_VERSION_MASK) |
	       ((unsigned)(version[0] - '0') << RF_TERSE_VERSION_SHIFT);
	return 0;
}

unsigned report_formats_terse_version(unsigned set)
{
	unsigned v = (set & RF_TERSE_VERSION_MASK) >> RF_TERSE_VERSION_SHIFT;

	return v ? v : RF_TERSE_VERSION_DEFAULT;
}

void report_formats_render(FILE *f, const struct report *r, unsigned set)
{
	size_t n = 0;

	while (report_formats[n].name)
		n++;
	for (unsigned rank = 0; rank < n; rank++)
		for (const struct report_format *rf = report_formats; rf->name; rf++)
			if (rf->render && rf->rank == rank && (set & rf->bits))
				rf->render(f, r, set);
}

void report_formats_names(char *buf, size_t len, const char *sep, const char *last)
{
	size_t at = 0;

	buf[0] = '\0';
	for (const struct report_format *rf = report_formats; rf->name && at < len; rf++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       rf == report_formats ? "" : rf[1].name ? sep : last,
				       rf->name);
}

const char *report_format_at(unsigned i, const char **help)
{
	for (const struct report_format *rf = report_formats; rf->name; rf++, i--) {
		if (!i) {
			*help = rf->help;
			return rf->name;
		}
	}
	return NULL;
}
