/* The subcommands' table: each one's name, entry point and the files it reads. */
#include "output/resultset/commands.h"

#include <string.h>

const struct command commands[] = {
	{ "report", report_main, "*.jsonl|*.log" },
	{ "compare", compare_main, "*.jsonl" },
	{ NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

void commands_complete(FILE *f)
{
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "%s\n", c->name);
}
