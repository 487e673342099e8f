/* The ioengines built into this binary, and every engine the job layer should know of. */
#include "engine/ioengine.h"

#include <string.h>

#include "config.h"
#include "base/units.h"

extern const struct ioengine_ops psync_engine;
extern const struct ioengine_ops sync_engine;
extern const struct ioengine_ops null_engine;
#if HAVE_LIBAIO
extern const struct ioengine_ops libaio_engine;
#endif
#if HAVE_LIBURING
extern const struct ioengine_ops uring_engine;
#endif

static const struct ioengine_ops *const engines[] = {
	&psync_engine,
	&sync_engine,
#if HAVE_LIBAIO
	&libaio_engine,
#endif
#if HAVE_LIBURING
	&uring_engine,
#endif
	&null_engine,
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
	{ NULL },
};

const struct ioengine_ops *ioengine_find(const char *name)
{
	for (unsigned i = 0; i < NENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

unsigned ioengine_catalog(struct engine_info *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NENGINES && n < max; i++, n++) {
		const struct ioengine_ops *o = engines[i];

		out[n] = (struct engine_info){
			.name = o->name,
			.help = o->help,
			.available = true,
			.sync = o->flags & IOENG_SYNC,
			.can_trim = o->flags & IOENG_TRIM,
			.cheap_submit = o->flags & IOENG_CHEAP_SUBMIT,
			.no_data = o->flags & IOENG_NOFILES,
			.options = o->options,
			.options_size = o->options_size,
		};
	}
	for (unsigned i = 0; missing[i].name && n < max; i++)
		out[n++] = missing[i];
	return n;
}
