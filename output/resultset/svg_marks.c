/* Marks other than lines: grouped bars on one or two value axes, and heatmaps. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "output/resultset/html_page.h"
#include "output/resultset/svg_draw.h"

#define HEAT_STEPS	8	/* the color scale's legend */

/* The extremes of the series on one value axis; false when it has no value. */
static bool bar_extremes(const struct svg_chart *c, bool y2, enum svg_scale s, double *min,
			 double *max)
{
	bool any = false;

	for (size_t k = 0; k < c->nseries; k++) {
		const struct svg_series *se = &c->series[k];

		for (size_t i = 0; se->y2 == y2 && i < se->n; i++) {
			double e = se->err && isfinite(se->err[i]) ? se->err[i] : 0;

			if (!svg_usable(s, se->y[i]))
				continue;
			*min = any && *min < se->y[i] ? *min : se->y[i];
			*max = any && *max > se->y[i] + e ? *max : se->y[i] + e;
			any = true;
		}
	}
	return any;
}

static bool value_axis(struct axis *a, const struct svg_chart *c, bool y2)
{
	double min = 1, max = 10;
	bool any = bar_extremes(c, y2, y2 ? c->y2_scale : c->y_scale, &min, &max);

	*a = (struct axis){ .scale = y2 ? c->y2_scale : c->y_scale, .pix_lo = PLOT_B,
			    .pix_hi = PLOT_T };
	svg_axis_ticks(a, min, max, true, false);
	return any;
}

static void draw_bar(FILE *f, const struct svg_series *s, size_t k, size_t i, double px,
		     double w, const struct axis *y, const char *x_name)
{
	double base = y->scale == SVG_LINEAR && y->lo < 0 ? svg_pix(y, 0) : y->pix_lo;
	double top = svg_pix(y, s->y[i]);

	fputs("<rect class=\"bar\" data-series=\"", f);
	html_page_escape(f, s->name);
	fputs("\" data-x=\"", f);
	html_page_escape(f, x_name);
	fprintf(f, "\" data-y=\"%.9g\"", s->y[i]);
	if (s->err && isfinite(s->err[i]))
		fprintf(f, " data-err=\"%.9g\"", s->err[i]);
	fprintf(f, "%s x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s/>\n",
		s->y2 ? " data-axis=\"y2\"" : "", px, fmin(top, base), w, fabs(base - top),
		svg_color(k), s->y2 ? " fill-opacity=\"0.55\" stroke=\"#333333\"" : "");
	if (s->err)
		svg_draw_err(f, px + w / 2, y, s->y[i], s->err[i], "#333333");
}

void svg_draw_bars(FILE *f, const struct svg_chart *c, const struct axis *x)
{
	double step = (x->pix_hi - x->pix_lo) / (x->hi - x->lo);
	double w = 0.8 * step / (double)(c->nseries ? c->nseries : 1);
	struct axis y, y2;
	bool has_y2 = value_axis(&y2, c, true);

	value_axis(&y, c, false);
	svg_draw_y_axis(f, &y, true);
	svg_axis_meta(f, "x", x);
	svg_axis_meta(f, "y", &y);
	if (has_y2) {
		svg_draw_y_axis(f, &y2, false);
		svg_axis_meta(f, "y2", &y2);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#333333\"/>\n", PLOT_R, PLOT_T, PLOT_R, PLOT_B);
	}
	for (size_t k = 0; k < c->nseries; k++) {
		const struct svg_series *s = &c->series[k];
		const struct axis *a = s->y2 ? &y2 : &y;

		for (size_t i = 0; i < s->n; i++) {
			size_t cat = (size_t)s->x[i];
			double px = svg_tick_pix(x, (double)cat) - 0.4 * step + (double)k * w;

			if (cat >= c->nx_names || !svg_usable(a->scale, s->y[i]))
				continue;
			draw_bar(f, s, k, i, px, w, a, c->x_names[cat]);
		}
	}
}

