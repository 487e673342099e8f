/*
 * Tests for the check of an engine's ops (ioengine_check_ops, engine/ioengines/registry.c):
 * every engine built in passes it and reaches the catalog with its flags, and hand-made ops
 * that the loop could not drive (an asynchronous queue() without getevents(), no name,
 * flags that contradict the hooks) are refused, and so left out of ioengine_find().
 */
#include "engine/ioengine.h"

#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine/engine.h"
#include "test_util.h"

static enum ioq_status fake_queue(struct ioengine *e, struct io_req *r)
{
	(void)e;
	(void)r;
	return IOQ_DONE;
}

static int fake_submit(struct ioengine *e)
{
	(void)e;
	return 0;
}

static int fake_getevents(struct ioengine *e, unsigned min, unsigned max)
{
	(void)e;
	(void)min;
	(void)max;
	return 0;
}

static struct io_req *fake_event(struct ioengine *e, unsigned i)
{
	(void)e;
	(void)i;
	return NULL;
}

static int fake_open_files(struct ioengine *e)
{
	(void)e;
	return 0;
}

struct fake_opts {
	bool knob;
};

static const struct opt_def fake_options[] = {
	ENGINE_BOOL("fake", struct fake_opts, "knob", knob, "0", "a knob"),
	{ NULL },
};

static const struct opt_def other_options[] = {
	ENGINE_BOOL("other", struct fake_opts, "knob", knob, "0", "another engine's knob"),
	{ NULL },
};

/* Pieces of ops, put together without overriding one another (-Woverride-init). */
#define NAMED		.name = "fake", .queue = fake_queue
#define SUBMIT		.submit = fake_submit
#define GETEVENTS	.getevents = fake_getevents
#define EVENT		.event = fake_event
#define SYNC_OPS	NAMED, .flags = IOENG_SYNC
#define ASYNC_OPS	NAMED, SUBMIT, GETEVENTS, EVENT

/* --- what the registry holds ------------------------------------------------------------ */

START_TEST(every_builtin_engine_passes)
{
	const struct ioengine_ops *o;
	unsigned n = 0;

	for (unsigned i = 0; (o = ioengine_builtin(i)); i++, n++) {
		const char *why = ioengine_check_ops(o);

		ck_assert_msg(!why, "engine '%s' refused: %s", o->name, why);
		ck_assert_ptr_eq(ioengine_find(o->name), o);
	}
	ck_assert_uint_ge(n, 3);	/* psync, sync and null are always built */
}
END_TEST

START_TEST(catalog_passes_the_flags_on)
{
	struct engine_info cat[IOENGINE_MAX];
	unsigned n = engine_catalog(cat, IOENGINE_MAX);
	const struct ioengine_ops *o;

	for (unsigned i = 0; (o = ioengine_builtin(i)); i++) {
		unsigned k = 0;

		while (k < n && strcmp(cat[k].name, o->name))
			k++;
		ck_assert_msg(k < n, "engine '%s' is not in the catalog", o->name);
		ck_assert(cat[k].available);
		ck_assert_uint_eq(cat[k].flags, o->flags & ENGINE_FLAGS);
		ck_assert_ptr_eq(cat[k].options, o->options);
	}
}
END_TEST

/*
 * glibc runs one descriptor's POSIX AIO requests one after another: clones sharing a
 * descriptor would take turns, where fio's job processes each open their own. So posixaio
 * must not say it is positional, which lets the runner share descriptors among clones.
 */
START_TEST(posixaio_clones_keep_their_own_descriptors)
{
	const struct ioengine_ops *o = ioengine_find("posixaio");

	ck_assert_ptr_nonnull(o);
	ck_assert_uint_eq(o->flags & IOENG_POSITIONAL, 0);
	ck_assert_uint_eq(o->flags & IOENG_SYNC, 0);
	ck_assert_uint_ne(o->flags & IOENG_TRIM, 0);
}
END_TEST

/* --- hand-made ops ---------------------------------------------------------------------- */

