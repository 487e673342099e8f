/*
 * What a job issues next: the direction (rw, rwmixread), the file (file_service_type),
 * the block size (bs, bsrange, bssplit), the offset (sequential, random map, skewed
 * distributions, rw=..:N) and the data of a write. Also the budgets that end a job.
 */
#ifndef ENGINE_IO_PLAN_H
#define ENGINE_IO_PLAN_H

#include <stdbool.h>

struct io_req;
struct worker;

/* Set up offsets generators, budgets and seeds; the files must be resolved. */
void plan_init(struct worker *w);

/* The direction of the next I/O (random for mixed modes). */
int plan_dir(struct worker *w);

/* Fill r with the next I/O, or return false when the budget is spent. */
bool plan_io(struct worker *w, struct io_req *r);

/* Fill r with the sync that fsync=/fdatasync=/end_fsync asked for. */
void plan_sync(struct worker *w, struct io_req *r);

/* Fill the request buffers once before the run: random data, zeros or the pattern. */
void plan_fill_buffers(struct worker *w);

#endif
