/*
 * fio's switches that do something of their own instead of running jobs: --showcmd (a job
 * file as fio's command line), --crctest (the verify checksums' speed), --inflate-log (a
 * log fio stored compressed, as text), --debug (its categories checked) and
 * --idle-prof (its mode; calibrate measures and prints).
 */
#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "base/prog_name.h"
#include "base/diag.h"
#include "base/units.h"
#include "engine/run/idle_prof.h"
#include "engine/verify/checksum.h"
#include "output/joblog.h"
#include "parser/jobfile.h"

/* --crctest: each checksum runs over this buffer until CRC_MIN_NS have passed. */
#define CRC_BUF_BYTES	(1u << 20)
#define CRC_MIN_NS	(200 * NS_PER_MSEC)

/* A log file is read into a buffer grown by this much. */
#define INFLATE_STEP	(1u << 20)

static const char *const debug_names[] = {
	"process", "file", "io", "mem", "blktrace", "verify", "random", "parse", "diskutil",
	"job", "mutex", "profile", "time", "net", "rate", "compress", "steadystate",
	"helperthread", "zbd", "all",
};

static void put_option(FILE *f, const struct jf_key *k)
{
	if (k->bare)
		fprintf(f, "--%s ", k->key);
	else
		fprintf(f, "--%s=%s ", k->key, k->val);
}

int cli_showcmd(FILE *f, const struct cli *c)
{
	struct diag d = { 0 };
	int ret = 0;

	/* as fio: one line per job file; the command line's own jobs are already one */
	for (unsigned i = 0; i < c->nfiles && !ret; i++) {
		struct jobfile jf = { 0 };

		ret = jobfile_parse(&jf, c->files[i], &d);
		if (ret < 0) {
			fprintf(stderr, "%s: %s\n", prog_name(), d.msg);
		} else {
			fputs("fio ", f);
			for (size_t s = 0; s < jf.nsecs; s++) {
				if (strcmp(jf.secs[s].name, "global"))
					fprintf(f, "--name=%s ", jf.secs[s].name);
				for (size_t k = 0; k < jf.secs[s].nkeys; k++)
					put_option(f, &jf.secs[s].keys[k]);
			}
			fputc('\n', f);
		}
		jobfile_free(&jf);
	}
	free(d.notes);
	return ret < 0 ? EXIT_USAGE : 0;
}

/* MiB/s of checksum t over buf: passes until CRC_MIN_NS have gone by. */
static double crc_speed(enum checksum_type t, const uint8_t *buf)
{
	uint8_t out[CHECKSUM_MAX];
	uint64_t t0 = clock_mono_ns(), ns, passes = 0;

	do {
		checksum(t, buf, CRC_BUF_BYTES, out);
		passes++;
		ns = clock_mono_ns() - t0;
	} while (ns < CRC_MIN_NS);
	return (double)passes * CRC_BUF_BYTES / (1 << 20) / ((double)ns / NS_PER_SEC);
}

/* Whether name is in the comma-separated list (NULL or "" is every name). */
static bool in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	if (!list || !*list)
		return true;
	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
		if (strcspn(p, ",") == len && !strncmp(p, name, len))
			return true;
	return false;
}

int cli_crctest(FILE *f, const char *types)
{
	uint8_t *buf;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	/* verify's methods, every one: fio's murmur3, jhash and fnv verify nothing */
	for (const char *p = types; p && *p; p += strcspn(p, ","), p += *p == ',') {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < CSUM_NKINDS; i++)
			if (strlen(checksum_kinds[i].name) == len &&
			    !strncmp(p, checksum_kinds[i].name, len))
				break;
		if (i == CSUM_NKINDS) {
			fprintf(stderr, "%s: --crctest: unknown checksum '%.*s' (iojob's are "
				"verify's:", prog_name(), (int)len, p);
			for (i = 0; i < CSUM_NKINDS; i++)
				fprintf(stderr, " %s", checksum_kinds[i].name);
			fputs(")\n", stderr);
			return EXIT_USAGE;
		}
	}
	buf = malloc(CRC_BUF_BYTES);
	if (!buf) {
		fprintf(stderr, "%s: --crctest: out of memory\n", prog_name());
		return EXIT_JOB_FAILED;
	}
	for (size_t i = 0; i < CRC_BUF_BYTES; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift: data, not zeros */
		buf[i] = (uint8_t)x;
	}
	for (unsigned i = 0; i < CSUM_NKINDS; i++)
		if (in_list(types, checksum_kinds[i].name))
			fprintf(f, "%s:\t\t%8.2f MiB/sec\n", checksum_kinds[i].name,
				crc_speed((enum checksum_type)i, buf));
	free(buf);
	return 0;
}

