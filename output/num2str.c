/*
 * Numbers with unit prefixes, rounded as fio rounds them: divide by 1000 or 1024 until the
 * number fits in maxlen digits, then spend the digits left over on decimals.
 */
#include "output/num2str.h"

#include <stdio.h>

#define N2S_PREFIXES	7

unsigned num2str_digits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

char *num2str(uint64_t num, unsigned maxlen, int pow2, enum n2s_unit unit, char *buf,
	      size_t len)
{
	return num2str_scaled(num, 0, maxlen, pow2, unit, buf, len);
}

char *num2str_scaled(uint64_t num, unsigned first, unsigned maxlen, int pow2,
		     enum n2s_unit unit, char *buf, size_t len)
{
	static const char *const si[N2S_PREFIXES] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[N2S_PREFIXES] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const units[] = { "", "/s", "B", "B/s", "bit/s" };
	const char *const *prefix = pow2 ? iec : si;
	unsigned step = pow2 ? 1024 : 1000;
	unsigned p = first < N2S_PREFIXES ? first : 0, divided = 0, rem = 0;
	int room;
	char frac[32];

	if (!len)
		return buf;
	if (unit == N2S_BITPERSEC)
		num *= 8;
	while (num2str_digits(num) > maxlen && p < N2S_PREFIXES - 1) {
		rem = (unsigned)(num % step);
		num /= step;
		p++;
		divided++;
	}
	if (!divided) {
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[p], units[unit]);
		return buf;
	}
	/*
	 * Only the last division's remainder counts. Without room for a decimal it rounds the
	 * number; otherwise it becomes the decimals, and when those round up to 1 the number
	 * carries while the zero decimals stay (so 10239 prints as "10.00KiB", as in fio).
	 */
	room = (int)maxlen - (int)num2str_digits(num);
	if (room <= 1) {
		if (rem >= step / 2)
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[p], units[unit]);
		return buf;
	}
	snprintf(frac, sizeof(frac), "%.*f", room - 1, (double)rem / (double)step);
	if (frac[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, frac + 2, prefix[p],
		 units[unit]);
	return buf;
}

char *num2str_pair(uint64_t bytes, unsigned kb_base, enum n2s_unit unit, char *buf,
		   size_t len)
{
	return num2str_pair_figs(bytes, kb_base, N2S_FIGURES, unit, buf, len);
}

char *num2str_pair_figs(uint64_t bytes, unsigned kb_base, unsigned figs, enum n2s_unit unit,
			char *buf, size_t len)
{
	char iec[32], si[32];
	int si_first = kb_base == 1000;

	num2str(bytes, figs, 1, unit, iec, sizeof(iec));
	num2str(bytes, figs, 0, unit, si, sizeof(si));
	snprintf(buf, len, "%s (%s)", si_first ? si : iec, si_first ? iec : si);
	return buf;
}
