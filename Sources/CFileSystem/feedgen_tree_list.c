// Listing a tree below a folder: every entry stat'ed (feedgen_list_tree), or only the entries
// whose directory entry does not tell enough (feedgen_list_tree_unstated).
#define _GNU_SOURCE
#include "feedgen_fs.h"
#include "feedgen_folder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tree_scan {
    struct feedgen_tree_entry *entries;
    size_t count;
    size_t capacity;
    char *names;
    size_t names_length;
    size_t names_capacity;
    /// Whether regular files and folders are taken from their directory entries (d_type, d_ino)
    /// without a stat (feedgen_list_tree_unstated).
    int unstated;
    char path[4096];
};

static int add_entry(struct tree_scan *t, const struct stat *info, size_t path_length) {
    if (t->count == t->capacity) {
        size_t capacity = t->capacity * 2;
        struct feedgen_tree_entry *grown = realloc(t->entries, capacity * sizeof *grown);
        if (!grown) return -1;
        t->entries = grown;
        t->capacity = capacity;
    }
    if (t->names_length + path_length > t->names_capacity) {
        size_t capacity = (t->names_capacity + path_length) * 2;
        char *grown = realloc(t->names, capacity);
        if (!grown) return -1;
        t->names = grown;
        t->names_capacity = capacity;
    }
    struct feedgen_tree_entry *e = &t->entries[t->count++];
    e->type = S_ISREG(info->st_mode) ? 'f' : S_ISDIR(info->st_mode) ? 'd' : 'o';
    e->size = (long long)info->st_size;
    e->mtime_ns = (long long)info->st_mtim.tv_sec * 1000000000LL + (long long)info->st_mtim.tv_nsec;
    e->inode = (unsigned long long)info->st_ino;
    e->path_offset = t->names_length;
    e->path_length = path_length;
    memcpy(t->names + t->names_length, t->path, path_length);
    t->names_length += path_length;
    return 0;
}

/// Lists the folder whose path below the root is the first `prefix` bytes of t->path (ending
/// with '/', or empty for the root), then the folders in it. Each entry is stat'ed relative to its
/// folder (fstatat; with t->unstated, not a file or folder that its d_type tells), and a folder is
/// closed before the folders in it are listed, so a deep tree holds two descriptors at a time
/// (the root's and one folder's), not one per level.
static int scan_folder(struct tree_scan *t, int root, size_t prefix) {
    int fd;
    if (prefix == 0) {
        fd = dup(root);
    } else {
        t->path[prefix - 1] = 0;
        fd = openat(root, t->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        t->path[prefix - 1] = '/';
    }
    DIR *folder = feedgen_open_folder(fd);
    if (!folder) return -1;
    size_t first = t->count;
    int result = 0;
    for (;;) {
        struct dirent *entry = feedgen_next_entry(folder, &result);
        if (!entry) break;
        const char *name = entry->d_name;
        size_t n = strlen(name);
        if (prefix + n + 2 > sizeof t->path) {
            errno = ENAMETOOLONG;
            result = -1;
            break;
        }
        memcpy(t->path + prefix, name, n);
        struct stat info;
        unsigned char type = entry->d_type;
        if (t->unstated && (type == DT_REG || type == DT_DIR)) {
            // Only the fields add_entry reads.
            info.st_mode = type == DT_REG ? S_IFREG : S_IFDIR;
            info.st_size = 0;
            info.st_mtim.tv_sec = info.st_mtim.tv_nsec = 0;
            info.st_ino = entry->d_ino;
        } else if (fstatat(dirfd(folder), name, &info, AT_SYMLINK_NOFOLLOW) != 0) {
            result = -1;
            break;
        } else {
            type = DT_UNKNOWN;
        }
        if (add_entry(t, &info, prefix + n) != 0) {
            result = -1;
            break;
        }
        if (t->unstated && type == DT_REG) t->entries[t->count - 1].type = 'F';
    }
    int saved = errno;
    closedir(folder);
    errno = saved;
    if (result != 0) return -1;
    size_t last = t->count;
    for (size_t k = first; k < last; k++) {
        if (t->entries[k].type != 'd') continue;
        size_t length = t->entries[k].path_length;  // the entry's whole path below the root
        memcpy(t->path, t->names + t->entries[k].path_offset, length);
        t->path[length] = '/';
        if (scan_folder(t, root, length + 1) != 0) return -1;
    }
    return 0;
}

static int list_tree(const char *root, int unstated, struct feedgen_tree_entry **entries, size_t *count, char **names) {
    struct tree_scan t = {malloc(1024 * sizeof(struct feedgen_tree_entry)), 0, 1024, malloc(65536), 0, 65536, unstated, {0}};
    int fd = t.entries && t.names ? open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    int result = fd < 0 ? -1 : scan_folder(&t, fd, 0);
    int saved = errno;
    if (fd >= 0) close(fd);
    if (result != 0) {
        free(t.entries);
        free(t.names);
        errno = saved;
        return -1;
    }
    *entries = t.entries;
    *count = t.count;
    *names = t.names;
    return 0;
}

int feedgen_list_tree(const char *root, struct feedgen_tree_entry **entries, size_t *count, char **names) {
    return list_tree(root, 0, entries, count, names);
}

/// feedgen_list_tree, but a regular file or folder that readdir reports as one (d_type) is not
/// stat'ed: a file's entry has type `F`, its inode is d_ino and its size and time are 0; a
/// folder's entry has type `d` and 0 for the rest. Entries of other or unknown types are stat'ed.
/// Also used by feedgen_tree_check.c (not in the public header).
int feedgen_list_tree_unstated(const char *root, struct feedgen_tree_entry **entries, size_t *count, char **names) {
    return list_tree(root, 1, entries, count, names);
}
