/* Diagnostics: formatting of error messages and collected notes. */
#include "parser/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int diag_set(struct diag *d, int err, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return err;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	return err;
}

int diag_at(struct diag *d, int err, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!d)
		return err;
	if (line > 0)
		n = snprintf(d->msg, sizeof(d->msg), "%s:%d: ", file, line);
	else
		n = snprintf(d->msg, sizeof(d->msg), "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof(d->msg))
		return err;
	va_start(ap, fmt);
	vsnprintf(d->msg + n, sizeof(d->msg) - n, fmt, ap);
	va_end(ap);
	return err;
}

void diag_note(struct diag *d, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	size_t len;
	char *p;
	int n;

	if (!d)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	len = strlen(line);
	p = realloc(d->notes, d->notes_len + len + 2);
	if (!p)
		return;
	memcpy(p + d->notes_len, line, len);
	p[d->notes_len + len] = '\n';
	p[d->notes_len + len + 1] = '\0';
	d->notes = p;
	d->notes_len += len + 1;
}

void diag_clear(struct diag *d)
{
	free(d->notes);
	d->notes = NULL;
	d->notes_len = 0;
	d->msg[0] = '\0';
}
