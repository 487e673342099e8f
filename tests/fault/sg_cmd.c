/*
 * The SCSI commands the target emulator serves, against the bytes of a regular file: READ,
 * WRITE, WRITE AND VERIFY, WRITE SAME, WRITE STREAM, VERIFY (10 and 16), SYNCHRONIZE
 * CACHE, UNMAP, READ CAPACITY (10 and 16) and STREAM CONTROL. Anything else is an ILLEGAL
 * REQUEST, as a device that lacks the command says.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sg_target.h"

#define CHECK_CONDITION	0x02
#define DRIVER_SENSE	0x08
#define DID_ERROR	0x07

static uint64_t be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = n; i-- > 0; v >>= 8)
		p[i] = (uint8_t)v;
}

static const char *kind_of(unsigned op, unsigned sa)
{
	switch (op) {
	case 0x28: case 0x88:
		return "read";
	case 0x2a: case 0x8a: case 0x2e: case 0x8e: case 0x41: case 0x93: case 0x9a:
		return "write";
	case 0x2f: case 0x8f:
		return "verify";
	case 0x42:
		return "unmap";
	case 0x35: case 0x91:
		return "sync";
	case 0x25:
		return "rcap10";
	case 0x9e:
		return sa == 0x10 ? "rcap16" : sa == 0x14 ? "stream" : "other";
	default:
		return "other";
	}
}

static void decode_unmap(const struct sg_io_hdr *h, struct sg_cmd_info *ci)
{
	const uint8_t *pl = h->dxferp;
	size_t at = 0;
	unsigned n;

	if (!pl || h->dxfer_len < 8)
		return;
	n = (unsigned)be(pl + 2, 2) / 16;
	for (unsigned i = 0; i < n && 8 + 16 * (i + 1) <= h->dxfer_len; i++) {
		const uint8_t *d = pl + 8 + 16 * i;
		int w = snprintf(ci->ranges + at, sizeof(ci->ranges) - at, "%s%llu+%u",
				 i ? "," : "", (unsigned long long)be(d, 8), (unsigned)be(d + 8, 4));

		if (w < 0 || (size_t)w >= sizeof(ci->ranges) - at)
			break;
		at += (size_t)w;
	}
}

void sg_cmd_decode(const struct sg_io_hdr *h, struct sg_cmd_info *ci)
{
	const uint8_t *c = h->cmdp;

	ci->op = c[0];
	ci->b1 = c[1];
	ci->sa = c[0] == 0x9e ? c[1] & 0x1f : 0;
	ci->kind = kind_of(ci->op, ci->sa);
	snprintf(ci->result, sizeof(ci->result), "good");
	if (c[0] == 0x9a) {
		ci->lba = be(c + 2, 8);
		ci->stream = (unsigned)be(c + 10, 2);
		ci->blocks = (uint32_t)be(c + 12, 2);
	} else if (c[0] == 0x9e) {
		if (ci->sa == 0x14)
			ci->stream = (unsigned)be(c + 4, 2);
	} else if ((c[0] >> 5) == 1 || c[0] == 0x41) {	/* 10-byte CDBs */
		ci->lba = be(c + 2, 4);
		ci->blocks = (uint32_t)be(c + 7, 2);
	} else if ((c[0] >> 5) == 4) {			/* 16-byte CDBs */
		ci->lba = be(c + 2, 8);
		ci->blocks = (uint32_t)be(c + 10, 4);
	}
	if (c[0] == 0x42)
		decode_unmap(h, ci);
}

void sg_cmd_check(struct sg_io_hdr *h, struct sg_cmd_info *ci, int key, int asc, int ascq)
{
	uint8_t sb[18] = { 0x70, 0, (uint8_t)key, 0, 0, 0, 0, 10, 0, 0, 0, 0, (uint8_t)asc,
			   (uint8_t)ascq };

	h->status = CHECK_CONDITION;
	h->masked_status = CHECK_CONDITION >> 1;
	h->driver_status = DRIVER_SENSE;
	h->info = SG_INFO_CHECK;
	h->resid = (int)h->dxfer_len;
	if (h->sbp && h->mx_sb_len) {
		unsigned n = h->mx_sb_len < sizeof(sb) ? h->mx_sb_len : sizeof(sb);

		memcpy(h->sbp, sb, n);
		h->sb_len_wr = (unsigned char)n;
	}
	snprintf(ci->result, sizeof(ci->result), "check-%x-%02x-%02x", key, asc, ascq);
}

