/*
 * A failed SCSI command in words, for the sg engine's error messages: the SCSI status,
 * the sense key and the ASC/ASCQ pair of the sense data (fixed or descriptor format),
 * Linux's host and driver status, a residual count, and the command itself. The names are
 * SPC-4's and the kernel's.
 */
#include "engine/ioengines/sg_scsi.h"

#include <scsi/sg.h>
#include <stdarg.h>
#include <stdio.h>

#include "base/units.h"

static const char *const sense_keys[16] = {
	"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR", "HARDWARE ERROR",
	"ILLEGAL REQUEST", "UNIT ATTENTION", "DATA PROTECT", "BLANK CHECK", "VENDOR SPECIFIC",
	"COPY ABORTED", "ABORTED COMMAND", "RESERVED", "VOLUME OVERFLOW", "MISCOMPARE",
	"COMPLETED",
};

/* The additional sense codes a storage test meets most; others are given as numbers. */
static const struct {
	uint8_t asc, ascq;
	const char *what;
} asc_names[] = {
	{ 0x00, 0x00, "no additional sense information" },
	{ 0x04, 0x00, "logical unit not ready, cause not reportable" },
	{ 0x04, 0x01, "logical unit is in process of becoming ready" },
	{ 0x04, 0x02, "logical unit not ready, initializing command required" },
	{ 0x0c, 0x00, "write error" },
	{ 0x10, 0x01, "logical block guard check failed" },
	{ 0x11, 0x00, "unrecovered read error" },
	{ 0x1d, 0x00, "miscompare during verify operation" },
	{ 0x20, 0x00, "invalid command operation code" },
	{ 0x21, 0x00, "logical block address out of range" },
	{ 0x24, 0x00, "invalid field in cdb" },
	{ 0x25, 0x00, "logical unit not supported" },
	{ 0x26, 0x00, "invalid field in parameter list" },
	{ 0x27, 0x00, "write protected" },
	{ 0x29, 0x00, "power on, reset, or bus device reset occurred" },
	{ 0x2a, 0x01, "mode parameters changed" },
	{ 0x3a, 0x00, "medium not present" },
	{ 0x44, 0x00, "internal target failure" },
	{ 0x55, 0x04, "insufficient registration resources" },
};

static const struct {
	uint8_t code;
	const char *what;
} scsi_status[] = {
	{ 0x02, "CHECK CONDITION" }, { 0x04, "CONDITION MET" }, { 0x08, "BUSY" },
	{ 0x18, "RESERVATION CONFLICT" }, { 0x22, "COMMAND TERMINATED" },
	{ 0x28, "TASK SET FULL" }, { 0x30, "ACA ACTIVE" }, { 0x40, "TASK ABORTED" },
};

/* Linux's DID_* codes, from 1 on. */
static const char *const host_status[] = {
	"DID_OK", "DID_NO_CONNECT", "DID_BUS_BUSY", "DID_TIME_OUT", "DID_BAD_TARGET",
	"DID_ABORT", "DID_PARITY", "DID_ERROR", "DID_RESET", "DID_BAD_INTR", "DID_PASSTHROUGH",
	"DID_SOFT_ERROR", "DID_IMM_RETRY", "DID_REQUEUE", "DID_TRANSPORT_DISRUPTED",
	"DID_TRANSPORT_FAILFAST", "DID_TARGET_FAILURE", "DID_NEXUS_FAILURE",
	"DID_ALLOC_FAILURE", "DID_MEDIUM_ERROR",
};

/* Linux's DRIVER_* codes, the low four bits of driver_status. */
static const char *const driver_status[] = {
	"DRIVER_OK", "DRIVER_BUSY", "DRIVER_SOFT", "DRIVER_MEDIA", "DRIVER_ERROR",
	"DRIVER_INVALID", "DRIVER_TIMEOUT", "DRIVER_HARD", "DRIVER_SENSE",
};

struct out {
	char *buf;
	size_t len, at;
};

static void say(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->at >= o->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->at, o->len - o->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->at = o->at + (size_t)n < o->len ? o->at + (size_t)n : o->len - 1;
}

static const char *status_name(unsigned code)
{
	for (size_t i = 0; i < ARRAY_SIZE(scsi_status); i++)
		if (scsi_status[i].code == code)
			return scsi_status[i].what;
	return "unknown status";
}

static void say_sense(struct out *o, const uint8_t *sb, unsigned n)
{
	unsigned key, asc, ascq, fmt = n ? sb[0] & 0x7f : 0;

	if (fmt == 0x70 || fmt == 0x71) {
		if (n < 14) {
			say(o, ", sense data too short (%u bytes)", n);
			return;
		}
		key = sb[2] & 0xf, asc = sb[12], ascq = sb[13];
	} else if (fmt == 0x72 || fmt == 0x73) {
		if (n < 4) {
			say(o, ", sense data too short (%u bytes)", n);
			return;
		}
		key = sb[1] & 0xf, asc = sb[2], ascq = sb[3];
	} else {
		if (n)
			say(o, ", sense data of unknown format 0x%02x", sb[0]);
		return;
	}
	say(o, ", sense key %s, ASC/ASCQ 0x%02x/0x%02x", sense_keys[key], asc, ascq);
	for (size_t i = 0; i < ARRAY_SIZE(asc_names); i++)
		if (asc_names[i].asc == asc && asc_names[i].ascq == ascq)
			say(o, " (%s)", asc_names[i].what);
}

size_t sg_describe(const struct sg_io_hdr *h, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	const char *sep = "";

	if (!len)
		return 0;
	buf[0] = '\0';
	if (h->status) {
		say(&o, "SCSI status %s (0x%02x)", status_name(h->status), h->status);
		say_sense(&o, h->sbp, h->sb_len_wr);
		sep = ", ";
	}
	if (h->host_status) {
		say(&o, "%shost status %s (0x%02x)", sep, h->host_status < ARRAY_SIZE(host_status) ?
		    host_status[h->host_status] : "unknown", h->host_status);
		sep = ", ";
	}
	if (h->driver_status & 0xf) {
		unsigned d = h->driver_status & 0xf;

		say(&o, "%sdriver status %s (0x%02x)", sep, d < ARRAY_SIZE(driver_status) ?
		    driver_status[d] : "unknown", h->driver_status);
		sep = ", ";
	}
	if (!*sep)
		say(&o, "the sg driver reported a failure without a status");
	if (h->resid)
		say(&o, ", %d of %u bytes not transferred", h->resid, h->dxfer_len);
	say(&o, "; cdb");
	for (unsigned i = 0; h->cmdp && i < h->cmd_len; i++)
		say(&o, " %02x", h->cmdp[i]);
	return o.at;
}
