/* fio's iolog text, versions 2 and 3, read into replay entries one line at a time. */
#include "jobs/iolog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs/replay_log.h"
#include "base/grow.h"

/* fio's names of the I/O actions, indexed by replay_entry.act */
static const char *const act_names[] = {
	[IO_READ] = "read", [IO_WRITE] = "write", [IO_TRIM] = "trim",
	[REPLAY_FSYNC] = "sync", [REPLAY_FDATASYNC] = "datasync",
};

#define MAX_FIELDS	6

/* The next line without its newline, in s->line; false at the end of the log. */
static bool next_line(struct replay_stream *s, char *why, size_t whylen, int *err)
{
	size_t n;

	*err = 0;
	if (!fgets(s->line, sizeof(s->line), s->f))
		return false;
	s->where++;
	n = strlen(s->line);
	if (n && s->line[n - 1] == '\n') {
		s->line[--n] = '\0';
	} else if (!feof(s->f)) {
		snprintf(why, whylen, "line longer than %zu bytes", sizeof(s->line) - 2);
		*err = -EINVAL;
		return false;
	}
	if (n && s->line[n - 1] == '\r')
		s->line[--n] = '\0';
	return true;
}

int iolog_read_header(struct replay_stream *s, char *why, size_t whylen)
{
	int err;

	if (!next_line(s, why, whylen, &err)) {
		if (!err)
			snprintf(why, whylen, "empty: an iolog starts with the line '%s'",
				 IOLOG_V3_HEADER);
		return -EINVAL;
	}
	if (!strcmp(s->line, IOLOG_V3_HEADER)) {
		s->version = 3;
	} else if (!strcmp(s->line, IOLOG_V2_HEADER)) {
		s->version = 2;
	} else {
		/* fio 3.33 reads neither version 1 nor anything else */
		snprintf(why, whylen, "not an iolog: the first line is '%.80s', not '%s' or "
			 "'%s' (fio reads no version 1 log), and the file is no blktrace",
			 s->line, IOLOG_V3_HEADER, IOLOG_V2_HEADER);
		return -EINVAL;
	}
	return 0;
}

/* The fields of a line; strtok_r, as clones read their chunks on threads of their own. */
static int split(char *line, char **f)
{
	char *save = NULL;
	int n = 0;

	for (char *p = strtok_r(line, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		f[n++] = p;
	}
	return n;
}

static bool number(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && !errno;
}

static int bad(char *why, size_t whylen, const char *fmt, const char *arg)
{
	snprintf(why, whylen, fmt, arg);
	return -EINVAL;
}

/*
 * add, open or close: open and close must follow the file's add. 1 with *e a
 * REPLAY_REOPEN when a closed file opens again, else 0, or -errno.
 */
static int file_line(struct replay_stream *s, const char *name, const char *act,
		     struct replay_entry *e, char *why, size_t whylen)
{
	bool open = !strcmp(act, "open");
	int i, was;

	if (strcmp(act, "add") && !open && strcmp(act, "close"))
		return bad(why, whylen, "unknown file action '%s' (add, open or close)", act);
	i = replay_stream_file(s, name, 0, !strcmp(act, "add"));
	if (i == -1)
		return bad(why, whylen, "'%s' is opened or closed before a line adds it", name);
	if (i < 0 || !strcmp(act, "add"))
		return i < 0 ? i : 0;
	if (GROW_FOR(s->opened, s->opened_cap, i) < 0)
		return -ENOMEM;
	while (s->nopened <= (unsigned)i)
		s->opened[s->nopened++] = 0;
	was = s->opened[i];
	s->opened[i] = open ? 1 : 2;
	if (!open || was != 2)
		return 0;
	e->act = REPLAY_REOPEN;
	e->file = (uint32_t)i;
	e->off = 0;
	e->len = 0;
	e->line = s->where;
	return 1;
}

static int act_of(const char *act)
{
	for (int a = 0; a <= REPLAY_FDATASYNC; a++)
		if (!strcmp(act, act_names[a]))
			return a;
	return -1;
}

/*
 * An I/O action: 1 with *e filled, 0 when it issues nothing (a wait, a skipped
 * direction), or -EINVAL.
 */
static int action_line(struct replay_stream *s, char **f, struct replay_entry *e, char *why,
		       size_t whylen)
{
	const struct job_desc *j = s->j;
	uint64_t off, len;
	int a, fi;

	if (!number(f[2], &off) || !number(f[3], &len) || len > UINT32_MAX)
		return bad(why, whylen, "'%s ...': the offset and length are not numbers "
			   "(of bytes, the length below 4 GiB)", f[1]);
	if (!strcmp(f[1], "wait")) {
		if (s->version == 3)
			return bad(why, whylen, "%s: version 3 has no wait action (its "
				   "timestamps give the time)", f[1]);
		/* the HOWTO's wait: this many microseconds before what follows */
		if (!j->replay_no_stall)
			s->pending_us += off * 100 / j->replay_time_scale;
		return 0;
	}
	a = act_of(f[1]);
	if (a < 0)
		return bad(why, whylen, "unknown action '%s' (read, write, trim, sync, "
			   "datasync, wait, or add, open, close)", f[1]);
	fi = replay_stream_file(s, f[0], 0, false);
	if (fi < 0)
		return bad(why, whylen, "'%s' has I/O before a line adds it", f[0]);
	if (a <= IO_TRIM && !len)
		return bad(why, whylen, "%s of 0 bytes", f[1]);
	if (j->replay_skip & (1u << (a == REPLAY_FDATASYNC ? REPLAY_FSYNC : a)))
		return 0;
	e->act = (uint8_t)a;
	e->file = (uint32_t)fi;
	e->off = a <= IO_TRIM ? replay_offset(j, off) : 0;
	e->len = a <= IO_TRIM ? (uint32_t)len : 0;
	e->line = s->where;
	return 1;
}

int iolog_next(struct replay_stream *s, struct replay_entry *e, char *why, size_t whylen)
{
	const bool v3 = s->version == 3;
	char *f[MAX_FIELDS + 1], **rest;
	uint64_t delay = 0, t;
	int n, ret, err;

	while (next_line(s, why, whylen, &err)) {
		/* fio appends a job's log to the file: a second job's starts with the line */
		if (!strcmp(s->line, v3 ? IOLOG_V3_HEADER : IOLOG_V2_HEADER))
			continue;
		n = split(s->line, f);
		if (!n)
			continue;
		rest = f;
		if (v3) {
			if (!number(f[0], &t))
				return bad(why, whylen, "'%s' is not a timestamp (microseconds): a "
					   "version 3 line starts with one", f[0]);
			delay = replay_stream_delay(s, t);
			rest = f + 1;
			n--;
		}
		if (n == 2)
			ret = file_line(s, rest[0], rest[1], e, why, whylen);
		else if (n == 4)
			ret = action_line(s, rest, e, why, whylen);
		else
			return bad(why, whylen, "%s fields where a line has 'FILE ACTION' or "
				   "'FILE ACTION OFFSET LENGTH'", n > 4 ? "too many" :
				   n < 2 ? "too few" : "a wrong number of");
		if (ret < 0)
			return ret;
		/* fio sleeps a file action's time; a skipped I/O's is lost, as in fio */
		if (n == 2)
			s->pending_us += delay;
		if (ret == 0)
			continue;
		if (n == 2) {
			e->delay_us = 0;	/* a reopen: its time goes to the next I/O */
			return 1;
		}
		e->delay_us = s->pending_us + delay;
		s->pending_us = 0;
		return 1;
	}
	return err;
}
