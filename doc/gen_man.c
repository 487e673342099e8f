/*
 * Build-time generator of iojob(1): copies the scdoc template to stdout with the switch,
 * engine and job option references filled in from the tables the parser uses.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "jobs/help.h"

int main(int argc, char **argv)
{
	struct engine_info engines[IOENGINE_MAX];
	unsigned nengines;
	FILE *in;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_man TEMPLATE.scd > PAGE.scd\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		fprintf(stderr, "gen_man: '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	nengines = engine_catalog(engines, IOENGINE_MAX);
	ret = help_man_page(stdout, in, engines, nengines);
	fclose(in);
	if (ret < 0) {
		fprintf(stderr, "gen_man: '%s': %s\n", argv[1], strerror(-ret));
		return 1;
	}
	return 0;
}
