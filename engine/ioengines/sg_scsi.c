/*
 * The sg engine's SCSI commands (SBC-4 layouts, big-endian fields) and the words for a
 * failed one's status and sense data. The numbers are the standard's and Linux's
 * <scsi/sg.h>; the engine (sg.c) decides when each is sent.
 */
#include "engine/ioengines/sg_scsi.h"

#include <errno.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "base/units.h"

#define LBA10_END	0xffffffffULL	/* fio's rule: from this LBA on, the 16-byte CDBs */

static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = n; i-- > 0; v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* The opcodes of each command, in its 10- and 16-byte forms. */
static const struct {
	uint8_t op10, op16, b1;	/* b1: byte 1's fixed bits (BYTCHK, NDOB) */
	bool fua, hipri, data;	/* FUA applies; HIPRI applies; the whole I/O is sent */
} write_ops[] = {
	[SG_MODE_WRITE]		  = { 0x2a, 0x8a, 0x00, true, true, true },
	[SG_MODE_WRITE_VERIFY]	  = { 0x2e, 0x8e, 0x00, false, false, true },
	[SG_MODE_WRITE_SAME]	  = { 0x41, 0x93, 0x00, false, false, false },
	[SG_MODE_WRITE_SAME_NDOB] = { 0x93, 0x93, 0x01, false, false, false },
	[SG_MODE_WRITE_STREAM]	  = { 0x9a, 0x9a, 0x00, true, false, true },
	[SG_MODE_VERIFY_00]	  = { 0x2f, 0x8f, 0x00, false, false, false },
	[SG_MODE_VERIFY_01]	  = { 0x2f, 0x8f, 0x02, false, false, true },
	[SG_MODE_VERIFY_11]	  = { 0x2f, 0x8f, 0x06, false, false, false },
};

unsigned sg_cdb_rw(uint8_t *cdb, bool write, int mode, const struct sg_rw *rw, uint32_t *xfer,
		   bool *hipri)
{
	bool big = rw->lba >= LBA10_END || rw->blocks > 0xffff;
	uint8_t op10 = 0x28, op16 = 0x88, b1 = 0;
	bool fua = true;

	memset(cdb, 0, SG_CDB_MAX);
	*xfer = rw->blocks * rw->lbs;
	*hipri = true;
	if (write) {
		op10 = write_ops[mode].op10;
		op16 = write_ops[mode].op16;
		b1 = write_ops[mode].b1;
		fua = write_ops[mode].fua;
		*hipri = write_ops[mode].hipri;
		if (!write_ops[mode].data)
			*xfer = mode == SG_MODE_WRITE_SAME || mode == SG_MODE_VERIFY_11 ? rw->lbs : 0;
	}
	cdb[1] = (uint8_t)(b1 | (fua && rw->fua ? 0x08 : 0));
	if (write && mode == SG_MODE_WRITE_STREAM) {
		/* WRITE STREAM(16): LBA, then the stream's id, then a 16-bit count */
		cdb[0] = op16;
		put_be(cdb + 2, rw->lba, 8);
		put_be(cdb + 10, rw->stream, 2);
		put_be(cdb + 12, rw->blocks, 2);
		return 16;
	}
	if (big || op10 == op16) {
		cdb[0] = op16;
		put_be(cdb + 2, rw->lba, 8);
		put_be(cdb + 10, rw->blocks, 4);
		return 16;
	}
	cdb[0] = op10;
	put_be(cdb + 2, rw->lba, 4);
	put_be(cdb + 7, rw->blocks, 2);
	return 10;
}

unsigned sg_cdb_sync(uint8_t *cdb)
{
	memset(cdb, 0, SG_CDB_MAX);
	cdb[0] = 0x35;		/* LBA 0 and no count: the whole medium */
	return 10;
}

void sg_unmap_range(uint8_t *param, unsigned i, uint64_t lba, uint32_t blocks)
{
	uint8_t *d = param + 8 + 16 * i;

	put_be(d, lba, 8);
	put_be(d + 8, blocks, 4);
	memset(d + 12, 0, 4);
}

unsigned sg_cdb_unmap(uint8_t *cdb, uint8_t *param, unsigned n, uint32_t *xfer)
{
	memset(cdb, 0, SG_CDB_MAX);
	*xfer = 8 + 16 * n;
	cdb[0] = 0x42;
	put_be(cdb + 7, *xfer, 2);		/* the parameter list's length */
	put_be(param, *xfer - 2, 2);		/* the data after this field */
	put_be(param + 2, 16 * n, 2);		/* the block descriptors' */
	memset(param + 4, 0, 4);
	return 10;
}

