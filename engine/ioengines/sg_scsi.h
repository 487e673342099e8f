/*
 * Private to the sg engine: the SCSI side of it. CDBs for its reads, writes (in each of
 * sg_write_mode's forms), trims and syncs; READ CAPACITY and STREAM CONTROL, sent with
 * SG_IO; and a failed command's status and sense data said in words.
 */
#ifndef ENGINE_IOENGINES_SG_SCSI_H
#define ENGINE_IOENGINES_SG_SCSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sg_io_hdr;
struct job_desc;
struct io_file;

#define SG_CDB_MAX	16
#define SG_SENSE_MAX	64
#define SG_TIMEOUT_MS	30000		/* as fio: no option sets it */
#define SG_FLAG_HIPRI	0x800		/* SGV4_FLAG_HIPRI: polled completion */
#define SG_UNMAP_MAX	4095		/* ranges in one UNMAP: its lengths are 16 bits */

/* sg_write_mode: what a write of the job sends. */
enum sg_write_mode {
	SG_MODE_WRITE,			/* WRITE(10/16) */
	SG_MODE_WRITE_VERIFY,		/* WRITE AND VERIFY(10/16), BYTCHK 0 */
	SG_MODE_WRITE_SAME,		/* WRITE SAME(10/16): one block sent, bs written */
	SG_MODE_WRITE_SAME_NDOB,	/* WRITE SAME(16) with NDOB: nothing sent, zeros */
	SG_MODE_WRITE_STREAM,		/* WRITE STREAM(16) of stream_id */
	SG_MODE_VERIFY_00,		/* VERIFY(10/16) BYTCHK 00: the medium alone */
	SG_MODE_VERIFY_01,		/* BYTCHK 01: compare the block sent */
	SG_MODE_VERIFY_11,		/* BYTCHK 11: compare one block with every block */
};

/* One read or write as the device sees it. */
struct sg_rw {
	uint64_t lba;
	uint32_t blocks;
	unsigned lbs;
	bool fua;
	uint16_t stream;		/* WRITE STREAM's id */
};

/*
 * The CDB of a read (write false) or of a write in mode; returns its length and sets *xfer
 * to the bytes that go with it (a whole block for WRITE SAME, none for NDOB). fio's choice
 * of size: the 16-byte form from LBA 0xffffffff on, and (where fio would cut the count)
 * for more than 65535 blocks. *hipri: whether SGV4_FLAG_HIPRI may go with it.
 */
unsigned sg_cdb_rw(uint8_t *cdb, bool write, int mode, const struct sg_rw *rw, uint32_t *xfer,
		   bool *hipri);

/* SYNCHRONIZE CACHE(10) of the whole medium; its length. */
unsigned sg_cdb_sync(uint8_t *cdb);

/* UNMAP of the n ranges already in param (sg_unmap_range); its length. *xfer: param's. */
unsigned sg_cdb_unmap(uint8_t *cdb, uint8_t *param, unsigned n, uint32_t *xfer);
void sg_unmap_range(uint8_t *param, unsigned i, uint64_t lba, uint32_t blocks);

/* Set h up for one command on cdb (len bytes), moving xfer bytes of buf in direction. */
void sg_hdr_init(struct sg_io_hdr *h, uint8_t *cdb, unsigned len, uint8_t *sense, void *buf,
		 uint32_t xfer, int direction);

/* Whether h came back failed: a SCSI, host or driver status, or the driver's check. */
bool sg_hdr_failed(const struct sg_io_hdr *h);

/*
 * The device's capacity, with READ CAPACITY(10) and, for the large or where (10) fails,
 * READ CAPACITY(16), sent through SG_IO on fd. Returns 0, or -errno with why set: the
 * errno of the ioctl itself (ENOTTY, EINVAL: no SG_IO there), else -EIO.
 */
int sg_read_capacity(int fd, uint64_t *blocks, unsigned *lbs, char *why, size_t len);

/* STREAM CONTROL: open a stream (its id in *id) or close *id. 0, or -errno with why. */
int sg_stream_control(int fd, bool open, uint16_t *id, char *why, size_t len);

/*
 * Say what went wrong with h, which sg_hdr_failed(): the SCSI status, the sense key and
 * ASC/ASCQ in words, the host and driver status, and the command. The length written.
 */
size_t sg_describe(const struct sg_io_hdr *h, char *buf, size_t len);

/*
 * Before j runs on f: refuse a file without SG_IO, size f by READ CAPACITY (f->real_size,
 * and f->lbs for an sg device), refuse block sizes that are not whole blocks (or, with
 * streams, more than WRITE STREAM's 65535 blocks). 0, or -EINVAL with why set.
 */
int sg_probe_device(const struct job_desc *j, struct io_file *f, bool streams, char *why,
		    size_t len);

#endif
