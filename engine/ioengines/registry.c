/*
 * The ioengines built into this binary, the check that the loop can drive each, and every
 * engine the job layer should know of.
 */
#include "engine/ioengine.h"

#include <string.h>

#include "config.h"
#include "base/units.h"

extern const struct ioengine_ops psync_engine;
extern const struct ioengine_ops sync_engine;
extern const struct ioengine_ops vsync_engine;
extern const struct ioengine_ops pvsync_engine;
extern const struct ioengine_ops pvsync2_engine;
extern const struct ioengine_ops mmap_engine;
extern const struct ioengine_ops splice_engine;
extern const struct ioengine_ops null_engine;
extern const struct ioengine_ops cpp_null_engine;
extern const struct ioengine_ops page_fault_engine;
extern const struct ioengine_ops posixaio_engine;
extern const struct ioengine_ops filecreate_engine;
extern const struct ioengine_ops filestat_engine;
extern const struct ioengine_ops filedelete_engine;
extern const struct ioengine_ops dircreate_engine;
extern const struct ioengine_ops dirstat_engine;
extern const struct ioengine_ops dirdelete_engine;
extern const struct ioengine_ops falloc_engine;
extern const struct ioengine_ops ftruncate_engine;
extern const struct ioengine_ops cpuio_engine;
extern const struct ioengine_ops e4defrag_engine;
extern const struct ioengine_ops exec_engine;
extern const struct ioengine_ops net_engine;
extern const struct ioengine_ops sg_engine;
#if HAVE_LIBAIO
extern const struct ioengine_ops libaio_engine;
#endif
#if HAVE_LIBURING
extern const struct ioengine_ops uring_engine;
#endif

static const struct ioengine_ops *const engines[] = {
	&psync_engine,
	&sync_engine,
	&vsync_engine,
	&pvsync_engine,
	&pvsync2_engine,
	&mmap_engine,
	&splice_engine,
	&posixaio_engine,
#if HAVE_LIBAIO
	&libaio_engine,
#endif
#if HAVE_LIBURING
	&uring_engine,
#endif
	&null_engine,
	&cpp_null_engine,
	&page_fault_engine,
	&filecreate_engine,
	&filestat_engine,
	&filedelete_engine,
	&dircreate_engine,
	&dirstat_engine,
	&dirdelete_engine,
	&falloc_engine,
	&ftruncate_engine,
	&cpuio_engine,
	&net_engine,
	&e4defrag_engine,
	&exec_engine,
	&sg_engine,
};

#define NENGINES ARRAY_SIZE(engines)

/* Engines this build lacks, so that a job naming one is told why rather than "unknown". */
static const struct engine_info missing[] = {
#if !HAVE_LIBAIO
	{ .name = "libaio", .why_missing = "built without libaio (apt-get install libaio-dev, "
	  "then rebuild)" },
#endif
#if !HAVE_LIBURING
	{ .name = "io_uring", .why_missing = "built without liburing (apt-get install "
	  "liburing-dev, then rebuild)" },
#endif
	/*
	 * fio's engine for a device this project has none of: no test could check it here,
	 * so it is named, with why, rather than built untested. The words "built without"
	 * are what --enghelp's readers (the docs and completion tests) look for.
	 */
	{ .name = "io_uring_cmd", .why_missing = "built without io_uring_cmd: it is NVMe "
	  "passthrough on a /dev/ngXnY character device, and this project has no NVMe "
	  "device to test it on" },
	{ NULL },
};

/* Whether every option of o is marked as o's: the job layer finds an option's engine so. */
static bool options_are_own(const struct ioengine_ops *o)
{
	if (!o->options)
		return !o->options_size;
	if (!o->options_size)
		return false;
	for (const struct opt_def *d = o->options; d->name; d++)
		if (!d->engine || strcmp(d->engine, o->name))
			return false;
	return true;
}

const char *ioengine_check_ops(const struct ioengine_ops *o)
{
	bool sync = o->flags & IOENG_SYNC;
	bool async_hooks = o->submit || o->getevents || o->event;

	if (!o->name || !o->name[0])
		return "it has no name";
	if (!o->queue)
		return "it has no queue()";
	if (o->flags & ~IOENG_FLAGS)
		return "it sets flags this build does not know";
	if (!sync && (!o->submit || !o->getevents || !o->event))
		return "its queue() may return IOQ_QUEUED, but submit(), getevents() or event() "
		       "is missing";
	if (sync && async_hooks)
		return "it is synchronous, so submit(), getevents() and event() would never run";
	if (sync && (o->flags & (IOENG_INLINE_QD1 | IOENG_CHEAP_SUBMIT | IOENG_BATCHES |
				 IOENG_DEPTH_NEEDS_DIRECT)))
		return "it is synchronous, but its flags describe queueing";
	if ((o->flags & IOENG_NOFILES) && (o->open_files || o->close_files ||
					   (o->flags & IOENG_POSITIONAL)))
		return "it does no I/O on files, but its hooks or flags handle files";
	if ((o->flags & IOENG_NAMES) && (o->open_files || o->close_files ||
					 (o->flags & (IOENG_POSITIONAL | IOENG_NOFILES))))
		return "it works on file names, but its hooks or flags handle open files";
	if (o->probe_file && (o->flags & (IOENG_NOFILES | IOENG_NAMES)))
		return "it probes files, but the runner opens none for it";
	if ((o->flags & IOENG_MAKES_FILES) && !(o->flags & IOENG_NAMES))
		return "it makes its own files, but the runner would open them";
	if (!options_are_own(o))
		return "its options are not all marked as its own, or have no size";
	return NULL;
}

const struct ioengine_ops *ioengine_builtin(unsigned i)
{
	return i < NENGINES ? engines[i] : NULL;
}

const struct ioengine_ops *ioengine_find(const char *name)
{
	for (unsigned i = 0; i < NENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return ioengine_check_ops(engines[i]) ? NULL : engines[i];
	return NULL;
}

struct engine_info ioengine_describe(const struct ioengine_ops *o)
{
	const char *refused = ioengine_check_ops(o);

	return (struct engine_info){
		.name = o->name,
		.help = o->help,
		.available = !refused,
		.why_missing = refused,
		.flags = o->flags & ENGINE_FLAGS,
		.options = o->options,
		.options_size = o->options_size,
	};
}

unsigned ioengine_catalog(struct engine_info *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NENGINES && n < max; i++)
		out[n++] = ioengine_describe(engines[i]);
	for (unsigned i = 0; missing[i].name && n < max; i++)
		out[n++] = missing[i];
	return n;
}
