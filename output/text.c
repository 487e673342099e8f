/* User text checked for UTF-8 and escaped for the normal report, the terminal and terse. */
#include "output/text.h"

#include <stdbool.h>

static bool is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t text_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	/* the second byte's range excludes overlong forms, surrogates and > U+10FFFF */
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	n = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (!is_cont(p[i]))
			return 0;	/* a NUL ends the check here too */
	return n;
}

void text_put_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = text_utf8_len((const char *)p);

		if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\r')
			fputs("\\r", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (!n || *p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
			fprintf(f, "\\u%04x", p[1]);	/* C1 controls: a terminal's CSI */
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
}

void text_put_terse(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fputc(*p == ';' || *p < 0x20 || *p == 0x7f ? '_' : *p, f);
}
