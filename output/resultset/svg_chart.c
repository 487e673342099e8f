/* Line charts as SVG text: scales and ticks, axes, series, legend. */
#include "output/resultset/svg_chart.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "output/resultset/html_page.h"
#include "base/units.h"

#define PLOT_L	90.0	/* the plot area, in pixels */
#define PLOT_R	630.0
#define PLOT_T	56.0
#define PLOT_B	392.0
#define X_PAD	16.0
#define HEIGHT	460
#define CHAR_W	7.0	/* the average width of a 12px sans-serif character, for the legend */
#define MAX_TICKS	40

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
	"#7f7f7f", "#bcbd22",
};
#define NCOLORS	ARRAY_SIZE(palette)

struct axis {
	enum svg_scale scale;
	double lo, hi;			/* the ends, in scale units (log2 of the value ...) */
	double pix_lo, pix_hi;		/* where they are drawn */
	double tick[MAX_TICKS];		/* in scale units */
	char label[MAX_TICKS][32];
	unsigned nticks;
};

static double to_scale(enum svg_scale s, double v)
{
	switch (s) {
	case SVG_LOG2: return log2(v);
	case SVG_LOG10: return log10(v);
	case SVG_NINES: return -log10(1 - v / 100);
	default: return v;
	}
}

static bool usable(enum svg_scale s, double v)
{
	if (!isfinite(v))
		return false;
	if (s == SVG_LOG2 || s == SVG_LOG10)
		return v > 0;
	return s == SVG_NINES ? v >= 0 && v < 100 : true;
}

static double pix(const struct axis *a, double v)
{
	double t = to_scale(a->scale, v);

	return a->pix_lo + (t - a->lo) / (a->hi - a->lo) * (a->pix_hi - a->pix_lo);
}

int svg_powers_of_two(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double l = v[i] > 0 ? log2(v[i]) : 0.5;

		if (l != floor(l))
			return 0;
	}
	return n > 0;
}

static void add_tick(struct axis *a, double t, const char *fmt, double v)
{
	if (a->nticks == MAX_TICKS)
		return;
	a->tick[a->nticks] = t;
	snprintf(a->label[a->nticks++], sizeof(a->label[0]), fmt, v);
}

