/*
 * Numbers as fio prints them, so that reports diff cleanly against fio's:
 * "50.1k", "7827", "196MiB/s", "205MB/s", "11414k".
 */
#ifndef OUTPUT_NUM2STR_H
#define OUTPUT_NUM2STR_H

#include <stddef.h>
#include <stdint.h>

enum n2s_unit {
	N2S_NONE,		/* "" */
	N2S_PERSEC,		/* "/s" */
	N2S_BYTE,		/* "B" */
	N2S_BYTEPERSEC,		/* "B/s" */
	N2S_BITPERSEC,		/* "bit/s": num is bytes per second, printed times 8 */
};

/* The digits fio prints by default (significant_figures=4). */
#define N2S_FIGURES	4

/*
 * Format num with at most maxlen significant digits, scaling by 1000 (SI prefixes k, M,
 * G, T, P, E) or by 1024 when pow2 (Ki, Mi, Gi, ...) until it fits, rounding the dropped
 * part as fio does, and append the unit. Writes at most len bytes to buf (always
 * terminated) and returns buf.
 */
char *num2str(uint64_t num, unsigned maxlen, int pow2, enum n2s_unit unit, char *buf,
	      size_t len);

/*
 * As num2str(), for a num already counted in units of the first-th prefix (1: k or Ki),
 * as fio's num2str() takes a base: the prefix starts there whichever pow2 picks.
 */
char *num2str_scaled(uint64_t num, unsigned first, unsigned maxlen, int pow2,
		     enum n2s_unit unit, char *buf, size_t len);

/* The number of decimal digits of v (1 for 0). */
unsigned num2str_digits(uint64_t v);

/*
 * A bandwidth or size pair as fio prints them: "196MiB/s (205MB/s)", IEC first and SI in
 * parentheses, or the other way round when kb_base is 1000. bytes is per second with
 * N2S_BYTEPERSEC. Returns buf.
 */
char *num2str_pair(uint64_t bytes, unsigned kb_base, enum n2s_unit unit, char *buf,
		   size_t len);

/* The same pair with figs digits (significant_figures) instead of 4. */
char *num2str_pair_figs(uint64_t bytes, unsigned kb_base, unsigned figs, enum n2s_unit unit,
			char *buf, size_t len);

#endif