/* Move n bytes at off between buf and the file, whole: beyond its end a read is zeros. */
static int medium(struct target *t, void *buf, size_t n, uint64_t off, bool write)
{
	while (n) {
		ssize_t got = write ? syscall(SYS_pwrite64, t->fd, buf, n, (off_t)off) :
				      syscall(SYS_pread64, t->fd, buf, n, (off_t)off);

		if (got < 0)
			return -errno;
		if (!got) {
			memset(buf, 0, n);
			return 0;
		}
		buf = (char *)buf + got;
		n -= (size_t)got;
		off += (uint64_t)got;
	}
	return 0;
}

static int transfer(struct target *t, struct sg_io_hdr *h, struct sg_cmd_info *ci, bool write,
		    bool resid)
{
	size_t need = (size_t)ci->blocks * t->lbs, moved = need;
	int want = write ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV;

	if (h->dxfer_direction != want || h->dxfer_len < need) {
		h->host_status = DID_ERROR;
		h->info = SG_INFO_CHECK;
		snprintf(ci->result, sizeof(ci->result), "host-%x", DID_ERROR);
		return 0;
	}
	if (resid)
		moved = (size_t)(ci->blocks / 2) * t->lbs;
	h->resid = (int)(h->dxfer_len - moved);
	if (resid)
		snprintf(ci->result, sizeof(ci->result), "resid-%d", h->resid);
	return medium(t, h->dxferp, moved, ci->lba * t->lbs, write);
}

/* WRITE SAME: one block, or zeros with NDOB, over every block of the range. */
static int write_same(struct target *t, struct sg_io_hdr *h, struct sg_cmd_info *ci)
{
	bool ndob = ci->op == 0x93 && (ci->b1 & 1);
	char *blk = calloc(1, t->lbs);
	int ret = 0;

	if (!blk)
		return -ENOMEM;
	if (!ci->blocks || (!ndob && h->dxfer_len < t->lbs)) {
		sg_cmd_check(h, ci, 5, 0x24, 0);
		free(blk);
		return 0;
	}
	if (!ndob)
		memcpy(blk, h->dxferp, t->lbs);
	for (uint32_t i = 0; !ret && i < ci->blocks; i++)
		ret = medium(t, blk, t->lbs, (ci->lba + i) * t->lbs, true);
	free(blk);
	return ret;
}

/* VERIFY: BYTCHK 00 checks the medium only, 01 compares the data sent, 11 one block sent. */
static int verify(struct target *t, struct sg_io_hdr *h, struct sg_cmd_info *ci)
{
	unsigned bytchk = (ci->b1 >> 1) & 3;
	char *blk = malloc(t->lbs);
	int ret = 0;

	if (!blk)
		return -ENOMEM;
	if (bytchk && h->dxfer_len < (bytchk == 3 ? t->lbs : ci->blocks * t->lbs)) {
		sg_cmd_check(h, ci, 5, 0x24, 0);
		free(blk);
		return 0;
	}
	for (uint32_t i = 0; !ret && bytchk && i < ci->blocks; i++) {
		const char *sent = (const char *)h->dxferp + (bytchk == 3 ? 0 : (size_t)i * t->lbs);

		ret = medium(t, blk, t->lbs, (ci->lba + i) * t->lbs, false);
		if (!ret && memcmp(blk, sent, t->lbs)) {
			sg_cmd_check(h, ci, 0x0e, 0x1d, 0);	/* MISCOMPARE */
			break;
		}
	}
	free(blk);
	return ret;
}

