#ifndef FEEDGEN_FS_H
#define FEEDGEN_FS_H

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE). Returns 0 on success,
/// else -1 with errno set (EINVAL or ENOSYS where the file system or kernel cannot exchange).
int feedgen_rename_exchange(const char *from, const char *to);

#endif
