/* Command-line options read, described and completed from their table (argopt.h). */
#include "base/argopt.h"

#include <errno.h>
#include <string.h>

const struct argopt *argopt_find(const struct argopt *table, const char *name)
{
	for (const struct argopt *o = table; o->name; o++)
		if (!strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name)))
			return o;
	return NULL;
}

/* The entry key names, by name or by alias as the style and the dashes allow. */
static const struct argopt *lookup(const struct argopt *table, enum argopt_style s,
				   bool two_dashes, const char *key)
{
	if (s == ARGOPT_LONG_ONLY)
		return argopt_find(table, key);
	for (const struct argopt *o = table; o->name; o++)
		if (two_dashes ? !strcmp(o->name, key) : o->alias && !strcmp(o->alias, key))
			return o;
	return NULL;
}

int argopt_read(const struct argopt *table, enum argopt_style s, int argc, char **argv,
		int *i, struct argopt_got *got)
{
	const char *arg = argv[*i], *eq;
	bool two_dashes = arg[1] == '-';

	arg += two_dashes ? 2 : 1;
	eq = strchr(arg, '=');
	snprintf(got->key, sizeof(got->key), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg),
		 arg);
	got->val = eq ? eq + 1 : NULL;
	got->opt = lookup(table, s, two_dashes, got->key);
	if (!got->opt)
		return -ENOENT;
	if (got->opt->refuse)
		return -EPERM;
	if (got->opt->arg != ARGOPT_REQUIRED)
		return 0;
	if (!eq && *i + 1 < argc)
		got->val = argv[++*i];
	return got->val ? 0 : -EINVAL;
}

int argopt_store(const struct argopt *o, void *args, const char *val)
{
	struct argopt_kv *kv = (struct argopt_kv *)((char *)args + o->off);

	if (!o->kv) {
		*(const char **)((char *)args + o->off) = val;
		return 0;
	}
	if (!strchr(val, '='))
		return -EINVAL;
	if (kv->n == ARGOPT_MAX_KV)
		return -ENOSPC;
	kv->kv[kv->n++] = val;
	return 0;
}

const char *argopt_help(const struct argopt *o, char *buf, size_t len)
{
	const char *name, *help;
	size_t at = 0;

	if (o->describe) {
		o->describe(buf, len);
		return buf;
	}
	if (!o->value_at)
		return o->help;
	for (unsigned i = 0; (name = o->value_at(i, &help)) && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", !i ? "" :
				       o->value_at(i + 1, &help) ? ", " : " or ", name);
	if (at < len)
		snprintf(buf + at, len - at, "; %s", o->help);
	return buf;
}

const char *argopt_value_sep(const struct argopt_page *p, const struct argopt *o)
{
	if (!o->metavar)
		return "";
	if (o->arg != ARGOPT_REQUIRED)
		return "=";	/* an optional value is only ever read after '=' */
	/* "--set KEY=VALUE" reads better than "--set=KEY=VALUE" */
	return !p->eq || strchr(o->metavar, '=') ? " " : "=";
}

void argopt_wrap(FILE *f, unsigned col, unsigned indent, unsigned width, const char *text)
{
	do {
		/* from a column within 20 of the width: 20 all the same, not a word a line */
		size_t len = strlen(text), room = col + 20 < width ? width - col : 20;
		size_t n = len;

		if (len > room) {
			for (n = room; n && text[n] != ' '; n--)
				;
			if (!n)		/* one word longer than the room: let it overflow */
				n = strcspn(text, " ");
		}
		fprintf(f, "%.*s\n", (int)n, text);
		text += strspn(text + n, " ") + n;
		if (*text)
			fprintf(f, "%*s", (int)indent, "");
		col = indent;
	} while (*text);
}

void argopt_entry(FILE *f, const struct argopt_page *p, const char *lead, const char *help)
{
	int n = fprintf(f, "%s", lead);

	if (n < 0)
		return;
	if ((unsigned)n + p->gap > p->indent) {
		fputc('\n', f);
		n = 0;
	}
	fprintf(f, "%*s", (int)p->indent - n, "");
	argopt_wrap(f, p->indent, p->indent, p->width, help);
}

void argopt_usage(FILE *f, const struct argopt *table, const struct argopt_page *p)
{
	char lead[128], help[1024];

	for (const struct argopt *o = table; o->name; o++) {
		bool optional = o->arg == ARGOPT_OPTIONAL;

		if (o->hidden || o->refuse)
			continue;
		snprintf(lead, sizeof(lead), "  %s%s%s--%s%s%s%s%s", o->alias ? "-" : "",
			 o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
			 optional ? "[" : "", argopt_value_sep(p, o),
			 o->metavar ? o->metavar : "", optional ? "]" : "");
		argopt_entry(f, p, lead, argopt_help(o, help, sizeof(help)));
	}
}

void argopt_complete_options(FILE *f, const struct argopt *table)
{
	for (const struct argopt *o = table; o->name; o++) {
		if (o->hidden || o->refuse)
			continue;
		if (o->arg != ARGOPT_REQUIRED)
			fprintf(f, "--%s\n", o->name);
		if (o->arg != ARGOPT_NONE)
			fprintf(f, "--%s=%s\n", o->name,
				o->arg == ARGOPT_REQUIRED ? "\tseparate" : "");
	}
}

void argopt_complete_values(FILE *f, const struct argopt *o)
{
	const char *name, *help;

	for (const char *p = o->values; p && *p; p += strcspn(p, "|"), p += *p == '|')
		fprintf(f, "%.*s\n", (int)strcspn(p, "|"), p);
	for (unsigned i = 0; o->value_at && (name = o->value_at(i, &help)); i++)
		fprintf(f, "%s\n", name);
	if (o->list)
		o->list(f);
}
