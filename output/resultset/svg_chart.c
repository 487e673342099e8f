/* Charts as SVG text: scales and ticks, the frame (titles, legend), line charts. */
#include "output/resultset/svg_chart.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "output/resultset/html_page.h"
#include "output/resultset/svg_draw.h"
#include "base/units.h"

#define X_PAD	16.0
#define CHAR_W	7.0	/* the average width of a 12px sans-serif character, for the legend */
#define SUB_CHAR_W	6.2	/* and of an 11px one, for the subtitle */
#define SUB_MAX_LINES	3
#define SLANT_H	100	/* below the plot, for slanted category names */

const char *const svg_palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
	"#7f7f7f", "#bcbd22",
};
const unsigned svg_ncolors = ARRAY_SIZE(svg_palette);

const char *svg_color(size_t k)
{
	return svg_palette[k % svg_ncolors];
}

const char *svg_dash(size_t k)
{
	return k >= svg_ncolors ? " stroke-dasharray=\"6,3\"" : "";
}

static bool point_ok(const struct svg_chart *c, double x, double y)
{
	if (c->x_scale == SVG_CATEGORY && !(x >= 0 && x < (double)c->nx_names))
		return false;
	return svg_usable(c->x_scale, x) && svg_usable(c->y_scale, y);
}

/* The extremes of x (or y, with the error bars) over the points that can be drawn. */
static bool extremes(const struct svg_chart *c, bool want_x, double *min, double *max)
{
	bool any = false;

	for (size_t k = 0; k < c->nseries; k++) {
		const struct svg_series *s = &c->series[k];

		for (size_t i = 0; i < s->n; i++) {
			double e = !want_x && s->err && isfinite(s->err[i]) ? s->err[i] : 0;
			double lo = want_x ? s->x[i] : s->y[i] - e, hi = want_x ? s->x[i] : s->y[i] + e;

			if (!point_ok(c, s->x[i], s->y[i]))
				continue;
			if (!svg_usable(c->y_scale, lo))
				lo = s->y[i];
			*min = any && *min < lo ? *min : lo;
			*max = any && *max > hi ? *max : hi;
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
	if (a->scale == SVG_CATEGORY) {
		a->pix_lo = PLOT_L;	/* its half-step margins are padding enough */
		a->pix_hi = PLOT_R;
		category_ticks(a, c);
	} else if (a->scale == SVG_NINES) {
		svg_axis_ticks(a, min, any ? max : 90, false, false);
	} else {
		svg_axis_ticks(a, min, max, !is_x, is_x && whole_x(c));
	}
	return any;
}

void svg_draw_y_axis(FILE *f, const struct axis *y, bool left)
{
	for (unsigned i = 0; i < y->nticks; i++) {
		double py = svg_tick_pix(y, y->tick[i]);

		if (left)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#dddddd\"/>\n", PLOT_L, py, PLOT_R, py);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			left ? PLOT_L - 8 : PLOT_R + 8, py + 4, left ? "end" : "start");
		html_page_escape(f, y->label[i]);
		fputs("</text>\n", f);
	}
}

/* Category names wider than their place are slanted (and the chart made taller). */
static bool x_slanted(const struct svg_chart *c)
{
	double room = c->nx_names ? (PLOT_R - PLOT_L) / (double)c->nx_names : 0;

	for (size_t i = 0; c->x_scale == SVG_CATEGORY && i < c->nx_names; i++)
		if (CHAR_W * (double)strlen(c->x_names[i]) > room)
			return true;
	return false;
}

static void draw_axes(FILE *f, const struct axis *x, const struct axis *y, bool slant)
{
	for (unsigned i = 0; y && i < y->nticks; i++) {
		double py = svg_tick_pix(y, y->tick[i]);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
			"\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", PLOT_L, py, PLOT_R, py,
			PLOT_L - 8, py + 4);
		html_page_escape(f, y->label[i]);
		fputs("</text>\n", f);
	}
	for (unsigned i = 0; i < x->nticks; i++) {
		double px = svg_tick_pix(x, x->tick[i]);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eeeeee\"/>"
			"\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", px, PLOT_T, px, PLOT_B,
			px - (slant ? 4 : 0), PLOT_B + 14, slant ? "start" : "middle");
		if (slant)
			fprintf(f, " font-size=\"10\" transform=\"rotate(30 %.1f %.1f)\"", px - 4,
				PLOT_B + 14);
		fputc('>', f);
		html_page_escape(f, x->label[i]);
		fputs("</text>\n", f);
	}
	fprintf(f, "<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" "
		"stroke=\"#333333\"/>\n", PLOT_L, PLOT_T, PLOT_L, PLOT_B, PLOT_R, PLOT_B);
}

