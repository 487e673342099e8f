/*
 * The JSON emitter: layout as fio's, strings escaped (bytes that are not UTF-8 as U+FFFD),
 * non-finite floats written as 0 so the document stays valid.
 */
#include "output/json_writer.h"

#include <math.h>

#include "output/text.h"

/*
 * One character that needs no short escape; returns the bytes it took. A byte that is not
 * UTF-8 becomes U+FFFD, as a decoder would show it: the document stays valid.
 */
static size_t put_char(FILE *f, const unsigned char *p)
{
	size_t n = text_utf8_len((const char *)p);

	if (!n)
		fputs("\\ufffd", f);
	else if (*p < 0x20)
		fprintf(f, "\\u%04x", *p);
	else
		fwrite(p, 1, n, f);
	return n ? n : 1;
}

void json_string_to(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			p += put_char(f, p) - 1;
		}
	}
	fputc('"', f);
}

/* Start a member: the separator, the indent and the key. */
static void member(struct json_out *j, const char *key)
{
	if (j->compact) {
		fputs(j->first ? "" : ", ", j->f);
	} else {
		fputs(j->first ? "\n" : ",\n", j->f);
		fprintf(j->f, "%*s", (int)(2 * j->depth), "");
	}
	if (key) {
		json_string_to(j->f, key);
		fputs(" : ", j->f);
	}
	j->first = false;
}

void json_begin(struct json_out *j, FILE *f)
{
	j->f = f;
	j->depth = 1;
	j->first = true;
	j->compact = false;
	fputc('{', f);
}

void json_begin_compact(struct json_out *j, FILE *f)
{
	json_begin(j, f);
	j->compact = true;
}

void json_end(struct json_out *j)
{
	fputs(j->compact ? "}" : "\n}\n", j->f);
}

void json_open(struct json_out *j, const char *key, char bracket)
{
	member(j, key);
	fputc(bracket, j->f);
	j->depth++;
	j->first = true;
}

void json_close(struct json_out *j, char bracket)
{
	j->depth--;
	if (j->compact)
		fputc(bracket, j->f);
	else
		fprintf(j->f, "\n%*s%c", (int)(2 * j->depth), "", bracket);
	j->first = false;
}

void json_uint(struct json_out *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_int(struct json_out *j, const char *key, long long v)
{
	member(j, key);
	fprintf(j->f, "%lld", v);
}

void json_float(struct json_out *j, const char *key, double v)
{
	member(j, key);
	fprintf(j->f, "%f", isfinite(v) ? v : 0.0);
}

void json_str(struct json_out *j, const char *key, const char *s)
{
	member(j, key);
	json_string_to(j->f, s);
}
