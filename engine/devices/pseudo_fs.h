/*
 * Pseudo file systems: procfs, sysfs, devtmpfs and the like, whose "regular files" are
 * kernel interfaces (/proc/self/mem, /sys/.../store) or device nodes' home. iojob never
 * creates, lays out, extends, writes or deletes a file on them, whatever the job says.
 */
#ifndef ENGINE_DEVICES_PSEUDO_FS_H
#define ENGINE_DEVICES_PSEUDO_FS_H

/*
 * The name of the pseudo file system that holds path, or would hold it once created (its
 * nearest existing directory decides; the kernel resolves "..", "." and "//"), or NULL
 * for an ordinary one. The devtmpfs mounted on /dev counts, its tmpfs mounts (/dev/shm)
 * do not.
 */
const char *pseudo_fs_of(const char *path);

#endif
