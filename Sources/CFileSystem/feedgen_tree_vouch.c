// Where a tree's files need no stat: where its files that are hard links of files of another tree
// just found exactly as its manifest says (the output, when the build cache's back buffer is
// checked) can be told by their directory entries.
#define _GNU_SOURCE
#include "feedgen_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/vfs.h>
#endif

#if defined(__linux__)
/// Whether no mount point lies strictly below `path` (/proc/self/mountinfo; no when it cannot
/// be read): every file below it is then on its file system, with that file system's inodes.
static int no_mount_below(const char *path) {
    char real[PATH_MAX];
    if (!realpath(path, real)) return 0;
    size_t n = strlen(real);
    if (n == 1) n = 0;  // the root: every other mount point is below it
    int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    size_t capacity = 16384, length = 0;
    char *text = malloc(capacity);
    int ok = text != NULL;
    while (ok) {
        if (length == capacity) {
            char *grown = realloc(text, capacity *= 2);
            if (!grown) {
                ok = 0;
                break;
            }
            text = grown;
        }
        ssize_t got = read(fd, text + length, capacity - length);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            ok = got == 0;
            break;
        }
        length += (size_t)got;
    }
    close(fd);
    // Each line: `id parent major:minor root mount-point ...`, the mount point with space, tab,
    // line feed and backslash written as `\ooo`.
    for (char *p = text, *end = text + length; ok && p < end;) {
        char *line_end = memchr(p, '\n', (size_t)(end - p));
        if (!line_end) line_end = end;
        for (int field = 0; field < 4 && p < line_end; field++) {
            while (p < line_end && *p != ' ') p++;
            p++;
        }
        char point[PATH_MAX];
        size_t m = 0;
        while (p < line_end && *p != ' ' && m < sizeof point) {
            if (*p == '\\' && line_end - p >= 4) {
                point[m++] = (char)(((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0'));
                p += 4;
            } else {
                point[m++] = *p++;
            }
        }
        if (m > n && memcmp(point, real, n) == 0 && point[n] == '/') ok = 0;
        p = line_end + 1;
    }
    free(text);
    return ok;
}
#endif

/// Whether readdir's d_ino of a file below `root` is its st_ino, and an inode number below
/// `verified_root` names the same file below `root`: both on one device of a file system whose
/// readdir reports the inode stat reports (tmpfs, ext2/3/4, XFS), with no mount point below
/// either. Not on overlayfs, FUSE or network file systems, where d_ino may differ from st_ino;
/// nor on Btrfs, where a subvolume or snapshot inside a tree is a folder with its own inode
/// numbers on another device that no mount table lists.
static int vouchable(const char *root, const char *verified_root) {
#if defined(__linux__)
    struct statfs fs;
    struct stat a, b;
    if (statfs(root, &fs) != 0 || stat(root, &a) != 0 || stat(verified_root, &b) != 0 || a.st_dev != b.st_dev) return 0;
    switch ((unsigned long)fs.f_type) {
    case 0x01021994UL:  // TMPFS_MAGIC
    case 0xEF53UL:      // EXT2/3/4_SUPER_MAGIC
    case 0x58465342UL:  // XFS_SUPER_MAGIC
        break;
    default:
        return 0;
    }
    return no_mount_below(root) && no_mount_below(verified_root);
#else
    (void)root;
    (void)verified_root;
    return 0;
#endif
}

/// Also used by feedgen_tree_check.c (not in the public header): the lines of the tree `tree` in
/// the state lines `body` (`length` bytes, `whole` form: every tree after its `tree <inode>`
/// line), `*first` to `*last`, which were found at `verified_root` exactly as they say, when
/// they can vouch for files below `root` (vouchable): 1; else 0.
int feedgen_vouch_lines(const char *root, const char *verified_root, const unsigned char *body, size_t length, unsigned long long tree,
                        const unsigned char **first, const unsigned char **last) {
    if (length == 0 || body[length - 1] != '\n' || !vouchable(root, verified_root)) return 0;
    const unsigned char *end = body + length;
    *first = NULL;
    *last = end;
    for (const unsigned char *p = body; p < end;) {
        const unsigned char *next = (const unsigned char *)memchr(p, '\n', (size_t)(end - p)) + 1;
        if (*p == 't') {
            if (*first) {
                *last = p;
                break;
            }
            unsigned long long inode;
            size_t n = (size_t)(next - p);
            if (n > 5 && memcmp(p, "tree ", 5) == 0 && feedgen_state_numbers(p + 5, n - 5, &inode, 1) == n - 5 && inode == tree) *first = next;
        }
        p = next;
    }
    return *first != NULL && *first < *last;
}

/// Also used by feedgen_tree_check.c: whether the line at `p` (`n` bytes, its line feed
/// included) is one of the next few lines from `*cursor` to `end` (the verified tree's lines,
/// mostly the same in the same order: a line added, removed or changed here and there); the
/// cursor then moves past it. A line not found is only stat'ed.
int feedgen_next_same_line(const unsigned char **cursor, const unsigned char *end, const unsigned char *p, size_t n) {
    const unsigned char *q = *cursor;
    for (int k = 0; k < 8 && q < end; k++) {
        const unsigned char *newline = memchr(q, '\n', (size_t)(end - q));
        if (!newline) return 0;
        if ((size_t)(newline + 1 - q) == n && memcmp(q, p, n) == 0) {
            *cursor = newline + 1;
            return 1;
        }
        q = newline + 1;
    }
    return 0;
}
