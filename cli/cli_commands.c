/* The subcommands' table: each one's name, entry point and the files it reads. */
#include "cli/cli_commands.h"

#include <string.h>

#include "output/resultset/commands.h"
#include "pts/pts.h"

const struct command commands[] = {
	{ "report", report_main, "*.jsonl|*.log" },
	{ "compare", compare_main, "*.jsonl" },
	{ "pts", pts_main, "*" },	/* its target is any block device or file */
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

int command_run(const struct command *c, int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--complete-files")) {
		for (const char *p = c->files; *p; p += strcspn(p, "|"), p += *p == '|')
			printf("%.*s\n", (int)strcspn(p, "|"), p);
		return 0;
	}
	return c->main(argc, argv);
}