/* A linear tick's text: "15M" rather than "15000000", which would run into the axis label. */
static void tick_text(char *buf, size_t len, double v, int dec, double max)
{
	static const struct { double div; const char *suffix; } si[] = {
		{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
	};

	for (size_t i = 0; v != 0 && max >= 1e4 && i < ARRAY_SIZE(si); i++) {
		if (max >= si[i].div) {
			snprintf(buf, len, "%g%s", v / si[i].div, si[i].suffix);
			return;
		}
	}
	snprintf(buf, len, "%.*f", dec, v);
}

/*
 * 1, 2 or 5 times a power of ten, about (hi - lo) / 5; ticks on its multiples. Whole
 * numbers (thread counts) get no ticks between them.
 */
static void linear_ticks(struct axis *a, double min, double max, bool from_zero, bool whole)
{
	double raw, mag, step;
	int dec;

	if (from_zero && min > 0)
		min = 0;
	if (max <= min)
		max = min + (min ? fabs(min) : 1);
	raw = (max - min) / 5;
	mag = pow(10, floor(log10(raw)));
	step = raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag;
	if (whole && step < 1)
		step = 1;
	a->lo = floor(min / step) * step;
	a->hi = ceil(max / step) * step;
	dec = step >= 1 ? 0 : (int)ceil(-log10(step));
	for (double t = a->lo; t <= a->hi + step / 2 && a->nticks < MAX_TICKS; t += step) {
		a->tick[a->nticks] = t;
		tick_text(a->label[a->nticks++], sizeof(a->label[0]), fabs(t) < step / 2 ? 0 : t,
			  dec, fmax(fabs(a->lo), fabs(a->hi)));
	}
}

/* Whole powers of base between the data's; every other one when there are many. */
static void log_ticks(struct axis *a, double min, double max, double base)
{
	int step;

	a->lo = floor(to_scale(a->scale, min));
	a->hi = ceil(to_scale(a->scale, max));
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	step = a->hi - a->lo > 12 ? 2 : 1;
	for (double t = a->lo; t <= a->hi; t += step)
		add_tick(a, t, "%g", pow(base, t));
}

static void nines_ticks(struct axis *a, double max)
{
	static const double at[] = { 0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999 };

	a->lo = 0;
	a->hi = ceil(to_scale(SVG_NINES, max));
	if (a->hi < 1)
		a->hi = 1;
	for (size_t i = 0; i < ARRAY_SIZE(at); i++)
		if (to_scale(SVG_NINES, at[i]) <= a->hi + 1e-9)
			add_tick(a, to_scale(SVG_NINES, at[i]), "%g", at[i]);
}

static bool point_ok(const struct svg_chart *c, double x, double y)
{
	if (c->x_scale == SVG_CATEGORY && !(x >= 0 && x < (double)c->nx_names))
		return false;
	return usable(c->x_scale, x) && usable(c->y_scale, y);
}

/* The extremes of x (or y) over the points that can be drawn; false when there are none. */
static bool extremes(const struct svg_chart *c, bool want_x, double *min, double *max)
{
	bool any = false;

	for (size_t k = 0; k < c->nseries; k++) {
		const struct svg_series *s = &c->series[k];

		for (size_t i = 0; i < s->n; i++) {
			double v = want_x ? s->x[i] : s->y[i];

			if (!point_ok(c, s->x[i], s->y[i]))
				continue;
			*min = any && *min < v ? *min : v;
			*max = any && *max > v ? *max : v;
			any = true;
		}
	}
	return any;
}

/* Whether every x that can be drawn is a whole number. */
static bool whole_x(const struct svg_chart *c)
{
	for (size_t k = 0; k < c->nseries; k++)
		for (size_t i = 0; i < c->series[k].n; i++)
			if (point_ok(c, c->series[k].x[i], c->series[k].y[i]) &&
			    c->series[k].x[i] != floor(c->series[k].x[i]))
				return false;
	return true;
}

static void category_ticks(struct axis *a, const struct svg_chart *c)
{
	a->lo = -0.5;
	a->hi = (double)c->nx_names - 0.5;
	for (size_t i = 0; i < c->nx_names && a->nticks < MAX_TICKS; i++) {
		a->tick[a->nticks] = (double)i;
		snprintf(a->label[a->nticks++], sizeof(a->label[0]), "%s", c->x_names[i]);
	}
}

static bool setup_axis(struct axis *a, const struct svg_chart *c, bool is_x)
{
	double min = 1, max = 10;
	bool any = extremes(c, is_x, &min, &max);

	memset(a, 0, sizeof(*a));
	a->scale = is_x ? c->x_scale : c->y_scale;
	/* x keeps the first and last points off the axes */
	a->pix_lo = is_x ? PLOT_L + X_PAD : PLOT_B;
	a->pix_hi = is_x ? PLOT_R - X_PAD : PLOT_T;
	switch (a->scale) {
	case SVG_CATEGORY:
		a->pix_lo = PLOT_L;	/* its half-step margins are padding enough */
		a->pix_hi = PLOT_R;
		category_ticks(a, c);
		break;
	case SVG_LOG2:
		log_ticks(a, min, max, 2);
		break;
	case SVG_LOG10:
		log_ticks(a, min, max, 10);
		break;
	case SVG_NINES:
		nines_ticks(a, any ? max : 90);
		break;
	default:
		linear_ticks(a, min, max, !is_x, is_x && whole_x(c));
	}
	return any;
}

/* A tick (in scale units) as a pixel position. */
static double tick_pix(const struct axis *a, double t)
{
	return a->pix_lo + (t - a->lo) / (a->hi - a->lo) * (a->pix_hi - a->pix_lo);
}

static void draw_axes(FILE *f, const struct axis *x, const struct axis *y)
{
	for (unsigned i = 0; i < y->nticks; i++) {
		double py = tick_pix(y, y->tick[i]);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
			"\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", PLOT_L, py, PLOT_R, py,
			PLOT_L - 8, py + 4);
		html_page_escape(f, y->label[i]);
		fputs("</text>\n", f);
	}
	for (unsigned i = 0; i < x->nticks; i++) {
		double px = tick_pix(x, x->tick[i]);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eeeeee\"/>"
			"\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px, PLOT_T, px, PLOT_B,
			px, PLOT_B + 18);
		html_page_escape(f, x->label[i]);
		fputs("</text>\n", f);
	}
	fprintf(f, "<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" "
		"stroke=\"#333333\"/>\n", PLOT_L, PLOT_T, PLOT_L, PLOT_B, PLOT_R, PLOT_B);
}

