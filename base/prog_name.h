/*
 * The name iojob speaks under: "fio" when it was run as fio (the last part of argv[0] is
 * "fio", as the tools that drive fio run it), else "iojob". Every line iojob writes on
 * stderr starts with it, so that under fio's name each line starts "fio:" as fio's do.
 */
#ifndef BASE_PROG_NAME_H
#define BASE_PROG_NAME_H

#include <stdbool.h>

/* Whether argv0 is fio's name (its last part is "fio"). */
bool prog_is_fio(const char *argv0);

/* "fio" or "iojob", from the name the process was started under. */
const char *prog_name(void);

#endif