int cli_inflate_log(FILE *f, const char *path)
{
	FILE *in = fopen(path, "rb");
	uint8_t *buf = NULL, *grown;
	size_t len = 0, cap = 0, n;
	int ret;

	if (!in) {
		fprintf(stderr, "%s: --inflate-log '%s': %s\n", prog_name(), path, strerror(errno));
		return EXIT_USAGE;
	}
	do {
		if (len == cap) {
			grown = realloc(buf, cap + INFLATE_STEP);
			if (!grown) {
				fclose(in);
				free(buf);
				fprintf(stderr, "%s: --inflate-log '%s': out of memory\n",
					prog_name(), path);
				return EXIT_JOB_FAILED;
			}
			buf = grown;
			cap += INFLATE_STEP;
		}
		n = fread(buf + len, 1, cap - len, in);
		len += n;
	} while (n);
	ret = ferror(in) ? Z_ERRNO : joblog_inflate(f, buf, len);
	fclose(in);
	free(buf);
	if (ret == Z_ERRNO)
		fprintf(stderr, "%s: --inflate-log '%s': cannot read it\n", prog_name(), path);
	else if (ret < 0)
		fprintf(stderr, "%s: --inflate-log '%s': not a log fio compressed (%s)\n", prog_name(),
			path, ret == Z_MEM_ERROR ? "out of memory" : "bad zlib data");
	return ret < 0 ? EXIT_USAGE : 0;
}

int cli_debug(const char *categories)
{
	if (!strcmp(categories, "?")) {
		for (size_t i = 0; i < ARRAY_SIZE(debug_names); i++)
			printf("%s%s", i ? "," : "", debug_names[i]);
		printf("\n");
		return 0;
	}
	for (const char *p = categories; *p; p += strcspn(p, ","), p += *p == ',') {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < ARRAY_SIZE(debug_names); i++)
			if (strlen(debug_names[i]) == len && !strncmp(p, debug_names[i], len))
				break;
		if (i == ARRAY_SIZE(debug_names)) {
			fprintf(stderr, "%s: --debug: unknown category '%.*s' (--debug=? lists "
				"fio's)\n", prog_name(), (int)len, p);
			return EXIT_USAGE;
		}
	}
	fprintf(stderr, "%s: note: --debug=%s: iojob has no debug log; the report, "
		"--parse-only and the notes say what it does\n", prog_name(), categories);
	return EXIT_GO_ON;
}

int cli_idle_prof(struct cli *c, const char *mode)
{
	static const char *const modes[] = { "calibrate", "system", "percpu" };
	struct report_idle res;
	struct idle_prof *ip;
	int err;

	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(mode, modes[i]))
			c->idle_mode = (enum report_idle_mode)(REPORT_IDLE_CALIBRATE + i);
	if (c->idle_mode == REPORT_IDLE_NONE) {
		fprintf(stderr, "%s: --idle-prof takes system, percpu or calibrate, not '%s'\n",
			prog_name(), mode);
		return EXIT_USAGE;
	}
	if (c->idle_mode != REPORT_IDLE_CALIBRATE)
		return EXIT_GO_ON;
	/* as fio: the unit of work timed on each CPU, printed, and no job run */
	err = idle_prof_start(REPORT_IDLE_CALIBRATE, &ip);
	if (err < 0) {
		fprintf(stderr, "%s: --idle-prof: %s\n", prog_name(), strerror(-err));
		return EXIT_JOB_FAILED;
	}
	idle_prof_stop(ip, &res);
	report_idle_text(stdout, &res);
	idle_prof_free(ip);
	return 0;
}