static int unmap(struct target *t, struct sg_io_hdr *h, struct sg_cmd_info *ci)
{
	const uint8_t *pl = h->dxferp;
	unsigned n;

	if (!pl || h->dxfer_len < 8 || h->dxfer_direction != SG_DXFER_TO_DEV) {
		sg_cmd_check(h, ci, 5, 0x26, 0);	/* INVALID FIELD IN PARAMETER LIST */
		return 0;
	}
	n = (unsigned)be(pl + 2, 2) / 16;
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *d = pl + 8 + 16 * i;
		uint64_t lba = be(d, 8), nb = be(d + 8, 4);

		if (8 + 16 * (i + 1) > h->dxfer_len || lba + nb > t->blocks) {
			sg_cmd_check(h, ci, 5, 0x21, 0);
			return 0;
		}
		if (syscall(SYS_fallocate, t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			    (off_t)(lba * t->lbs), (off_t)(nb * t->lbs)) < 0)
			return -errno;
	}
	return 0;
}

static int capacity(struct target *t, struct sg_io_hdr *h, bool sixteen)
{
	uint8_t d[32] = { 0 };
	uint64_t last = t->blocks - 1;
	size_t n = sixteen ? 32 : 8;

	if (sixteen) {
		put_be(d, last, 8);
		put_be(d + 8, t->lbs, 4);
	} else {
		put_be(d, last > 0xffffffffULL ? 0xffffffffULL : last, 4);
		put_be(d + 4, t->lbs, 4);
	}
	if (n > h->dxfer_len)
		n = h->dxfer_len;
	memcpy(h->dxferp, d, n);
	h->resid = (int)(h->dxfer_len - n);
	return 0;
}

static int stream_control(struct sg_io_hdr *h, struct sg_cmd_info *ci, uint16_t *next)
{
	unsigned ctl = (ci->b1 >> 5) & 3;
	uint8_t d[8] = { 0 };

	if (ctl == 2)
		return 0;	/* close */
	if (ctl != 1 || h->dxfer_len < 8) {
		sg_cmd_check(h, ci, 5, 0x24, 0);
		return 0;
	}
	ci->stream = *next;
	put_be(d + 4, (*next)++, 2);
	memcpy(h->dxferp, d, sizeof(d));
	return 0;
}

int sg_cmd_exec(struct target *t, struct sg_io_hdr *h, struct sg_cmd_info *ci, bool resid,
		uint16_t *next_stream)
{
	const char *k = ci->kind;

	if ((!strcmp(k, "read") || !strcmp(k, "write") || !strcmp(k, "verify")) &&
	    ci->lba + ci->blocks > t->blocks) {
		sg_cmd_check(h, ci, 5, 0x21, 0);	/* LBA OUT OF RANGE */
		return 0;
	}
	if (ci->op == 0x9a && !ci->stream) {
		sg_cmd_check(h, ci, 5, 0x24, 0);
		return 0;
	}
	switch (ci->op) {
	case 0x28: case 0x88:
		return transfer(t, h, ci, false, resid);
	case 0x2a: case 0x8a: case 0x2e: case 0x8e: case 0x9a:
		return transfer(t, h, ci, true, resid);
	case 0x41: case 0x93:
		return write_same(t, h, ci);
	case 0x2f: case 0x8f:
		return verify(t, h, ci);
	case 0x35: case 0x91:
		return syscall(SYS_fdatasync, t->fd) < 0 ? -errno : 0;
	case 0x42:
		return unmap(t, h, ci);
	case 0x25:
		return capacity(t, h, false);
	case 0x9e:
		if (ci->sa == 0x10)
			return capacity(t, h, true);
		if (ci->sa == 0x14)
			return stream_control(h, ci, next_stream);
		break;
	}
	sg_cmd_check(h, ci, 5, 0x20, 0);		/* INVALID COMMAND OPERATION CODE */
	return 0;
}

int sg_target_errno(const char *s)
{
	static const struct {
		const char *name;
		int err;
	} names[] = {
		{ "EIO", EIO }, { "EINVAL", EINVAL }, { "ENOTTY", ENOTTY }, { "EAGAIN", EAGAIN },
		{ "ENOMEM", ENOMEM }, { "ENODEV", ENODEV }, { "EBUSY", EBUSY }, { "ENXIO", ENXIO },
		{ "EPERM", EPERM }, { "ETIMEDOUT", ETIMEDOUT },
	};
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].err;
	v = strtol(s, &end, 10);
	return *s && !*end && v > 0 && v < 4096 ? (int)v : 0;
}
