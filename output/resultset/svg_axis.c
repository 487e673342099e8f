/* Axes of the charts: scales, where values fall in pixels, ticks and their labels. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output/resultset/svg_draw.h"
#include "base/units.h"

static double to_scale(enum svg_scale s, double v)
{
	switch (s) {
	case SVG_LOG2: return log2(v);
	case SVG_LOG10: return log10(v);
	case SVG_NINES: return -log10(1 - v / 100);
	default: return v;
	}
}

bool svg_usable(enum svg_scale s, double v)
{
	if (!isfinite(v))
		return false;
	if (s == SVG_LOG2 || s == SVG_LOG10)
		return v > 0;
	return s == SVG_NINES ? v >= 0 && v < 100 : true;
}

double svg_pix(const struct axis *a, double v)
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

/* A power's text without an exponent: 0.001, 100, 10k, 1M ("1e+06" read as a formula). */
static void log_tick_text(char *buf, size_t len, double v)
{
	if (v >= 1e4) {
		tick_text(buf, len, v, 0, v);
		return;
	}
	snprintf(buf, len, "%.9f", v);	/* 0.25 of a log2 axis too, zeros cut below */
	for (size_t n = strlen(buf); n > 1 && strchr(buf, '.') && (buf[n - 1] == '0' ||
						 buf[n - 1] == '.'); n--)
		buf[n - 1] = '\0';
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
	for (double t = a->lo; t <= a->hi; t += step) {
		double v = pow(base, t);

		if (a->nticks == MAX_TICKS)
			break;
		a->tick[a->nticks] = t;
		log_tick_text(a->label[a->nticks++], sizeof(a->label[0]), v);
	}
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

void svg_axis_ticks(struct axis *a, double min, double max, bool from_zero, bool whole)
{
	switch (a->scale) {
	case SVG_LOG2:
		log_ticks(a, min, max, 2);
		break;
	case SVG_LOG10:
		log_ticks(a, min, max, 10);
		break;
	case SVG_NINES:
		nines_ticks(a, max);
		break;
	default:
		linear_ticks(a, min, max, from_zero, whole);
	}
}

double svg_tick_pix(const struct axis *a, double t)
{
	return a->pix_lo + (t - a->lo) / (a->hi - a->lo) * (a->pix_hi - a->pix_lo);
}

void svg_axis_meta(FILE *f, const char *name, const struct axis *a)
{
	static const char *const scale[] = {
		[SVG_LINEAR] = "linear", [SVG_LOG2] = "log2", [SVG_LOG10] = "log10",
		[SVG_NINES] = "nines", [SVG_CATEGORY] = "category",
	};

	fprintf(f, "<g class=\"axis\" data-axis=\"%s\" data-scale=\"%s\" data-lo=\"%.9g\" "
		"data-hi=\"%.9g\" data-pix-lo=\"%.1f\" data-pix-hi=\"%.1f\"/>\n", name,
		scale[a->scale], a->lo, a->hi, a->pix_lo, a->pix_hi);
}