/* White to dark blue by the count's share of the largest, on a log scale. */
static void heat_color(double count, double max, char *buf, size_t len)
{
	double t = max > 0 ? log1p(count) / log1p(max) : 0;
	int r = (int)(255 - t * (255 - 8)), g = (int)(255 - t * (255 - 48)),
	    b = (int)(255 - t * (255 - 107));

	snprintf(buf, len, "#%02x%02x%02x", r, g, b);
}

/* A legend's count in at most five characters: 640, 5.52k, 1.2M (2171 was cut to 217). */
static void heat_count(double v, char *buf, size_t len)
{
	static const char unit[] = " kMGT";
	int i = 0;

	while (v >= 999.5 && i < 4) {
		v /= 1000;
		i++;
	}
	if (i)
		snprintf(buf, len, "%.3g%c", v, unit[i]);
	else
		snprintf(buf, len, "%.0f", v);
}

/*
 * The colour scale right of the plot: swatches at PLOT_R + 12, counts after them, in
 * the 70 pixels up to the chart's edge (WIDTH 700).
 */
static void heat_legend(FILE *f, double max)
{
	char color[16], count[16];

	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">I/Os</text>\n", PLOT_R + 12, PLOT_T + 4);
	for (int i = 0; i <= HEAT_STEPS; i++) {
		double v = expm1(log1p(max) * i / HEAT_STEPS);

		heat_color(v, max, color, sizeof(color));
		heat_count(v, count, sizeof(count));
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"16\" fill=\"%s\" "
			"stroke=\"#bbbbbb\"/>\n<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			PLOT_R + 12, PLOT_T + 14 + 18.0 * i, color, PLOT_R + 32,
			PLOT_T + 26 + 18.0 * i, count);
	}
}

void svg_draw_heatmap(FILE *f, const struct svg_chart *c)
{
	const struct svg_heat *h = c->heat;
	struct axis x = { .scale = SVG_LINEAR, .pix_lo = PLOT_L, .pix_hi = PLOT_R };
	struct axis y = { .scale = SVG_LOG10, .pix_lo = PLOT_B, .pix_hi = PLOT_T };
	double max = 0;
	char color[16];

	if (!h || !h->nx || !h->ny)
		return;
	for (size_t i = 0; i < h->nx * h->ny; i++)
		max = h->count[i] > max ? h->count[i] : max;
	svg_axis_ticks(&x, h->x_edges[0], h->x_edges[h->nx], false, false);
	svg_axis_ticks(&y, h->y_edges[0], h->y_edges[h->ny], false, false);
	svg_draw_y_axis(f, &y, true);
	for (unsigned i = 0; i < x.nticks; i++)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			svg_tick_pix(&x, x.tick[i]), PLOT_B + 18, x.label[i]);
	svg_axis_meta(f, "x", &x);
	svg_axis_meta(f, "y", &y);
	for (size_t i = 0; i < h->nx; i++) {
		for (size_t j = 0; j < h->ny; j++) {
			double n = h->count[i * h->ny + j];
			double x0 = svg_pix(&x, h->x_edges[i]), x1 = svg_pix(&x, h->x_edges[i + 1]);
			double y0 = svg_pix(&y, h->y_edges[j]), y1 = svg_pix(&y, h->y_edges[j + 1]);

			if (n <= 0)
				continue;
			heat_color(n, max, color, sizeof(color));
			fprintf(f, "<rect class=\"cell\" data-x-lo=\"%.9g\" data-x-hi=\"%.9g\" "
				"data-y-lo=\"%.9g\" data-y-hi=\"%.9g\" data-count=\"%.9g\" x=\"%.1f\" "
				"y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
				h->x_edges[i], h->x_edges[i + 1], h->y_edges[j], h->y_edges[j + 1], n,
				x0, y1, x1 - x0, y0 - y1, color);
		}
	}
	fprintf(f, "<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" "
		"stroke=\"#333333\"/>\n", PLOT_L, PLOT_T, PLOT_L, PLOT_B, PLOT_R, PLOT_B);
	heat_legend(f, max);
}
