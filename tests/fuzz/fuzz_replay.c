/*
 * libFuzzer target for the logs read_iolog reads: the input is the log (an iolog of
 * version 2 or 3, or a blktrace, told apart by its first bytes as iojob tells them),
 * loaded by replay_load() as a job that replays it onto /dev/null would (replay_redirect,
 * so that no trace sends it looking through /dev). Besides the sanitizers, it checks that
 * a failure leaves one line of message and that a log loaded is sound: every entry on a
 * file the log named, of a known kind, with the job's block sizes covering it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobs/options.h"
#include "jobs/replay_log.h"
#include "base/arena.h"
#include "base/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct engine_info psync = { .name = "psync", .available = true,
					   .flags = ENGINE_SYNC | ENGINE_TRIM };

static void check_log(const struct job_desc *j)
{
	const struct replay_log *log = j->replay;

	if (!log || !log->nfiles || j->filenames.n != log->nfiles)
		abort();
	for (size_t i = 0; i < log->nentries; i++) {
		const struct replay_entry *e = &log->entries[i];

		if (e->file >= log->nfiles || e->act >= REPLAY_NACTS)
			abort();
		if (e->act <= IO_TRIM && (!e->len || e->len > j->bs[e->act].max))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	char *logv[1] = { path };
	struct arena *arena = NULL;
	struct diag d = { 0 };
	struct job_desc j;
	FILE *f;
	int ret;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/iojob-fuzz-replay-%d.log", (int)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	memset(&j, 0, sizeof(j));
	j.name = "fuzz";
	j.file = "fuzz.fio";
	j.line = 1;
	j.replay_time_scale = 1 + (size % 300);	/* a scale that varies with the input */
	j.replay_scale = (unsigned)(size % 3);
	j.replay_redirect = size % 2 ? "/dev/null" : NULL;
	j.read_iolog.v = logv;
	j.read_iolog.n = 1;
	if (!j.replay_redirect && size >= 4 && (!memcmp(data, "\x07\x74\x61\x65", 4) ||
						 !memcmp(data, "\x65\x61\x74\x07", 4)))
		j.replay_redirect = "/dev/null";	/* a blktrace: no search of /dev */
	ret = replay_load(&j, &psync, &arena, &d);
	if (ret == 0)
		check_log(&j);
	else if (!d.msg[0] || strchr(d.msg, '\n'))
		abort();
	diag_clear(&d);
	arena_free(&arena);
	unlink(path);
	return 0;
}
