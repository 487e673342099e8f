/*
 * What a block device holds, as libblkid sees it: the low-level probe that wipefs and
 * mkfs use, over the superblocks chain (file systems, RAID members, crypto, swap) and the
 * partitions chain (partition tables). Like wipefs, it walks every signature, checksum
 * failures included, so a damaged or half-wiped one (a LUKS2 volume whose primary header
 * is gone) still counts.
 */
#include "engine/devices/signature.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blkid.h>

#include "base/units.h"

/*
 * What a signature's USAGE says in words. libblkid files LVM's physical volumes under
 * "raid", but an LVM2 PV is no RAID member: its type names what it is.
 */
static const char *usage_words(const char *type, const char *usage)
{
	static const struct {
		const char *type, *words;
	} by_type[] = {
		{ "LVM2_member", "(an LVM2 physical volume)" },
		{ "LVM1_member", "(an LVM1 physical volume)" },
	};
	static const struct {
		const char *usage, *words;
	} by_usage[] = {
		{ "filesystem", "file system" }, { "raid", "RAID member" },
		{ "crypto", "volume" },
		{ "other", "" },	/* swap, bcache: the type says it */
	};

	for (size_t i = 0; i < ARRAY_SIZE(by_type); i++)
		if (!strcmp(type, by_type[i].type))
			return by_type[i].words;
	for (size_t i = 0; i < ARRAY_SIZE(by_usage); i++)
		if (!strcmp(usage, by_usage[i].usage))
			return by_usage[i].words;
	return usage;
}

/*
 * Append "TYPE USAGE at byte OFF" ("minix file system at byte 1040") for the probe's
 * current signature to what, "; " after the one before.
 */
static void describe(blkid_probe pr, char *what, size_t len, size_t *used)
{
	const char *type = NULL, *usage = "partition table", *off = NULL;
	const char *sep = *used ? "; " : "";
	int w;

	if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET", &off, NULL);
	} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
		blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &off, NULL);
	} else {
		type = "unknown";
	}
	usage = usage_words(type, usage);
	if (*used >= len)
		return;
	w = snprintf(what + *used, len - *used, "%s%s%s%s%s%s", sep, type, *usage ? " " : "",
		     usage, off ? " at byte " : "", off ? off : "");
	if (w > 0)
		*used += (size_t)w < len - *used ? (size_t)w : len - *used - 1;
}

static int probe_setup(blkid_probe pr, int fd)
{
	if (blkid_probe_set_device(pr, fd, 0, 0) < 0)
		return -EIO;
	if (blkid_probe_enable_superblocks(pr, 1) < 0 ||
	    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
					      BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM) < 0 ||
	    blkid_probe_enable_partitions(pr, 1) < 0 ||
	    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT) < 0)
		return -EINVAL;
	return 0;
}

int signature_probe(int fd, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	size_t used = 0;
	int found = 0, ret;

	if (!pr)
		return -ENOMEM;
	ret = probe_setup(pr, fd);
	/* 0: one more signature; 1: no more; negative: the device could not be read */
	while (!ret && (ret = blkid_do_probe(pr)) == 0) {
		found = 1;
		if (len)
			describe(pr, what, len, &used);
	}
	blkid_free_probe(pr);
	if (ret < 0)
		return errno > 0 ? -errno : -EIO;
	return found;
}
