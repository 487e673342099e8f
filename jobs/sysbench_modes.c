/* sysbench fileio's semantics, brought by its mode names unless the job says otherwise. */
#include "jobs/sysbench_modes.h"

#include <string.h>
#include <strings.h>

/* The value the job gave an option (the last one wins, as it did when parsed), or NULL. */
static const char *setting(const struct job_desc *j, const char *name)
{
	const char *v = NULL;

	for (unsigned i = 0; i < j->nsettings; i++)
		if (!strcmp(j->settings[i].name, name))
			v = j->settings[i].value;
	return v;
}

static bool mode_is(const char *rw, const char *mode)
{
	size_t n = strlen(mode);

	return !strncasecmp(rw, mode, n) && (rw[n] == '\0' || rw[n] == ':');
}

/*
 * sysbench's sequential modes take each block from one cursor over the file set, shared by
 * every thread, for one pass; seqwr first unlinks and recreates its files, so its writes
 * append; rndrw holds reads:writes at --file-rw-ratio's 1.5 (60% reads) by interleaving;
 * and its fsync-freq syncs every file. Each is an ordinary option: a job that sets one
 * keeps its own value, and one that verifies keeps fio's defaults (neither a shared cursor
 * nor emptied files can be verified).
 *
 * sysbench's --file-io-mode is the engine, which these defaults leave alone: sync is
 * ioengine=psync (pread/pwrite), async is libaio (iodepth for --file-async-backlog), and
 * mmap is ioengine=mmap: each file mapped whole, memcpy in and out, and each file's sync an
 * msync of its mapping, fsync-freq's of every file too. seqwr's emptied files are sized
 * for the mapping by the engine (sysbench's own mmap mode cannot write them).
 */
static bool seq_mode(const char *rw)
{
	return mode_is(rw, "seqwr") || mode_is(rw, "seqrewr") || mode_is(rw, "seqrd");
}

bool sysbench_mode_named(const struct job_desc *j)
{
	const char *rw = setting(j, "rw");

	return rw && (seq_mode(rw) || mode_is(rw, "rndrd") || mode_is(rw, "rndwr") ||
		      mode_is(rw, "rndrw"));
}

void sysbench_mode_defaults(struct job_desc *j)
{
	const char *rw = setting(j, "rw");
	bool seq, verifies = j->verify != VERIFY_NONE;

	if (!sysbench_mode_named(j))
		return;
	seq = seq_mode(rw);
	if (seq && !verifies && !setting(j, "seq_cursor"))
		j->seq_cursor_shared = 1;
	if (mode_is(rw, "seqwr") && !verifies && !setting(j, "create"))
		j->create = CREATE_RECREATE;
	if (mode_is(rw, "rndrw") && !setting(j, "rwmix_mode"))
		j->rwmix_ratio = 1;
	if (mode_is(rw, "rndrw") && !setting(j, "rwmixread") && !setting(j, "rwmixwrite"))
		j->rwmixread = 60;
	if (!setting(j, "fsync_scope"))
		j->fsync_scope = FSYNC_SCOPE_ALL;
}
