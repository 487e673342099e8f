/*
 * Private to the SCSI target emulator: what sg_target.c (the system calls, the faults, the
 * log) shares with sg_cmd.c (what each command does to the medium).
 */
#ifndef TESTS_FAULT_SG_TARGET_H
#define TESTS_FAULT_SG_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct sg_io_hdr;

/* One emulated device: a regular file, and its capacity. */
struct target {
	dev_t dev;
	ino_t ino;
	int fd;			/* the emulator's own descriptor of the file */
	unsigned lbs;
	uint64_t blocks;
};

/* A command as the log shows it. */
struct sg_cmd_info {
	const char *kind;	/* the fault class: read write verify unmap sync rcap10 ... */
	unsigned op, sa, b1;	/* opcode, service action (0x9e), byte 1 (FUA, BYTCHK, NDOB) */
	uint64_t lba;
	uint32_t blocks;
	unsigned stream;
	char ranges[256];	/* UNMAP's "LBA+N,LBA+N" */
	char result[48];	/* good, check-K-ASC-ASCQ, resid-N */
};

/* Fill ci from h's CDB (and UNMAP's parameter list). */
void sg_cmd_decode(const struct sg_io_hdr *h, struct sg_cmd_info *ci);

/*
 * Run the command on t's file: h's status, sense and residual are set as a device would.
 * resid: move half the blocks of a read or write and report the rest as residual.
 * next_stream: the stream id the next OPEN of STREAM CONTROL assigns.
 * Returns 0 (whatever the SCSI status), or -errno when the file itself failed.
 */
int sg_cmd_exec(struct target *t, struct sg_io_hdr *h, struct sg_cmd_info *ci, bool resid,
		uint16_t *next_stream);

/* End h with CHECK CONDITION and fixed-format sense data key/asc/ascq. */
void sg_cmd_check(struct sg_io_hdr *h, struct sg_cmd_info *ci, int key, int asc, int ascq);

/* The errno named s (EIO) or numbered, 0 when s is neither. */
int sg_target_errno(const char *s);

#endif
