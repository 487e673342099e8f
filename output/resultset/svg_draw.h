/*
 * What the parts of svg_chart.c share (private to svg_chart.c, svg_axis.c, svg_marks.c
 * and svg_bars3d.c): the plot area, the palette, axes as scales mapped to pixels.
 */
#ifndef OUTPUT_RESULTSET_SVG_DRAW_H
#define OUTPUT_RESULTSET_SVG_DRAW_H

#include <stdbool.h>
#include <stdio.h>

#include "output/resultset/svg_chart.h"

#define PLOT_L	90.0	/* the plot area, in pixels */
#define PLOT_R	630.0
#define PLOT_T	76.0
#define PLOT_B	412.0
#define HEIGHT	480
#define MAX_TICKS	40

extern const char *const svg_palette[];
extern const unsigned svg_ncolors;

struct axis {
	enum svg_scale scale;
	double lo, hi;			/* the ends, in scale units (log2 of the value ...) */
	double pix_lo, pix_hi;		/* where they are drawn */
	double tick[MAX_TICKS];		/* in scale units */
	char label[MAX_TICKS][32];
	unsigned nticks;
};

/* The color of series k, and its dash pattern once the palette has gone round. */
const char *svg_color(size_t k);
const char *svg_dash(size_t k);

/* A tick (in scale units) as a pixel position. */
double svg_tick_pix(const struct axis *a, double t);

/* A value's pixel position on the axis. */
double svg_pix(const struct axis *a, double v);

/* Whether v can be drawn on a scale (a log scale takes no 0). */
bool svg_usable(enum svg_scale s, double v);

/*
 * Ticks for values from min to max on a's scale, between pix_lo and pix_hi (set by the
 * caller); from_zero for value axes, whole for counts that take no fractions.
 */
void svg_axis_ticks(struct axis *a, double min, double max, bool from_zero, bool whole);

/* The ticks and grid lines of a value axis drawn on the left (right: false) or right. */
void svg_draw_y_axis(FILE *f, const struct axis *y, bool left);

/* A "±err" bar around y at pixel x, class "err" with its values. */
void svg_draw_err(FILE *f, double px, const struct axis *y, double v, double err,
		  const char *color);

/* The axis' mapping as data for scripts: <g class="axis" data-lo= ... data-pix-hi=>. */
void svg_axis_meta(FILE *f, const char *name, const struct axis *a);

/* Bars, heatmaps and 3D bars: the whole plot area, axes included. */
void svg_draw_bars(FILE *f, const struct svg_chart *c, const struct axis *x);
void svg_draw_heatmap(FILE *f, const struct svg_chart *c);
void svg_draw_bars3d(FILE *f, const struct svg_chart *c);

#endif
