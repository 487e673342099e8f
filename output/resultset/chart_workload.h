/*
 * What a chart was measured on, for its subtitle: the workload's options (rw, bs,
 * ioengine, iodepth, numjobs), then host, kernel and iojob version, each with the values
 * its runs had ("numjobs=1,4,16" when they differ), parts separated by "; ".
 */
#ifndef OUTPUT_RESULTSET_CHART_WORKLOAD_H
#define OUTPUT_RESULTSET_CHART_WORKLOAD_H

#include <stddef.h>

struct rs_unit;

/* The subtitle of a chart of these units, cut to fit len. */
void chart_workload(const struct rs_unit *const *u, size_t n, char *buf, size_t len);

#endif
