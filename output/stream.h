/*
 * The end of an output stream, checked: a write that failed while the stream was
 * buffered shows only in ferror() or in the last flush, and fio loses it unseen.
 * A low-level primitive: it knows nothing of reports.
 */
#ifndef OUTPUT_STREAM_H
#define OUTPUT_STREAM_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Flush f and, when close is set, close it (f is gone either way). Returns 0, or the
 * -errno of the first failure: -EIO when only ferror() says that a write failed.
 */
int stream_finish(FILE *f, bool close);

#endif
