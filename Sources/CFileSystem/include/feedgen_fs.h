#ifndef FEEDGEN_FS_H
#define FEEDGEN_FS_H

#include <stddef.h>

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE). Returns 0 on success,
/// else -1 with errno set (EINVAL or ENOSYS where the file system or kernel cannot exchange).
int feedgen_rename_exchange(const char *from, const char *to);

/// Creates (or truncates) `path` and writes `length` bytes. Returns 0, or -1 with errno set.
/// Plain POSIX writes: no fsync, no temporary file (the build swaps whole folders instead).
int feedgen_write_file(const char *path, const void *bytes, size_t length);

/// Copies the regular file `from` to `to` (created with mode 0644). Returns 0, or -1 with errno.
int feedgen_copy_file(const char *from, const char *to);

/// Removes `path` and everything below it without following symbolic links (nftw, FTW_PHYS).
/// Returns 0, or -1 with errno set.
int feedgen_remove_tree(const char *path);

#endif
