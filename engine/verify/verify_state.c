/*
 * verify_state_save and verify_state_load: fio's binary state file (version 3), which
 * fio's own fio-verify-state reads and fio's verify_state_load takes. It holds, per job,
 * how many writes were issued and the offsets of each file's last iodepth completed ones;
 * a verify_only run with it replays the job's writes as reads, as fio does, as far as they
 * surely reached.
 */
#include "engine/verify/verify.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/devices/path_guard.h"
#include "engine/verify/verify_priv.h"
#include "engine/worker.h"

#define STATE_VERSION	3
#define STATE_NAME_LEN	64

/* The file's layout, little-endian (fio's verify-state.h, as facts of the format). */
struct state_hdr {
	uint64_t version;
	uint64_t size;		/* of what follows */
	uint64_t crc;		/* fio's crc32c of what follows: from ~0, no final xor */
};

struct state_comp {
	uint64_t fileno;
	uint64_t offset;
};

struct state_list {
	uint64_t no_comps;
	uint32_t depth;
	uint32_t nofiles;
	uint64_t numberio;	/* writes issued */
	uint64_t index;		/* the job's number in the run, from 0 */
	uint64_t rand_use64;	/* fio's random state: iojob's is not fio's, it stays zero */
	uint64_t rand_state[6];
	uint8_t name[STATE_NAME_LEN];
	struct state_comp comps[];	/* depth * nofiles, no_comps of them used */
};

_Static_assert(sizeof(struct state_list) == 152, "fio's thread_io_list is 152 bytes");

/* fio's name for job INDEX's state file, in --aux-path or the cwd; '/' in the name: '.'. */
static int state_path(char path[PATH_MAX], const struct worker *w, unsigned index)
{
	const char *dir = w->aux_path ? w->aux_path : "";
	size_t at = strlen(dir) + (*dir != '\0');

	if ((size_t)snprintf(path, PATH_MAX, "%s%slocal-%s-%u-verify.state", dir,
			     *dir ? "/" : "", w->job->name, index) >= PATH_MAX)
		return -ENAMETOOLONG;
	for (char *p = path + at; *p; p++)
		if (*p == '/')
			*p = '.';
	return 0;
}

/* Each file's last min(writes, iodepth) completed writes, newest first, as fio lists them. */
static struct state_list *make_state(const struct worker *w, unsigned index, size_t *size)
{
	const struct verify *v = w->verify;
	unsigned depth = w->job->iodepth;
	/* verify_policy=fsynced: the writes as the last sync that completed left them */
	bool durable = v->durable_off != NULL;
	uint64_t *const *offs = durable ? v->durable_off : v->last_off;
	const uint64_t *dones = durable ? v->durable_done : v->writes_done;
	struct state_list *s;
	uint64_t n = 0;

	*size = sizeof(*s) + (size_t)depth * w->nfiles * sizeof(s->comps[0]);
	s = calloc(1, *size);
	if (!s)
		return NULL;
	for (unsigned i = 0; i < w->nfiles; i++) {
		uint64_t done = dones[i], k = done < depth ? done : depth;

		for (uint64_t back = 1; back <= k; back++, n++) {
			s->comps[n].fileno = htole64(i);
			s->comps[n].offset = htole64(offs[i][(done - back) % depth]);
		}
	}
	s->no_comps = htole64(n);
	s->depth = htole32(depth);
	s->nofiles = htole32(w->nfiles);
	s->numberio = htole64(durable ? v->fsynced_writes : w->st->issued[IO_WRITE]);
	s->index = htole64(index);
	snprintf((char *)s->name, sizeof(s->name), "%s", w->job->name);
	return s;
}

int verify_save_state(struct worker *w, unsigned index)
{
	const struct job_desc *j = w->job;
	struct state_list *s = NULL;
	struct state_hdr h;
	char path[PATH_MAX], why[512];
	size_t size;
	int fd = -1, err = ENOMEM;

	/* the completions are kept only by jobs that write what they verify */
	if (!w->verify || !j->verify_state_save || !rw_does(j->rw, IO_WRITE) || j->verify_only)
		return 0;
	if (state_path(path, w, index) < 0)
		return 0;
	s = make_state(w, index, &size);
	if (!s)
		goto fail;
	h.version = htole64(STATE_VERSION);
	h.size = htole64(size);
	h.crc = htole64(crc32c_fio(s, size));
	fd = path_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));
	if (fd < 0) {
		free(s);
		worker_fail(w, -fd, "verify_state_save: '%s': %s", path, why);
		return fd;
	}
	if (write(fd, &h, sizeof(h)) != (ssize_t)sizeof(h) || write(fd, s, size) != (ssize_t)size)
		err = errno ? errno : EIO;
	else
		err = 0;
	if (close(fd) < 0 && !err)
		err = errno;
	free(s);
	if (!err)
		return 0;
