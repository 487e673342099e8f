/*
 * Value converters: job-file text to sizes, times, booleans, numbers, ranges and lists.
 * Every function returns 0 on success, -EINVAL if the text is malformed and -ERANGE on
 * overflow, -E2BIG where an expression nests too deep (see expr.h); leading and trailing
 * blanks are ignored; the outputs are untouched on error.
 */
#ifndef PARSER_VALUE_H
#define PARSER_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Parse a size: decimal or 0x hex digits, an optional suffix and an optional trailing
 * 'b'/'B' (bytes, never bits). Suffixes are case-insensitive: k, m, g, t, p (also kb, mb,
 * ...) are powers of kb_base (1024 or 1000); the IEC forms KiB, MiB, GiB, TiB, PiB (and
 * Ki, Mi, ...) are always powers of 1024. Unlike fio, which reads KiB as 1000 by default.
 * A fraction ("1.5g", "67108864.0") is truncated to whole bytes, as fio truncates it;
 * "1.5b" is refused (a typo for "1.5k" more likely than a size).
 */
int value_parse_size(const char *s, unsigned kb_base, uint64_t *out);

/*
 * How much of s fio's size parser reads: blanks, decimal (with a fraction) or 0x hex
 * digits, then a suffix's letters (k, ki, kib, kb, b...) or '%'. fio ignores what follows
 * ("65536)" is 65536 to it); 0 where s starts with no number.
 */
size_t value_size_prefix(const char *s);

/*
 * As value_parse_size(), but "N%" (0 < N <= 100, fractions allowed) is also accepted:
 * then *pct is set to N and *out to 0; otherwise *pct is 0.
 */
int value_parse_size_pct(const char *s, unsigned kb_base, uint64_t *out, double *pct);

/*
 * Parse a size range "4k-64k" or "4k:64k"; a single size sets lo = hi. Returns 0, -EINVAL
 * or -ERANGE as value_parse_size(), or -EDOM for reversed bounds ("64k-4k": fio swaps
 * them without a word, and refuses no more than a typo; startdelay=5-1 is refused too).
 */
int value_parse_size_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi);

/*
 * A range as fio reads one that value_parse_size_range() refuses: values split at '-', ':'
 * and ',', the first the low end and the last the high one (those between are read and
 * dropped), each the number and the unit its first letters make ("16-8k/8M-512M" is 16 to
 * 512M). *nvalues: how many there were. -EDOM when low is above high.
 */
int value_parse_size_range_loose(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi,
				 unsigned *nvalues);

/*
 * Parse a time to nanoseconds. Suffixes (case-insensitive): ns/nsec, us/usec, ms/msec,
 * s/sec, m/min (minutes), h, d. A number without suffix is in unit_ns (1e9 for seconds,
 * 1000 for microseconds). Fractions are allowed ("1.5s").
 */
int value_parse_time(const char *s, uint64_t unit_ns, uint64_t *out_ns);

/*
 * Parse a boolean: 1/0, true/false, yes/no, on/off (case-insensitive); "" is true; a
 * number that truncates to 0 or 1 ("1.0", "0x1"), as fio's booleans take one.
 */
int value_parse_bool(const char *s, bool *out);

/*
 * Parse a signed integer, decimal or 0x hex. A decimal fraction ("70.0", "3.9") is
 * truncated toward zero, as fio's integer options do: wrappers write numbers as floats.
 */
int value_parse_int(const char *s, long long *out);

/* Parse a finite floating-point number. */
int value_parse_double(const char *s, double *out);

/*
 * Split s at every sep not preceded by a backslash ("a\:b:c" -> "a:b", "c" for ':').
 * Empty fields are kept ("4k,,8k" has three). Returns the field count (>= 1) and a
 * malloc'd array of malloc'd strings in *out, or -ENOMEM.
 */
int value_split(const char *s, char sep, char ***out);

/* Free what value_split() returned. */
void value_split_free(char **fields, int n);

/*
 * The candidate closest to word by edit distance (case-insensitive), or NULL when
 * none is within a distance of 2 (or 1 for words of 4 characters or fewer). A candidate
 * equal to word is never the answer.
 */
const char *value_closest(const char *word, const char *const *cands, size_t ncands);

#endif
