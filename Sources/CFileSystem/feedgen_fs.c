#define _GNU_SOURCE
#include "feedgen_fs.h"
#include "feedgen_folder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/fs.h>
#include <sys/syscall.h>
#endif

int feedgen_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

int feedgen_rename_exchange(const char *from, const char *to) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// Writes all `length` bytes to `fd` (retrying short writes and EINTR). Also used by
/// feedgen_cache_files.c (not in the public header). Returns 0, or -1 with errno set.
int feedgen_write_all(int fd, const char *p, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, p, length);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        length -= (size_t)n;
    }
    return 0;
}

int feedgen_copy_file(const char *from, const char *to) {
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) return -1;
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) {
        int saved = errno;
        close(in);
        errno = saved;
        return -1;
    }
    char buffer[65536];
    int result = 0;
    for (;;) {
        ssize_t n = read(in, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR) continue;
            result = -1;
            break;
        }
        if (n == 0) break;
        if (feedgen_write_all(out, buffer, (size_t)n) != 0) {
            result = -1;
            break;
        }
    }
    int saved = errno;
    close(in);
    if (close(out) != 0 && result == 0) return -1;
    errno = saved;
    return result;
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw) {
    (void)info;
    (void)ftw;
    return (flag == FTW_DP ? rmdir(path) : unlink(path)) == 0 ? 0 : -1;
}

int feedgen_remove_tree(const char *path) {
    return nftw(path, remove_entry, 64, FTW_DEPTH | FTW_PHYS);
}

/// Writes every part, in order (writev, at most IOV_MAX parts a call, short writes resumed).
static int write_parts(int fd, struct iovec *parts, size_t count) {
    size_t k = 0;
    while (k < count) {
        if (parts[k].iov_len == 0) {
            k++;
            continue;
        }
        size_t batch = count - k < IOV_MAX ? count - k : IOV_MAX;
        ssize_t n = writev(fd, parts + k, (int)batch);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        size_t left = (size_t)n;
        while (k < count && left >= parts[k].iov_len) {
            left -= parts[k].iov_len;
            k++;
        }
        if (left > 0) {  // a part written in part: the rest of it next
            parts[k].iov_base = (char *)parts[k].iov_base + left;
            parts[k].iov_len -= left;
        }
    }
    return 0;
}

int feedgen_replace_file(const char *path, const void *bytes, size_t length, struct feedgen_identity *identity) {
    struct iovec part = {(void *)bytes, length};
    return feedgen_replace_file_parts(path, &part, 1, identity);
}

int feedgen_replace_file_parts(const char *path, struct iovec *parts, size_t count, struct feedgen_identity *identity) {
    // Create first: in a fresh or already-pruned tree the name is free, and an unlink would take
    // the folder's lock once more for nothing (two writers in one folder then spin on it).
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST) {
        if (unlink(path) != 0 && errno != ENOENT) return -1;
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    }
    if (fd < 0) return -1;
    int result = write_parts(fd, parts, count);
    struct stat info;
    if (result == 0 && identity) {
        if (fstat(fd, &info) == 0) {
            identity->size = (long long)info.st_size;
            identity->mtime_ns = (long long)info.st_mtim.tv_sec * 1000000000LL + (long long)info.st_mtim.tv_nsec;
            identity->inode = (unsigned long long)info.st_ino;
        } else {
            result = -1;
        }
    }
    int saved = errno;
    if (close(fd) != 0 && result == 0) return -1;
    errno = saved;
    return result;
}

int feedgen_replace_with_copy(const char *from, const char *to) {
    if (unlink(to) != 0 && errno != ENOENT) return -1;
    return feedgen_copy_file(from, to);
}

int feedgen_file_identity(const char *path, long long *size, long long *mtime_ns, unsigned long long *inode) {
    struct stat info;
    if (lstat(path, &info) != 0) return -1;
    *size = (long long)info.st_size;
    *mtime_ns = (long long)info.st_mtim.tv_sec * 1000000000LL + (long long)info.st_mtim.tv_nsec;
    *inode = (unsigned long long)info.st_ino;
    return 0;
}

/// Also used by feedgen_cache_files.c (not in the public header).
void feedgen_fill_stamp(struct feedgen_file_stamp *stamp, const struct stat *info) {
    stamp->size = (long long)info->st_size;
    stamp->mtime_ns = (long long)info->st_mtim.tv_sec * 1000000000LL + (long long)info->st_mtim.tv_nsec;
    stamp->ctime_ns = (long long)info->st_ctim.tv_sec * 1000000000LL + (long long)info->st_ctim.tv_nsec;
    stamp->inode = (unsigned long long)info->st_ino;
    stamp->device = (unsigned long long)info->st_dev;
}

