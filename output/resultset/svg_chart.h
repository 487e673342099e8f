/*
 * Charts as standalone SVG, written without any plotting library: axes with ticks and
 * grid lines, a title and a subtitle (what was measured), axis labels, a legend, and the
 * marks of one of four kinds: lines with point markers (and error bars), grouped bars on
 * one or two value axes, a heatmap, or isometric 3D bars. Points whose y is NAN (a missing
 * cell) are left out, never drawn as 0. The same text is valid inline in HTML.
 * The chart's <title> and <desc> carry its title and subtitle for screen readers.
 * For tests and scripts, every mark carries the values it shows: each series' polyline
 * has class "series" and data-series="NAME", each marker class "point"; bars are rects
 * of class "bar", 3D bars groups of class "bar3d", heatmap cells rects of class "cell",
 * error bars lines of class "err"; data-x, data-y (and data-err, data-z, data-count,
 * data-y-lo, data-y-hi) hold the values plotted, before scaling.
 */
#ifndef OUTPUT_RESULTSET_SVG_CHART_H
#define OUTPUT_RESULTSET_SVG_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum svg_scale {
	SVG_LINEAR,	/* y starts at 0 (or below, for negative data) */
	SVG_LOG2,	/* ticks at powers of two: thread counts, block sizes */
	SVG_LOG10,	/* ticks at powers of ten: latencies */
	SVG_NINES,	/* percentiles: 50, 90, 99, 99.9 evenly spaced */
	SVG_CATEGORY,	/* x only: the points are 0, 1, 2 ... named by x_names */
};

enum svg_mark {
	SVG_LINES,	/* a polyline and markers per series */
	SVG_BARS,	/* x categories; a bar per series in each, side by side */
	SVG_HEATMAP,	/* the cells of heat, no series */
	SVG_BARS3D,	/* x categories in depth, a row of bars per series behind the other */
};

struct svg_series {
	const char *name;
	const double *x, *y;
	size_t n;
	const double *err;		/* NULL, or y's spread (sigma) per point: error bars */
	const char *const *point_names;	/* NULL, or a label per point ("iodepth=4") */
	bool y2;			/* SVG_BARS: measured on the right-hand axis */
};

/* Counts over a grid of x (time) and y (latency) ranges. */
struct svg_heat {
	const double *x_edges, *y_edges;	/* nx + 1 and ny + 1 ascending edges */
	size_t nx, ny;
	const double *count;			/* nx * ny, all y of x = 0 first */
};

struct svg_chart {
	const char *title, *x_label, *y_label;
	enum svg_scale x_scale, y_scale;
	const char *const *x_names;	/* SVG_CATEGORY: a name per x = 0 .. nx_names - 1 */
	size_t nx_names;
	const struct svg_series *series;
	size_t nseries;
	/* what was measured, under the title (NULL: none); desc adds to it for readers */
	const char *subtitle, *desc;
	enum svg_mark mark;
	const char *y2_label;		/* SVG_BARS with y2 series: the right axis */
	enum svg_scale y2_scale;
	const struct svg_heat *heat;	/* SVG_HEATMAP */
	const char *z_label;		/* SVG_BARS3D: what the series are (the depth axis) */
};

/* Whether every value is a power of two (1, 2, 4 ...), so that a log2 axis fits them. */
int svg_powers_of_two(const double *v, size_t n);

/* Write the chart as one <svg> element. Returns 0, or -EIO when writing failed. */
int svg_chart_write(FILE *f, const struct svg_chart *c);

#endif
