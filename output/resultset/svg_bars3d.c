/*
 * Isometric 3D bars (fio-plot's iodepth x numjobs view): x categories from left to right,
 * a row of bars per series from front to back, heights on a value axis drawn on the back
 * wall. Drawn back to front, so nearer bars cover farther ones.
 */
#include <math.h>
#include <stdio.h>

#include "output/resultset/html_page.h"
#include "output/resultset/svg_draw.h"

#define DEPTH_SHARE	0.35	/* of the plot's width, taken by the rows going back */

struct iso {
	double ox, oy;		/* the front left corner of the floor */
	double dx, dzx, dzy;	/* one category across, one row back */
	double height;		/* of the value axis, in pixels */
	struct axis y;
};

/* A point of the floor (category i, row k) raised by h pixels. */
static void iso_at(const struct iso *s, double i, double k, double h, double *px, double *py)
{
	*px = s->ox + i * s->dx + k * s->dzx;
	*py = s->oy - k * s->dzy - h;
}

static double bar_h(const struct iso *s, double v)
{
	return (svg_pix(&s->y, v) - s->y.pix_lo) * -1;
}

/* A face in the series' color times light (opaque: nearer bars hide farther ones). */
static void face(FILE *f, const double *pt, const char *color, double light)
{
	unsigned r = 0, g = 0, b = 0;

	sscanf(color, "#%2x%2x%2x", &r, &g, &b);
	fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
		"fill=\"#%02x%02x%02x\" stroke=\"#333333\" stroke-width=\"0.5\"/>\n", pt[0], pt[1],
		pt[2], pt[3], pt[4], pt[5], pt[6], pt[7], (unsigned)fmin(255, r * light),
		(unsigned)fmin(255, g * light), (unsigned)fmin(255, b * light));
}

static void draw_box(FILE *f, const struct iso *s, const struct svg_chart *c, size_t k,
		     size_t i)
{
	const struct svg_series *se = &c->series[k];
	double h = bar_h(s, se->y[i]), x = se->x[i] + 0.15, z = (double)k + 0.15, p[8];
	const char *color = svg_color(k);

	fputs("<g class=\"bar3d\" data-series=\"", f);
	html_page_escape(f, se->name);
	fputs("\" data-x=\"", f);
	html_page_escape(f, c->x_names[(size_t)se->x[i]]);
	fprintf(f, "\" data-z=\"%zu\" data-y=\"%.9g\" data-height=\"%.2f\">\n", k, se->y[i], h);
	iso_at(s, x, z, 0, &p[0], &p[1]);		/* front */
	iso_at(s, x + 0.7, z, 0, &p[2], &p[3]);
	iso_at(s, x + 0.7, z, h, &p[4], &p[5]);
	iso_at(s, x, z, h, &p[6], &p[7]);
	face(f, p, color, 1.0);
	iso_at(s, x + 0.7, z, 0, &p[0], &p[1]);		/* right side */
	iso_at(s, x + 0.7, z + 0.7, 0, &p[2], &p[3]);
	iso_at(s, x + 0.7, z + 0.7, h, &p[4], &p[5]);
	iso_at(s, x + 0.7, z, h, &p[6], &p[7]);
	face(f, p, color, 0.7);
	iso_at(s, x, z, h, &p[0], &p[1]);		/* top */
	iso_at(s, x + 0.7, z, h, &p[2], &p[3]);
	iso_at(s, x + 0.7, z + 0.7, h, &p[4], &p[5]);
	iso_at(s, x, z + 0.7, h, &p[6], &p[7]);
	face(f, p, color, 1.3);
	/* the axis is read across the walls: the value itself on top says it exactly */
	iso_at(s, x + 0.35, z + 0.35, h, &p[0], &p[1]);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%.*f"
		"</text>\n</g>\n", p[0], p[1] + 3, fabs(se->y[i]) >= 100 ? 0 : 2, se->y[i]);
}

/*
 * The grid on the back and left walls, value ticks at the front left corner (read across
 * the left wall), and the categories' names under the front row.
 */
static void draw_frame(FILE *f, const struct iso *s, const struct svg_chart *c, size_t nx)
{
	double nz = (double)c->nseries, x0, y0, x1, y1, x2, y2;

	for (unsigned t = 0; t < s->y.nticks; t++) {
		double h = svg_tick_pix(&s->y, s->y.tick[t]) * -1 + s->y.pix_lo;

		iso_at(s, 0, 0, h, &x0, &y0);
		iso_at(s, 0, nz, h, &x1, &y1);
		iso_at(s, (double)nx, nz, h, &x2, &y2);
		fprintf(f, "<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" "
			"stroke=\"#cccccc\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x0,
			y0, x1, y1, x2, y2, x0 - 6, y0 + 4);
		html_page_escape(f, s->y.label[t]);
		fputs("</text>\n", f);
	}
	for (size_t i = 0; i < nx; i++) {
		iso_at(s, (double)i + 0.5, 0, 0, &x0, &y0);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x0, y0 + 16);
		html_page_escape(f, c->x_names[i]);
		fputs("</text>\n", f);
	}
	iso_at(s, (double)nx / 2, 0, 0, &x0, &y0);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x0, y0 + 34);
	html_page_escape(f, c->x_label);
	fputs("</text>\n", f);
	iso_at(s, 0, 0, s->height / 2, &x0, &y0);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 "
		"%.1f %.1f)\">", x0 - 56, y0, x0 - 56, y0);
	html_page_escape(f, c->y_label);
	fputs("</text>\n", f);
}

void svg_draw_bars3d(FILE *f, const struct svg_chart *c)
{
	double max = 0, w = PLOT_R - PLOT_L - 20;
	size_t nz = c->nseries ? c->nseries : 1, nx = c->nx_names ? c->nx_names : 1;
	struct iso s = { .ox = PLOT_L + 20, .oy = PLOT_B };

	for (size_t k = 0; k < c->nseries; k++)
		for (size_t i = 0; i < c->series[k].n; i++)
			if (isfinite(c->series[k].y[i]) && c->series[k].y[i] > max)
				max = c->series[k].y[i];
	s.dzx = w * DEPTH_SHARE / (double)nz;
	s.dzy = s.dzx * 0.5;
	s.dx = w * (1 - DEPTH_SHARE) / (double)nx;
	s.height = PLOT_B - PLOT_T - (double)nz * s.dzy;
	s.y = (struct axis){ .scale = SVG_LINEAR, .pix_lo = 0, .pix_hi = -s.height };
	svg_axis_ticks(&s.y, 0, max, true, false);
	svg_axis_meta(f, "y", &s.y);
	draw_frame(f, &s, c, nx);
	for (size_t k = c->nseries; k-- > 0;)
		for (size_t i = 0; i < c->series[k].n; i++)
			if (isfinite(c->series[k].y[i]) && (size_t)c->series[k].x[i] < c->nx_names)
				draw_box(f, &s, c, k, i);
}
