/*
 * The report formats --output-format names (normal, json, json+, terse), one table of
 * name, bits, renderer and help. Parsing the switch, printing the report, the switch's
 * help and the values bash completion offers all read it: a new format is its renderer's
 * file (output/report_NAME.c, in output/meson.build) and one entry in
 * output/report_formats.c, and touches no header (RF_BIT, REPORT_RENDERER).
 */
#ifndef OUTPUT_REPORT_FORMATS_H
#define OUTPUT_REPORT_FORMATS_H

#include <stddef.h>
#include <stdio.h>

struct report;

/*
 * A set of formats to print, as bits: each format of the table has one of its own,
 * RF_BIT(n) with n below RF_TERSE_VERSION_SHIFT (a new one takes the next free n), and
 * json+ adds one to json's. The command line names a few (--minimal, --append-terse).
 */
#define RF_BIT(n)	(1u << (n))

enum report_format_bit {
	RF_NORMAL = RF_BIT(0),
	RF_JSON = RF_BIT(1),
	RF_JSON_PLUS = RF_BIT(2),	/* with RF_JSON: the document has its bins */
	RF_TERSE = RF_BIT(3),
};

/*
 * --terse-version rides in a set, in these bits (0: fio's default, 3), so that it holds
 * whatever --minimal or --output-format say before or after it, as in fio.
 */
#define RF_TERSE_VERSION_SHIFT	8
#define RF_TERSE_VERSION_MASK	(0xfu << RF_TERSE_VERSION_SHIFT)
#define RF_TERSE_VERSION_MIN	2
#define RF_TERSE_VERSION_MAX	5
#define RF_TERSE_VERSION_DEFAULT	3

/*
 * A renderer: prints r in the set's flavour of its format. Its file declares it with this
 * line before defining it, and report_formats.c declares it again above the table.
 */
#define REPORT_RENDERER(fn)	void fn(FILE *f, const struct report *r, unsigned set)

struct report_format {
	const char *name;
	unsigned bits;		/* what naming it adds to the set */
	/* Prints the report in the set's flavour of this format; NULL: another's renders it. */
	void (*render)(FILE *f, const struct report *r, unsigned set);
	unsigned rank;		/* where it prints: fio's order, terse then json then normal */
	const char *help;
};

/* In the order help lists them, ended by { NULL }. */
extern const struct report_format report_formats[];

/*
 * A comma-separated list of names ("json,terse") into *set, in place of the formats it
 * held (its terse version stays). Returns 0, -EINVAL with the first unknown name in bad,
 * or -ENODATA for a list of none (the list in bad).
 */
int report_formats_parse(const char *list, unsigned *set, char *bad, size_t len);

/* --terse-version's value ("2" to "5") into *set. Returns 0, or -EINVAL for another. */
int report_formats_set_terse(unsigned *set, const char *version);

/* The terse version of a set: the one it holds, else fio's default. */
unsigned report_formats_terse_version(unsigned set);

/* Print r in every format of set, each once, in fio's order whatever the order asked. */
void report_formats_render(FILE *f, const struct report *r, unsigned set);

/* The names joined by sep, the last by last ("normal, json, json+ or terse"). */
void report_formats_names(char *buf, size_t len, const char *sep, const char *last);

/* The i-th format's name (its help in *help), NULL past the last: for help and completion. */
const char *report_format_at(unsigned i, const char **help);

#endif