void svg_draw_err(FILE *f, double px, const struct axis *y, double v, double err,
		  const char *color)
{
	double lo = v - err, hi = v + err;

	if (!isfinite(err) || err <= 0)
		return;
	if (!svg_usable(y->scale, lo))
		lo = v;
	fprintf(f, "<path class=\"err\" data-y=\"%.9g\" data-err=\"%.9g\" d=\"M%.1f,%.1f V%.1f "
		"M%.1f,%.1f h8 M%.1f,%.1f h8\" stroke=\"%s\" fill=\"none\"/>\n", v, err, px,
		svg_pix(y, lo), svg_pix(y, hi), px - 4, svg_pix(y, lo), px - 4, svg_pix(y, hi),
		color);
}

static void draw_point(FILE *f, const struct svg_series *s, size_t i, const struct axis *x,
		       const struct axis *y, const char *color)
{
	double px = svg_pix(x, s->x[i]), py = svg_pix(y, s->y[i]);

	fputs("<circle class=\"point\" data-series=\"", f);
	html_page_escape(f, s->name);
	fprintf(f, "\" data-x=\"%.9g\" data-y=\"%.9g\"", s->x[i], s->y[i]);
	if (s->err && isfinite(s->err[i]))
		fprintf(f, " data-err=\"%.9g\"", s->err[i]);
	fprintf(f, " cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", px, py, color);
	if (s->err)
		svg_draw_err(f, px, y, s->y[i], s->err[i], color);
	if (!s->point_names || !s->point_names[i])
		return;
	fprintf(f, "<text class=\"point-name\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
		"fill=\"%s\">", px + 5, py - 5, color);
	html_page_escape(f, s->point_names[i]);
	fputs("</text>\n", f);
}

static void draw_series(FILE *f, const struct svg_chart *c, const struct axis *x,
			const struct axis *y, size_t k)
{
	const struct svg_series *s = &c->series[k];
	const char *color = svg_color(k), *sep = "";

	fputs("<polyline class=\"series\" data-series=\"", f);
	html_page_escape(f, s->name);
	fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", color,
		svg_dash(k));
	for (size_t i = 0; i < s->n; i++, sep = " ")
		if (point_ok(c, s->x[i], s->y[i]))
			fprintf(f, "%s%.1f,%.1f", sep, svg_pix(x, s->x[i]), svg_pix(y, s->y[i]));
	fputs("\"/>\n", f);
	for (size_t i = 0; i < s->n; i++)
		if (point_ok(c, s->x[i], s->y[i]))
			draw_point(f, s, i, x, y, color);
}

static double legend_x(const struct svg_chart *c)
{
	for (size_t k = 0; k < c->nseries; k++)
		if (c->series[k].y2)
			return PLOT_R + 80;	/* past the right axis' ticks and label */
	return PLOT_R + 24;
}

static void draw_legend(FILE *f, const struct svg_chart *c)
{
	double lx = legend_x(c);

	for (size_t k = 0; c->mark != SVG_HEATMAP && k < c->nseries; k++) {
		double ly = PLOT_T + 8 + 20.0 * (double)k;

		fprintf(f, "<g class=\"legend\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"%d\"%s%s/>\n<text x=\"%.1f\" y=\"%.1f\">", lx,
			ly, lx + 24, ly, svg_color(k), c->mark == SVG_LINES ? 2 : 8, svg_dash(k),
			c->series[k].y2 ? " stroke-opacity=\"0.55\"" : "", lx + 30, ly + 4);
		html_page_escape(f, c->series[k].name);
		fputs("</text></g>\n", f);
	}
}

/* Wide enough for the legend's longest name. */
static int chart_width(const struct svg_chart *c)
{
	size_t longest = 0;

	for (size_t k = 0; c->mark != SVG_HEATMAP && k < c->nseries; k++) {
		size_t n = c->series[k].name ? strlen(c->series[k].name) : 0;

		longest = n > longest ? n : longest;
	}
	return (int)(legend_x(c) + 30 + CHAR_W * (double)longest + 16);
}

/*
 * The subtitle in lines that fit the width, broken after its "; " separators (a part
 * longer than a line is cut by the viewer, not here). Returns the count of lines.
 */
