/*
 * Pauses that a stop cuts short. A job's pauses (rate, thinktime, startdelay, flow) wait on
 * the run's wake word, which run_stop() and exitall move: a nanosleep is never interrupted
 * by a signal that another thread takes, and one that is would be resumed.
 * A low-level primitive: of the engine, it uses only the clock.
 */
#ifndef ENGINE_THREAD_WAKE_H
#define ENGINE_THREAD_WAKE_H

#include <stdatomic.h>
#include <stdint.h>

/* Move *word and wake every pause waiting on it. Async-signal-safe (a handler calls it). */
void wake_all(atomic_uint *word);

/*
 * Sleep ns, or less: until wake_all() moves *word from seen (seen is read before the
 * caller last looked at its stop flags, so that a stop in between is not missed).
 */
void wake_sleep(atomic_uint *word, unsigned seen, uint64_t ns);

#endif
