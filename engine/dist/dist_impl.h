/* Shared by the two drivers of engine/dist/dist.h; nothing else includes it. */
#ifndef ENGINE_DIST_DIST_IMPL_H
#define ENGINE_DIST_DIST_IMPL_H

#include "engine/dist/dist.h"

/* This process's host name into buf (DIST_HOST_MAX bytes). */
void dist_host_name(char *buf);

/* Number the hosts of names[nranks] by first rank; fills d's host tables. 0 or -1. */
int dist_index_hosts(struct dist *d, const char (*names)[DIST_HOST_MAX]);
void dist_free_hosts(struct dist *d);

#endif