static unsigned subtitle_lines(FILE *f, const char *s, int width, bool draw)
{
	size_t per_line = (size_t)((width - 20) / SUB_CHAR_W), len = strlen(s);
	unsigned lines = 0;
	char line[1024];

	while (len && lines < SUB_MAX_LINES) {
		size_t take = len;

		for (const char *p = s; len > per_line && (p = strstr(p, "; ")); p += 2)
			if ((size_t)(p - s) + 1 <= per_line || take == len)
				take = (size_t)(p - s) + 1;
		if (draw) {
			fprintf(f, "<text class=\"subtitle\" x=\"%d\" y=\"%u\" text-anchor=\"middle\" "
				"font-size=\"11\" fill=\"#444444\">", width / 2, 46 + 13 * lines);
			snprintf(line, sizeof(line), "%.*s", (int)take, s);
			html_page_escape(f, line);
			fputs("</text>\n", f);
		}
		lines++;
		s += take;
		len -= take;
		while (*s == ' ') {
			s++;
			len--;
		}
	}
	return lines;
}

static void draw_labels(FILE *f, const struct svg_chart *c, int width)
{
	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"26\" text-anchor=\"middle\" "
		"font-size=\"16\" font-weight=\"bold\">", width / 2);
	html_page_escape(f, c->title);
	fputs("</text>\n", f);
	if (c->subtitle)
		subtitle_lines(f, c->subtitle, width, true);
	if (c->mark == SVG_BARS3D)
		return;		/* its axes are drawn with it */
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(PLOT_L + PLOT_R) / 2, PLOT_B + 44 + (x_slanted(c) ? SLANT_H : 0));
	html_page_escape(f, c->x_label);
	fprintf(f, "</text>\n<text x=\"22\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 22 %.1f)\">", (PLOT_T + PLOT_B) / 2, (PLOT_T + PLOT_B) / 2);
	html_page_escape(f, c->y_label);
	fputs("</text>\n", f);
	if (!c->y2_label)
		return;
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(90 %.1f %.1f)\">", PLOT_R + 62, (PLOT_T + PLOT_B) / 2,
		PLOT_R + 62, (PLOT_T + PLOT_B) / 2);
	html_page_escape(f, c->y2_label);
	fputs("</text>\n", f);
}

/* <title> names the chart for screen readers, <desc> says what it was measured on. */
static void write_head(FILE *f, const struct svg_chart *c, int width, int height)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"DejaVu Sans, Helvetica, Arial, "
		"sans-serif\" font-size=\"12\">\n<title>", width, height, width, height);
	html_page_escape(f, c->title);
	fputs("</title>\n<desc>", f);
	html_page_escape(f, c->subtitle ? c->subtitle : "");
	if (c->desc) {
		fputs(c->subtitle ? ". " : "", f);
		html_page_escape(f, c->desc);
	}
	fprintf(f, "</desc>\n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height);
}

static bool draw_lines(FILE *f, const struct svg_chart *c)
{
	struct axis x, y;
	bool any = setup_axis(&x, c, true);

	setup_axis(&y, c, false);
	draw_axes(f, &x, &y, x_slanted(c));
	svg_axis_meta(f, "x", &x);
	svg_axis_meta(f, "y", &y);
	for (size_t k = 0; k < c->nseries; k++)
		draw_series(f, c, &x, &y, k);
	return any;
}

static bool any_bar(const struct svg_chart *c)
{
	for (size_t k = 0; k < c->nseries; k++)
		for (size_t i = 0; i < c->series[k].n; i++)
			if (isfinite(c->series[k].y[i]))
				return true;
	return c->heat && c->heat->nx && c->heat->ny;
}

int svg_chart_write(FILE *f, const struct svg_chart *c)
{
	int width = chart_width(c);
	struct axis x;
	bool any = true;

	if (c->subtitle)	/* a subtitle too long for the legend's width widens the chart */
		while (subtitle_lines(f, c->subtitle, width, false) > 2 && width < 1400)
			width += 60;
	write_head(f, c, width, HEIGHT + (x_slanted(c) ? SLANT_H : 0));
	draw_labels(f, c, width);
	switch (c->mark) {
	case SVG_BARS:
		setup_axis(&x, c, true);
		draw_axes(f, &x, NULL, x_slanted(c));
		svg_draw_bars(f, c, &x);
		any = any_bar(c);
		break;
	case SVG_HEATMAP:
		svg_draw_heatmap(f, c);
		any = any_bar(c);
		break;
	case SVG_BARS3D:
		svg_draw_bars3d(f, c);
		any = any_bar(c);
		break;
	default:
		any = draw_lines(f, c);
	}
	draw_legend(f, c);
	if (!any)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n",
			(PLOT_L + PLOT_R) / 2, (PLOT_T + PLOT_B) / 2);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
