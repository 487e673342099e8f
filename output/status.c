/* The live status line and --status-interval results, in fio's shapes. */
#include "output/status.h"

#include <inttypes.h>
#include <string.h>

#include "output/json_writer.h"
#include "output/num2str.h"
#include "output/text.h"

static const char dir_letter[STATS_NDIR] = { 'r', 'w', 't' };

/* "[r(2)w(1)_(1)]": each run of equal states as the state and its length. */
static size_t run_string(char *buf, size_t len, const char *states, unsigned n)
{
	size_t used = 0;

	for (unsigned i = 0; i < n && used < len;) {
		unsigned k = i;

		while (k < n && states[k] == states[i])
			k++;
		used += (size_t)snprintf(buf + used, len - used, "%c(%u)", states[i], k - i);
		i = k;
	}
	return used;
}

static size_t eta_string(char *buf, size_t len, int64_t s)
{
	if (s < 0)
		return (size_t)snprintf(buf, len, "--");
	if (s >= 86400)
		return (size_t)snprintf(buf, len, "%" PRId64 "d:%02" PRId64 "h:%02" PRId64 "m:%02"
					PRId64 "s", s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
	if (s >= 3600)
		return (size_t)snprintf(buf, len, "%02" PRId64 "h:%02" PRId64 "m:%02" PRId64 "s",
					s / 3600, s / 60 % 60, s % 60);
	return (size_t)snprintf(buf, len, "%02" PRId64 "m:%02" PRId64 "s", s / 60, s % 60);
}

/* "[r=196MiB/s,w=83.8MiB/s]" or "[r=50.1k,w=21.4k IOPS]", busy directions only. */
static size_t rates(char *buf, size_t len, const uint64_t *v, bool bytes, bool bits)
{
	size_t used = 0;
	char num[32];

	for (int d = 0; d < STATS_NDIR && used < len; d++) {
		if (!v[d])
			continue;
		if (bytes)
			num2str(v[d], 4, 1, bits ? N2S_BITPERSEC : N2S_BYTEPERSEC, num,
				sizeof(num));
		else
			num2str(v[d], 4, 0, N2S_NONE, num, sizeof(num));
		used += (size_t)snprintf(buf + used, len - used, "%s%c=%s", used ? "," : "[",
					 dir_letter[d], num);
	}
	if (used && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s]", bytes ? "" : " IOPS");
	return used;
}

char *status_line(char *buf, size_t len, const struct status_view *v)
{
	size_t n = (size_t)snprintf(buf, len, "Jobs: %u (f=%u)", v->running, v->files);

	if (n < len && v->running) {
		n += (size_t)snprintf(buf + n, len - n, ": [");
		n += run_string(buf + n, n < len ? len - n : 0, v->states, v->njobs);
		if (n < len && v->pct >= 0)
			n += (size_t)snprintf(buf + n, len - n, "][%.1f%%]", v->pct);
		else if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "][-.-%%]");
		if (n < len)
			n += rates(buf + n, len - n, v->bw, true, v->bits);
		if (n < len)
			n += rates(buf + n, len - n, v->iops, false, false);
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "[eta ");
		if (n < len)
			n += eta_string(buf + n, len - n, v->eta_s);
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "]");
		if (n < len && v->ncells > 1)
			n += (size_t)snprintf(buf + n, len - n, "[cell %lu/%lu, sweep eta ",
					      v->cell, v->ncells);
		if (n < len && v->ncells > 1)
			n += eta_string(buf + n, len - n, v->sweep_eta_s);
		if (n < len && v->ncells > 1)
			snprintf(buf + n, len - n, "]");
	}
	return buf;
}

static const char *const dir_name[STATS_NDIR] = { "read", "write", "trim" };

void status_interval_text(FILE *f, unsigned seq, uint64_t start_ms, uint64_t end_ms,
			  const struct status_interval *jobs, unsigned n, unsigned kb_base)
{
	uint64_t ms = end_ms > start_ms ? end_ms - start_ms : 1;
	char iops[32], bw[64];

	fprintf(f, "Interval %u (%" PRIu64 ".%03" PRIu64 "-%" PRIu64 ".%03" PRIu64 " s):\n", seq,
		start_ms / 1000, start_ms % 1000, end_ms / 1000, end_ms % 1000);
	for (unsigned i = 0; i < n; i++) {
		for (int d = 0; d < STATS_NDIR; d++) {
			const struct status_interval *s = &jobs[i];

			if (!s->ios[d])
				continue;
			num2str(s->ios[d] * 1000 / ms, 4, 0, N2S_NONE, iops, sizeof(iops));
			num2str_pair(s->bytes[d] * 1000 / ms, kb_base, N2S_BYTEPERSEC, bw,
				     sizeof(bw));
			fputs("  ", f);
			text_put_escaped(f, s->name);
			fprintf(f, ": %s: IOPS=%s, BW=%s, clat avg=%.2fus\n", dir_name[d], iops, bw,
				(double)s->clat_sum_ns[d] / (double)s->ios[d] / 1000.0);
		}
	}
	fflush(f);
}

void status_interval_json(FILE *f, unsigned seq, uint64_t start_ms, uint64_t end_ms,
			  const struct status_interval *jobs, unsigned n)
{
	uint64_t ms = end_ms > start_ms ? end_ms - start_ms : 1;

	fprintf(f, "{\"interval\": %u, \"start_ms\": %" PRIu64 ", \"end_ms\": %" PRIu64
		", \"jobs\": [", seq, start_ms, end_ms);
	for (unsigned i = 0; i < n; i++) {
		const struct status_interval *s = &jobs[i];

		fprintf(f, "%s{\"jobname\": ", i ? ", " : "");
		json_string_to(f, s->name);
		for (int d = 0; d < STATS_NDIR; d++)
			fprintf(f, ", \"%s\": {\"total_ios\": %" PRIu64 ", \"io_bytes\": %" PRIu64
				", \"iops\": %.6f, \"bw_bytes\": %" PRIu64 ", \"clat_mean_ns\": %.6f}",
				dir_name[d], s->ios[d], s->bytes[d],
				(double)s->ios[d] * 1000.0 / (double)ms, s->bytes[d] * 1000 / ms,
				s->ios[d] ? (double)s->clat_sum_ns[d] / (double)s->ios[d] : 0.0);
		fputc('}', f);
	}
	fputs("]}\n", f);
	fflush(f);
}
