/* The man page's references to the job options and the engines, in scdoc, from the tables. */
#include "jobs/help.h"

#include <string.h>

#include "jobs/options.h"

/* Headings of the job option reference, each above the first option of its topic. */
static const struct {
	const char *first;
	const char *title;
} topics[] = {
	{ "name", "Identity" },
	{ "filename", "Files and devices" },
	{ "rw", "Access pattern" },
	{ "ioengine", "Engine, depth and synchronisation" },
	{ "runtime", "Time and rate" },
	{ "numjobs", "Jobs and groups" },
	{ "zero_buffers", "Write buffers" },
	{ "kb_base", "Reporting" },
	{ "verify", "Data verification" },
	{ "write_lat_log", "Log files" },
};

void help_man_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '*' || *s == '_' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void put_option(FILE *f, const struct opt_def *o)
{
	char desc[512];
	const char *type = desc;

	opt_describe(o, desc, sizeof(desc));
	if (o->type == OPT_ENUM && !strncmp(type, "one of ", 7))
		type += 7;
	/* a list longer than a line cannot be broken by troff: the values follow anyway */
	if (o->type == OPT_ENUM && strlen(type) > 60)
		type = "one of the values below";
	fputc('*', f);
	help_man_text(f, o->name);
	fprintf(f, "*=_");
	help_man_text(f, type);
	fputc('_', f);
	if (o->def) {
		fprintf(f, " (default: *");
		help_man_text(f, o->def);
		fprintf(f, "*)");
	}
	fprintf(f, "\n\t");
	help_man_text(f, o->help);
	fputc('.', f);
	if (o->alias) {
		fprintf(f, " Also spelled *");
		help_man_text(f, o->alias);
		fprintf(f, "*.");
	}
	if (o->engine)
		fprintf(f, " Only with *ioengine=%s*.", o->engine);
	fprintf(f, "\n\n");
	if (!o->vals)
		return;
	for (unsigned i = 0; o->vals[i].name; i++) {
		char names[128];

		if (!help_value_names(o->vals, i, names, sizeof(names)))
			continue;
		fprintf(f, "\t- *");
		help_man_text(f, names);
		fprintf(f, "*: ");
		help_man_text(f, o->vals[i].help);
		fputc('\n', f);
	}
	fputc('\n', f);
}

void help_man_engines(FILE *f, const struct engine_info *engines, unsigned nengines)
{
	for (unsigned e = 0; e < nengines; e++) {
		const struct engine_info *ei = &engines[e];

		fprintf(f, "*%s*\n\t", ei->name);
		help_man_text(f, ei->available ? ei->help : ei->why_missing);
		fprintf(f, ".");
		for (const struct opt_def *o = ei->options; o && o->name; o++) {
			fprintf(f, "%s*", o == ei->options ? " Its own options: " : ", ");
			help_man_text(f, o->name);
			fprintf(f, "*%s", o[1].name ? "" : " (under JOB OPTIONS).");
		}
		fprintf(f, "\n\n");
	}
}

void help_man_job_options(FILE *f, const struct engine_info *engines, unsigned nengines)
{
	size_t t = 0;

	for (const struct opt_def *o = job_options; o->name; o++) {
		if (t < sizeof(topics) / sizeof(topics[0]) && !strcmp(o->name, topics[t].first))
			fprintf(f, "## %s\n\n", topics[t++].title);
		put_option(f, o);
	}
	for (unsigned e = 0; e < nengines; e++) {
		if (!engines[e].options || !engines[e].options->name)
			continue;
		fprintf(f, "## Options of the %s engine\n\n", engines[e].name);
		for (const struct opt_def *o = engines[e].options; o->name; o++)
			put_option(f, o);
	}
}
