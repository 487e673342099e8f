/*
 * The sg engine's look at a device before the run: whether it takes SG_IO at all (a loop
 * device, a partition, a regular file does not), its size and block size from READ
 * CAPACITY, as fio's engine sizes it, and whether the job's block sizes fit its blocks.
 */
#include "engine/ioengines/sg_scsi.h"

#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/ioengine.h"
#include "jobs/job.h"

/* The first block size of the job's directions that is not whole blocks of lbs, or 0. */
static uint64_t bad_bs(const struct job_desc *j, unsigned lbs)
{
	for (int d = 0; d < IO_NDIR; d++) {
		const struct dir_bs *b = &j->bs[d];

		if (!rw_does(j->rw, d))
			continue;
		if (b->min % lbs || b->max % lbs)
			return b->min % lbs ? b->min : b->max;
		for (unsigned i = 0; i < b->nsplit; i++)
			if (b->split[i].bs % lbs)
				return b->split[i].bs;
	}
	return 0;
}

/*
 * Before the run: only a device that takes SG_IO will do, sized by READ CAPACITY (as
 * fio's engine sizes it), and its block size must divide every I/O's.
 */
int sg_probe_device(const struct job_desc *j, struct io_file *f, bool streams, char *why,
		    size_t len)
{
	uint64_t blocks, bs;
	unsigned lbs = 0;
	int fd, version, ret = 0;

	if (!f->is_bdev && !f->is_chr) {
		snprintf(why, len, "%s: SG_IO is not supported there (sg drives SCSI block "
			 "devices, /dev/sdX, and sg character devices, /dev/sgN)", f->real_size ||
			 !access(f->path, F_OK) ? "a regular file" : "it does not exist");
		return -EINVAL;
	}
	fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "%s", strerror(errno));
		return -errno;
	}
	if (f->is_chr && ioctl(fd, SG_GET_VERSION_NUM, &version) < 0) {
		snprintf(why, len, "SG_IO is not supported there: it is a character device, but "
			 "no sg one (SG_GET_VERSION_NUM: %s)", strerror(errno));
		ret = -EINVAL;
	}
	if (!ret && (ret = sg_read_capacity(fd, &blocks, &lbs, why, len)) < 0 && ret != -EIO) {
		char io[128];

		snprintf(io, sizeof(io), "%s", why);
		snprintf(why, len, "SG_IO is not supported there (%s): sg needs a SCSI disk or "
			 "an sg device, and a loop device, a partition or a disk of another kind "
			 "is none", io);
		ret = -EINVAL;
	}
	close(fd);
	if (ret < 0)
		return -EINVAL;
	/* a block device's own block size is what its I/O must align to; an sg's is READ
	 * CAPACITY's, as fio takes them */
	if (f->is_chr)
		f->lbs = lbs;
	f->real_size = blocks * lbs;
	if ((bs = bad_bs(j, f->lbs))) {
		snprintf(why, len, "option 'bs': %llu is not a multiple of the device's logical "
			 "block size (%u bytes)", (unsigned long long)bs, f->lbs);
		return -EINVAL;
	}
	if (streams && job_bs_max(j) / f->lbs > 0xffff) {
		snprintf(why, len, "option 'bs': sg_write_mode=write_stream sends at most 65535 "
			 "blocks of %u bytes a command, not %llu", f->lbs,
			 (unsigned long long)(job_bs_max(j) / f->lbs));
		return -EINVAL;
	}
	return 0;
}