static int compare_entry_names(const void *a, const void *b) {
    return strcmp(((const struct feedgen_folder_entry *)a)->name, ((const struct feedgen_folder_entry *)b)->name);
}

int feedgen_list_folder(const char *path, int stamp_files, struct feedgen_file_stamp *folder,
                        struct feedgen_folder_entry **entries, size_t *count, char **names) {
    DIR *dir = feedgen_open_folder(open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir) return -1;
    struct stat info;
    if (folder) {
        if (fstat(dirfd(dir), &info) != 0) {
            int saved = errno;
            closedir(dir);
            errno = saved;
            return -1;
        }
        feedgen_fill_stamp(folder, &info);
    }
    size_t capacity = 64, used = 0, names_capacity = 4096, names_length = 0;
    struct feedgen_folder_entry *list = malloc(capacity * sizeof *list);
    char *buffer = malloc(names_capacity);
    int result = list && buffer ? 0 : -1;
    while (result == 0) {
        struct dirent *entry = feedgen_next_entry(dir, &result);
        if (!entry) break;
        const char *name = entry->d_name;
        struct feedgen_folder_entry e = {0};
        unsigned char type = entry->d_type;
        e.is_link = type == DT_LNK;
        if (type == DT_DIR) {
            e.kind = 'd';
        } else if (type == DT_REG) {
            e.kind = 'f';
            if (stamp_files && fstatat(dirfd(dir), name, &info, 0) == 0) {
                feedgen_fill_stamp(&e.stamp, &info);
                e.has_stamp = 1;
            }
        } else if (type == DT_LNK || type == DT_UNKNOWN) {
            if (fstatat(dirfd(dir), name, &info, 0) != 0) {
                if (!e.is_link) continue;
                e.kind = 'b';
            } else {
                e.kind = S_ISDIR(info.st_mode) ? 'd' : S_ISREG(info.st_mode) ? 'f' : 'o';
                if (e.kind == 'f') {
                    feedgen_fill_stamp(&e.stamp, &info);
                    e.has_stamp = 1;
                }
            }
        } else {
            e.kind = 'o';  // a FIFO, socket or device: listed, so that the caller can say so
        }
        size_t n = strlen(name);
        if (used == capacity) {
            capacity *= 2;
            struct feedgen_folder_entry *grown = realloc(list, capacity * sizeof *grown);
            if (!grown) {
                result = -1;
                break;
            }
            list = grown;
        }
        if (names_length + n + 1 > names_capacity) {
            names_capacity = (names_capacity + n + 1) * 2;
            char *grown = realloc(buffer, names_capacity);
            if (!grown) {
                result = -1;
                break;
            }
            buffer = grown;
        }
        memcpy(buffer + names_length, name, n + 1);
        e.name = (const char *)names_length;  // an offset until the buffer stops moving
        e.name_length = n;
        list[used++] = e;
        names_length += n + 1;
    }
    int saved = errno;
    closedir(dir);
    if (result != 0) {
        free(list);
        free(buffer);
        errno = saved ? saved : ENOMEM;
        return -1;
    }
    for (size_t k = 0; k < used; k++) list[k].name = buffer + (size_t)list[k].name;
    qsort(list, used, sizeof *list, compare_entry_names);
    *entries = list;
    *count = used;
    *names = buffer;
    return 0;
}

// nftw(3) passes no context to its callback: the two folders of the walk in progress are kept
// per thread, so that builds linking trees at once (tests run builds in parallel; a library
// user may too) never link one tree's files into another's.
static _Thread_local const char *link_from;
static _Thread_local const char *link_to;

static int link_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw) {
    (void)flag;
    char target[4096];
    const char *relative = path + strlen(link_from);
    if (snprintf(target, sizeof target, "%s%s", link_to, relative) >= (int)sizeof target) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (ftw->level == 0 || S_ISDIR(info->st_mode)) {
        return mkdir(target, 0755) == 0 || errno == EEXIST ? 0 : -1;
    }
    if (S_ISREG(info->st_mode)) return link(path, target);
    return 0;
}

int feedgen_link_tree(const char *from, const char *to) {
    link_from = from;
    link_to = to;
    return nftw(from, link_entry, 64, FTW_PHYS);
}
