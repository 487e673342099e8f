/* Output streams finished with every failure seen: buffered writes, the flush, the close. */
#include "output/stream.h"

#include <errno.h>

int stream_finish(FILE *f, bool close)
{
	int ret = 0;

	/* glibc keeps what a failed write could not write, so this flush fails again and
	 * names the reason (ENOSPC) */
	if (fflush(f) != 0)
		ret = -errno;
	else if (ferror(f))
		ret = -EIO;
	if (close && fclose(f) != 0 && !ret)
		ret = -errno;
	return ret;
}
