/*
 * Whether two paths name one file: the same device and inode when both exist, else the
 * same place once resolved (a file not created yet, named twice in different spellings).
 * A low-level primitive: it knows nothing of what the files are for.
 */
#ifndef BASE_SAME_FILE_H
#define BASE_SAME_FILE_H

/*
 * Returns 1 when a and b are one file (or, for a path that does not exist yet, resolve to
 * one place: "x", "./x" and "dir/../x" alike), 0 when not, or -errno when a path cannot
 * be resolved.
 */
int same_file_test(const char *a, const char *b);

#endif
