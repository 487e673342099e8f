/*
 * Pauses that a stop cuts short: a futex wait with a deadline on the run's wake word.
 */
#include "engine/thread/wake.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"
#include "engine/thread/clock.h"

void wake_all(atomic_uint *word)
{
	int saved = errno;	/* a signal handler must leave what it interrupted as it was */

	atomic_fetch_add(word, 1);
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	errno = saved;
}

void wake_sleep(atomic_uint *word, unsigned seen, uint64_t ns)
{
	uint64_t end, now;

	if (ns > UINT64_MAX / 2)
		ns = UINT64_MAX / 2;	/* "never": the sum below must not wrap */
	end = clock_mono_ns() + ns;
	/*
	 * A relative timeout, as nanosleep's (strace shows what a pause asked for); after a
	 * signal's EINTR, or a wake-up that left the word as it was, what is left of it.
	 */
	while (atomic_load(word) == seen && (now = clock_mono_ns()) < end) {
		struct timespec ts = { (time_t)((end - now) / NS_PER_SEC),
				       (long)((end - now) % NS_PER_SEC) };

		if (syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0) < 0 &&
		    errno == ETIMEDOUT)
			break;
	}
}