static void draw_series(FILE *f, const struct svg_chart *c, const struct axis *x,
			const struct axis *y, size_t k)
{
	const struct svg_series *s = &c->series[k];
	const char *color = palette[k % NCOLORS], *sep = "";

	fputs("<polyline class=\"series\" data-series=\"", f);
	html_page_escape(f, s->name);
	fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", color,
		k >= NCOLORS ? " stroke-dasharray=\"6,3\"" : "");
	for (size_t i = 0; i < s->n; i++, sep = " ")
		if (point_ok(c, s->x[i], s->y[i]))
			fprintf(f, "%s%.1f,%.1f", sep, pix(x, s->x[i]), pix(y, s->y[i]));
	fputs("\"/>\n", f);
	for (size_t i = 0; i < s->n; i++) {
		if (!point_ok(c, s->x[i], s->y[i]))
			continue;
		fputs("<circle class=\"point\" data-series=\"", f);
		html_page_escape(f, s->name);
		fprintf(f, "\" data-x=\"%.9g\" data-y=\"%.9g\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
			"fill=\"%s\"/>\n", s->x[i], s->y[i], pix(x, s->x[i]), pix(y, s->y[i]), color);
	}
}

static void draw_legend(FILE *f, const struct svg_chart *c)
{
	for (size_t k = 0; k < c->nseries; k++) {
		double lx = PLOT_R + 24, ly = PLOT_T + 8 + 20.0 * (double)k;
		const char *color = palette[k % NCOLORS];

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"2\"%s/>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>"
			"\n<text x=\"%.1f\" y=\"%.1f\">", lx, ly, lx + 24, ly, color,
			k >= NCOLORS ? " stroke-dasharray=\"6,3\"" : "", lx + 12, ly, color,
			lx + 30, ly + 4);
		html_page_escape(f, c->series[k].name);
		fputs("</text>\n", f);
	}
}

/* Wide enough for the legend's longest name. */
static int chart_width(const struct svg_chart *c)
{
	size_t longest = 0;

	for (size_t k = 0; k < c->nseries; k++) {
		size_t n = c->series[k].name ? strlen(c->series[k].name) : 0;

		longest = n > longest ? n : longest;
	}
	return (int)(PLOT_R + 24 + 30 + CHAR_W * (double)longest + 16);
}

static void draw_labels(FILE *f, const struct svg_chart *c, int width)
{
	fprintf(f, "<text x=\"%d\" y=\"28\" text-anchor=\"middle\" font-size=\"16\" "
		"font-weight=\"bold\">", width / 2);
	html_page_escape(f, c->title);
	fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(PLOT_L + PLOT_R) / 2, PLOT_B + 44);
	html_page_escape(f, c->x_label);
	fprintf(f, "</text>\n<text x=\"22\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 22 %.1f)\">", (PLOT_T + PLOT_B) / 2, (PLOT_T + PLOT_B) / 2);
	html_page_escape(f, c->y_label);
	fputs("</text>\n", f);
}

int svg_chart_write(FILE *f, const struct svg_chart *c)
{
	int width = chart_width(c);
	struct axis x, y;
	bool any;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
		"font-size=\"12\">\n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		width, HEIGHT, width, HEIGHT, width, HEIGHT);
	any = setup_axis(&x, c, true);
	setup_axis(&y, c, false);
	draw_labels(f, c, width);
	draw_axes(f, &x, &y);
	for (size_t k = 0; k < c->nseries; k++)
		draw_series(f, c, &x, &y, k);
	draw_legend(f, c);
	if (!any)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n",
			(PLOT_L + PLOT_R) / 2, (PLOT_T + PLOT_B) / 2);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