void sg_hdr_init(struct sg_io_hdr *h, uint8_t *cdb, unsigned len, uint8_t *sense, void *buf,
		 uint32_t xfer, int direction)
{
	memset(h, 0, sizeof(*h));
	h->interface_id = 'S';
	h->cmdp = cdb;
	h->cmd_len = (unsigned char)len;
	h->sbp = sense;
	h->mx_sb_len = SG_SENSE_MAX;
	h->dxferp = buf;
	h->dxfer_len = xfer;
	h->dxfer_direction = direction;
	h->timeout = SG_TIMEOUT_MS;
}

bool sg_hdr_failed(const struct sg_io_hdr *h)
{
	return (h->info & SG_INFO_OK_MASK) != SG_INFO_OK || h->status || h->host_status ||
	       h->driver_status;
}

/* One command through SG_IO, reading len bytes into buf. 0, -errno, or -EIO with why. */
static int sgio_in(int fd, uint8_t *cdb, unsigned cdb_len, void *buf, uint32_t len,
		   const char *what, char *why, size_t why_len)
{
	uint8_t sense[SG_SENSE_MAX];
	struct sg_io_hdr h;
	char desc[256];

	sg_hdr_init(&h, cdb, cdb_len, sense, buf, len, SG_DXFER_FROM_DEV);
	if (ioctl(fd, SG_IO, &h) < 0) {
		int err = errno;

		snprintf(why, why_len, "%s: SG_IO: %s", what, strerror(err));
		return -err;
	}
	if (!sg_hdr_failed(&h))
		return 0;
	sg_describe(&h, desc, sizeof(desc));
	snprintf(why, why_len, "%s failed: %s", what, desc);
	return -EIO;
}

int sg_read_capacity(int fd, uint64_t *blocks, unsigned *lbs, char *why, size_t len)
{
	uint8_t cdb[SG_CDB_MAX] = { 0x25 }, buf[32] = { 0 };
	uint64_t last = LBA10_END;
	int ret;

	ret = sgio_in(fd, cdb, 10, buf, 8, "READ CAPACITY(10)", why, len);
	if (ret < 0 && ret != -EIO)
		return ret;
	if (!ret) {
		last = get_be(buf, 4);
		*lbs = (unsigned)get_be(buf + 4, 4);
	}
	/* all ones, or (10) refused: the capacity needs READ CAPACITY(16) */
	if (last == LBA10_END) {
		memset(cdb, 0, sizeof(cdb));
		memset(buf, 0, sizeof(buf));
		cdb[0] = 0x9e;
		cdb[1] = 0x10;
		put_be(cdb + 10, sizeof(buf), 4);
		ret = sgio_in(fd, cdb, 16, buf, sizeof(buf), "READ CAPACITY(16)", why, len);
		if (ret < 0)
			return ret;
		last = get_be(buf, 8);
		*lbs = (unsigned)get_be(buf + 8, 4);
	}
	if (*lbs < 512 || *lbs & (*lbs - 1) || last == UINT64_MAX) {
		snprintf(why, len, "READ CAPACITY: the device says its blocks are %u bytes", *lbs);
		return -EIO;
	}
	*blocks = last + 1;
	return 0;
}

int sg_stream_control(int fd, bool open, uint16_t *id, char *why, size_t len)
{
	uint8_t cdb[SG_CDB_MAX] = { 0x9e }, buf[8] = { 0 };
	int ret;

	/* SERVICE ACTION IN(16), STREAM CONTROL (0x14) with STR_CTL 01b open, 10b close */
	cdb[1] = (uint8_t)(0x14 | (open ? 1 : 2) << 5);
	if (!open)
		put_be(cdb + 4, *id, 2);
	put_be(cdb + 10, sizeof(buf), 4);
	ret = sgio_in(fd, cdb, 16, buf, sizeof(buf), open ? "STREAM CONTROL (open)" :
		      "STREAM CONTROL (close)", why, len);
	if (ret < 0 || !open)
		return ret;
	*id = (uint16_t)get_be(buf + 4, 2);
	if (!*id) {
		snprintf(why, len, "STREAM CONTROL (open): the device assigned stream id 0");
		return -EIO;
	}
	return 0;
}
