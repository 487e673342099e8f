/* Diagnostics: formatting of error messages (long names shortened) and collected notes. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

/* A name kept whole is at most this long; a longer one keeps its two ends. */
#define NAME_KEEP	48

/*
 * The longest span of s to shorten: a quoted 'name', or the first head_len bytes (the
 * file of "file:line: "). Returns its length, 0 when none is longer than NAME_KEEP.
 */
static size_t longest_name(const char *s, size_t head_len, const char **at)
{
	size_t best = head_len > NAME_KEEP ? head_len : 0;
	const char *p, *q;

	*at = s;
	for (p = strchr(s, '\''); p && (q = strchr(p + 1, '\'')); p = strchr(q + 1, '\'')) {
		if ((size_t)(q - p - 1) > best && (size_t)(q - p - 1) > NAME_KEEP) {
			best = (size_t)(q - p - 1);
			*at = p + 1;
		}
	}
	return best;
}

/*
 * Copy text into out (size bytes). Too long a text loses the middle of its longest names,
 * one after the other ("job 'abc...xyz': ..."), so that the reason, which follows them,
 * stays whole; only a text long without names is cut at its end.
 */
static void fit(char *out, size_t size, char *text, size_t head_len)
{
	size_t len = strlen(text), span, cut;
	const char *at;

	while (len >= size && (span = longest_name(text, head_len, &at)) > 0) {
		char *mid = (char *)at + NAME_KEEP / 2;

		cut = len - size + 1;
		if (cut > span - NAME_KEEP)
			cut = span - NAME_KEEP;
		memcpy(mid, "...", 3);
		memmove(mid + 3, mid + 3 + cut, strlen(mid + 3 + cut) + 1);
		len -= cut;
		if (at == text)
			head_len -= cut;
	}
	snprintf(out, size, "%s", text);
}

/* head ("file:line: " or ""), then the message; the file's name is file_len bytes. */
static void set_msg(struct diag *d, const char *head, size_t file_len, const char *fmt,
		    va_list ap)
{
	char *body, *text;

	if (vasprintf(&body, fmt, ap) < 0) {
		snprintf(d->msg, sizeof(d->msg), "%s(no memory for the message)", head);
		return;
	}
	if (asprintf(&text, "%s%s", head, body) < 0) {
		snprintf(d->msg, sizeof(d->msg), "%s%s", head, body);
		text = NULL;
	} else {
		fit(d->msg, sizeof(d->msg), text, file_len);
	}
	free(text);
	free(body);
}

void diag_format(char *buf, size_t size, const char *fmt, ...)
{
	char *text;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		snprintf(buf, size, "%s", fmt);
		return;
	}
	fit(buf, size, text, 0);
	free(text);
}

int diag_set(struct diag *d, int err, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return err;
	va_start(ap, fmt);
	set_msg(d, "", 0, fmt, ap);
	va_end(ap);
	return err;
}

int diag_at(struct diag *d, int err, const char *file, int line, const char *fmt, ...)
{
	char *head;
	va_list ap;
	int n;

	if (!d)
		return err;
	if (line > 0)
		n = asprintf(&head, "%s:%d: ", file, line);
	else
		n = asprintf(&head, "%s: ", file);
	va_start(ap, fmt);
	if (n < 0)
		set_msg(d, "", 0, fmt, ap);
	else
		set_msg(d, head, strlen(file), fmt, ap);
	va_end(ap);
	if (n >= 0)
		free(head);
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
	if (grow_reserve(&d->notes, &d->notes_cap, d->notes_len + len + 2, 1) < 0)
		return;
	p = d->notes + d->notes_len;
	memcpy(p, line, len);
	p[len] = '\n';
	p[len + 1] = '\0';
	d->notes_len += len + 1;
}

void diag_clear(struct diag *d)
{
	free(d->notes);
	d->notes = NULL;
	d->notes_len = d->notes_cap = 0;
	d->msg[0] = '\0';
}