fail:
	worker_fail(w, err, "verify_state_save: '%s': %s", path, strerror(err));
	return -err;
}

/* Read and check the file: the job's list, host-endian, or NULL with why set. */
static struct state_list *read_state(int fd, const struct worker *w, unsigned index,
				     const char **why)
{
	struct state_hdr h;
	struct state_list *s;
	size_t size;

	*why = "it is not a fio verify state file (version 3)";
	if (read(fd, &h, sizeof(h)) != (ssize_t)sizeof(h) || le64toh(h.version) != STATE_VERSION)
		return NULL;
	size = le64toh(h.size);
	*why = "it is cut short or too long";
	if (size < sizeof(*s) || size > (64u << 20))
		return NULL;
	s = malloc(size + 1);
	if (!s)
		return NULL;
	if (read(fd, s, size + 1) != (ssize_t)size) {
		free(s);
		return NULL;
	}
	*why = "its checksum is wrong: the file is corrupt";
	if (crc32c_fio(s, size) != le64toh(h.crc))
		goto bad;
	s->depth = le32toh(s->depth);
	s->nofiles = le32toh(s->nofiles);
	s->no_comps = le64toh(s->no_comps);
	s->numberio = le64toh(s->numberio);
	s->index = le64toh(s->index);
	*why = "it is another job's, or lists more completions than it has room for";
	s->name[STATE_NAME_LEN - 1] = '\0';
	if (strncmp((char *)s->name, w->job->name, STATE_NAME_LEN - 1) || s->index != index ||
	    sizeof(*s) + (size_t)s->depth * s->nofiles * sizeof(s->comps[0]) != size ||
	    s->no_comps > (uint64_t)s->depth * s->nofiles)
		goto bad;
	for (uint64_t i = 0; i < s->no_comps; i++) {
		s->comps[i].fileno = le64toh(s->comps[i].fileno);
		s->comps[i].offset = le64toh(s->comps[i].offset);
	}
	return s;
bad:
	free(s);
	return NULL;
}

static bool completed(const struct state_list *s, unsigned fi, uint64_t off)
{
	for (uint64_t i = 0; i < s->no_comps; i++)
		if (s->comps[i].fileno == fi && s->comps[i].offset == off)
			return true;
	return false;
}

bool verify_state_reached(const struct verify *v, uint64_t k, unsigned fi, uint64_t off)
{
	const struct state_list *s = v->state;
	uint64_t n = s->numberio, d = s->depth;

	return (n > d && (k < d || n - k > d)) || completed(s, fi, off);
}

/* Why iojob cannot replay this state for this job, or NULL. */
static const char *unsupported(const struct worker *w, const struct state_list *s)
{
	bool fios_random = false;

	for (unsigned i = 0; i < 6; i++)
		fios_random |= s->rand_state[i] != 0;
	if (s->nofiles != w->nfiles)
		return "it is the state of a job over another number of files";
	/* iojob's own random order is its generator's: fio's is fio's, which it cannot run */
	if (rw_is_random(w->job->rw) && fios_random)
		return "it is the state of fio's random writes, whose order is fio's random "
		       "generator's: iojob replays its own";
	return NULL;
}

int verify_load_state(struct worker *w, unsigned index)
{
	const struct job_desc *j = w->job;
	struct verify *v = w->verify;
	struct state_list *s = NULL;
	char path[PATH_MAX];
	const char *why = "no memory";
	int fd;

	if (!v || !j->verify_state_load)
		return 0;
	if (state_path(path, w, index) < 0) {
		worker_fail(w, ENAMETOOLONG, "verify_state_load: the job's name is too long");
		return -ENAMETOOLONG;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		worker_fail(w, err, "verify_state_load: '%s': %s", path, strerror(err));
		return -err;
	}
	s = read_state(fd, w, index, &why);
	close(fd);
	if (s && !(why = unsupported(w, s))) {
		/* the job's plan, untouched yet, replays the writes from their start */
		v->state = s;
		v->replay = true;
		v->replay_left = s->numberio;
		return 0;
	}
	free(s);
	worker_fail(w, EINVAL, "verify_state_load: '%s': %s", path, why);
	return -EINVAL;
}
