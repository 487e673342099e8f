/*
 * Private to the fault shim: what fault_shim.c (the spec, the system calls, libaio) shares
 * with fault_uring.c (io_uring's submissions and completions).
 */
#ifndef TESTS_FAULT_FAULT_SHIM_H
#define TESTS_FAULT_FAULT_SHIM_H

#include <stddef.h>

#define FAULT_SHORT	(-1)	/* fault_hit(): transfer less */
#define FAULT_FLIP	(-2)	/* fault_hit(): transfer, then invert the last byte read */
#define FAULT_LOST	(-3)	/* fault_hit(): report the whole write done, write nothing */
#define FAULT_ANY_FD	(-1)	/* fault_hit(): no file to filter on */

enum fault_call {
	C_PREAD, C_PWRITE, C_READ, C_WRITE, C_PREADV2, C_PWRITEV2, C_FALLOCATE,
	C_IO_SUBMIT, C_IO_GETEVENTS, C_URING_SUBMIT,
	C_AIO_READ, C_AIO_WRITE, C_URING_READ, C_URING_WRITE, C_IO_SETUP, C_URING_INIT,
	C_READV, C_WRITEV, C_PREADV, C_PWRITEV, C_SPLICE, C_MMAP, C_MSYNC,
	C_FTRUNCATE, C_CREATE, C_STAT, C_LSTAT, C_STATX, C_UNLINK, C_MKDIR, C_RMDIR,
	C_NCALLS,
};

/*
 * One call of this kind on fd: 0 to let it be, FAULT_SHORT, FAULT_FLIP, FAULT_LOST, or the errno to fail
 * it with.
 */
int fault_hit(enum fault_call call, int fd);

/* Half of n, in whole 512-byte sectors when n is (direct I/O needs them); n if too small. */
size_t fault_shorter(size_t n);

#endif
