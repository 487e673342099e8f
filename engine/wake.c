/*
 * Pauses that a stop cuts short: a futex wait with a deadline on the run's wake word.
 */
#include "engine/wake.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/units.h"

void wake_all(atomic_uint *word)
{
	atomic_fetch_add(word, 1);
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void wake_sleep(atomic_uint *word, unsigned seen, uint64_t ns)
{
	struct timespec at;
	uint64_t end;

	if (ns > UINT64_MAX / 2)
		ns = UINT64_MAX / 2;	/* "never": the sum below must not wrap */
	clock_gettime(CLOCK_MONOTONIC, &at);
	end = (uint64_t)at.tv_sec * NS_PER_SEC + (uint64_t)at.tv_nsec + ns;
	at.tv_sec = (time_t)(end / NS_PER_SEC);
	at.tv_nsec = (long)(end % NS_PER_SEC);
	/*
	 * An absolute CLOCK_MONOTONIC deadline (BITSET): after a signal's EINTR or a wake-up
	 * that left the word as it was, it waits again for what is left, not for ns again.
	 */
	while (atomic_load(word) == seen)
		if (syscall(SYS_futex, word, FUTEX_WAIT_BITSET_PRIVATE, seen, &at, NULL,
			    FUTEX_BITSET_MATCH_ANY) < 0 && errno != EINTR)
			break;	/* ETIMEDOUT, or EAGAIN: the word moved before the wait */
}