static const struct {
	const char *what;
	struct ioengine_ops ops;
	const char *why;	/* a part of the reason, NULL: accepted */
} ops_cases[] = {
	{ "sync", { SYNC_OPS }, NULL },
	{ "async", { ASYNC_OPS }, NULL },
	{ "async with every engine-core flag", { ASYNC_OPS, .flags = IOENG_INLINE_QD1 |
	  IOENG_CHEAP_SUBMIT | IOENG_POSITIONAL | IOENG_TRIM | IOENG_DEPTH_NEEDS_DIRECT }, NULL },
	{ "options of its own", { SYNC_OPS, .options = fake_options,
	  .options_size = sizeof(struct fake_opts) }, NULL },
	{ "files hooks", { ASYNC_OPS, .open_files = fake_open_files }, NULL },
	{ "no name", { .flags = IOENG_SYNC, .queue = fake_queue }, "no name" },
	{ "empty name", { .name = "", .flags = IOENG_SYNC, .queue = fake_queue }, "no name" },
	{ "no queue", { .name = "fake", .flags = IOENG_SYNC }, "no queue()" },
	{ "async without getevents", { NAMED, SUBMIT, EVENT }, "IOQ_QUEUED" },
	{ "async without event", { NAMED, SUBMIT, GETEVENTS }, "IOQ_QUEUED" },
	{ "async without submit", { NAMED, GETEVENTS, EVENT }, "IOQ_QUEUED" },
	{ "queue only, not sync", { NAMED }, "IOQ_QUEUED" },
	{ "sync with getevents", { SYNC_OPS, .getevents = fake_getevents }, "never run" },
	{ "sync inline at qd1", { NAMED, .flags = IOENG_SYNC | IOENG_INLINE_QD1 },
	  "queueing" },
	{ "sync with cheap submit", { NAMED, .flags = IOENG_SYNC | IOENG_CHEAP_SUBMIT },
	  "queueing" },
	{ "sync needing direct for depth", { NAMED,
	  .flags = IOENG_SYNC | IOENG_DEPTH_NEEDS_DIRECT }, "queueing" },
	{ "no files, opens files", { ASYNC_OPS, .flags = IOENG_NOFILES,
	  .open_files = fake_open_files }, "no I/O on files" },
	{ "no files, positional", { ASYNC_OPS, .flags = IOENG_NOFILES | IOENG_POSITIONAL },
	  "no I/O on files" },
	/* issue 16: the engines that work on names, and those that make their files */
	{ "names, makes its files", { NAMED, .flags = IOENG_SYNC | IOENG_NAMES |
	  IOENG_MAKES_FILES | IOENG_NO_DATA | IOENG_MODIFIES }, NULL },
	{ "names, opens files", { NAMED, .flags = IOENG_SYNC | IOENG_NAMES,
	  .open_files = fake_open_files }, "file names" },
	{ "names, positional", { NAMED, .flags = IOENG_SYNC | IOENG_NAMES | IOENG_POSITIONAL },
	  "file names" },
	{ "names, no files", { NAMED, .flags = IOENG_SYNC | IOENG_NAMES | IOENG_NOFILES },
	  "file names" },
	{ "makes files, not names", { NAMED, .flags = IOENG_SYNC | IOENG_MAKES_FILES },
	  "would open" },
	{ "unknown flag", { NAMED, .flags = IOENG_SYNC | (1u << 30) }, "flags" },
	{ "options without size", { SYNC_OPS, .options = fake_options }, "options" },
	{ "size without options", { SYNC_OPS, .options_size = 8 }, "options" },
	{ "another engine's options", { SYNC_OPS, .options = other_options,
	  .options_size = sizeof(struct fake_opts) }, "options" },
};

START_TEST(hand_made_ops)
{
	const struct ioengine_ops *o = &ops_cases[_i].ops;
	const char *why = ioengine_check_ops(o);
	struct engine_info info = ioengine_describe(o);

	if (!ops_cases[_i].why) {
		ck_assert_msg(!why, "%s: refused: %s", ops_cases[_i].what, why);
		ck_assert(info.available);
		return;
	}
	ck_assert_msg(why, "%s: accepted", ops_cases[_i].what);
	ck_assert_msg(strstr(why, ops_cases[_i].why), "%s: '%s' does not say '%s'",
		      ops_cases[_i].what, why, ops_cases[_i].why);
	/* the catalog would list it as unavailable, saying why */
	ck_assert(!info.available);
	ck_assert_str_eq(info.why_missing, why);
}
END_TEST

static Suite *engine_ops_suite(void)
{
	Suite *s = suite_create("engine_ops");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, every_builtin_engine_passes);
	tcase_add_test(tc, catalog_passes_the_flags_on);
	tcase_add_test(tc, posixaio_clones_keep_their_own_descriptors);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_add_loop_test(tc, hand_made_ops, 0, TABLE_LEN(ops_cases));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return test_run(engine_ops_suite());
}
