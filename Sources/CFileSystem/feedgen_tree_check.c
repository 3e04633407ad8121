// Whether a tree is exactly what its manifest in the build cache's state describes, checked on
// the state's bytes (no per-path strings or dictionaries): the common case of CacheState's checks.
#define _GNU_SOURCE
#include "feedgen_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// One path of the manifest: a file's, or a folder holding one.
struct check_item {
    const unsigned char *path;
    uint32_t length;
    uint32_t hash;
    long long size;
    long long mtime;
    unsigned long long inode;
    unsigned char is_folder;
    unsigned char seen;
    /// Whether the verified tree has this very line (its file's inode had this size and time).
    unsigned char vouched;
};

/// The items, found by path in an open-addressing table of their indexes plus one (0: empty).
struct check_table {
    struct check_item *items;
    size_t count;
    uint32_t *slots;
    size_t mask;
};

static uint32_t path_hash(const unsigned char *p, size_t n) {
    uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 1099511628211ULL;
    return (uint32_t)(h ^ (h >> 32));
}

/// The slot of `p` (folder or file as `is_folder` says), or the empty slot where it goes.
static uint32_t *find(const struct check_table *t, const unsigned char *p, size_t n, uint32_t hash, int is_folder) {
    size_t k = (size_t)hash & t->mask;
    for (;;) {
        uint32_t *slot = &t->slots[k];
        if (*slot == 0) return slot;
        const struct check_item *s = &t->items[*slot - 1];
        if (s->hash == hash && s->length == n && s->is_folder == is_folder && memcmp(s->path, p, n) == 0) return slot;
        k = (k + 1) & t->mask;
    }
}

/// The end of a decimal number at `p` (at most 20 digits, below 2^64) ended by a space: the
/// space; NULL when the text is not one. The text ends with a line feed, which stops the scan.
static const unsigned char *number_end(const unsigned char *p, const unsigned char *end) {
    const unsigned char *start = p;
    // Eight digits at a time: each byte's high nibble 3 and low nibble at most 9.
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        if (((x & 0xF0F0F0F0F0F0F0F0ULL) | (((x + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) != 0x3333333333333333ULL) break;
        p += 8;
    }
    while ((unsigned)(*p - '0') < 10) p++;
    size_t digits = (size_t)(p - start);
    if (digits == 0 || digits > 20 || *p != ' ') return NULL;
    if (digits == 20 && memcmp(start, "18446744073709551615", 20) > 0) return NULL;
    return p;
}

/// The value of the digits from `p` to `end` (checked by number_end).
static unsigned long long value(const unsigned char *p, const unsigned char *end) {
    unsigned long long v = 0;
    for (; p < end; p++) v = v * 10 + (unsigned long long)(*p - '0');
    return v;
}

/// Non-ASCII paths are left to the exact check, which compares them as Strings (canonical
/// equivalence), not as bytes.
static int is_ascii(const unsigned char *p, size_t n) {
    for (size_t k = 0; k < n; k++) {
        if (p[k] >= 0x80) return 0;
    }
    return 1;
}

static int is_user_name(const unsigned char *p, size_t n, const char *marker) {
    size_t m = strlen(marker);
    if (n > 0 && p[0] == '.') return !(n == m && memcmp(p, marker, m) == 0);
    return n == 5 && memcmp(p, "CNAME", 5) == 0;
}

/// A `tree <inode>` line at `p` (strictly so): the inode, and where the next line starts.
static const unsigned char *tree_line(const unsigned char *p, const unsigned char *end, unsigned long long *inode) {
    if (end - p < 7 || memcmp(p, "tree ", 5) != 0) return NULL;
    unsigned long long v = 0;
    const unsigned char *q = p + 5, *start = q;
    while (q < end && *q >= '0' && *q <= '9') {
        if (v > (~0ULL - 9) / 10) return NULL;
        v = v * 10 + (unsigned long long)(*q - '0');
        q++;
    }
    if (q == start || q >= end || *q != '\n') return NULL;
    *inode = v;
    return q + 1;
}

/// An entry line at `p` (`hash key size mtime inode path`, strictly so), in a text that ends
/// with a line feed: where the next line starts (NULL when it is not one), and with `item` its
/// size, time, inode and path.
static const unsigned char *entry_line(const unsigned char *p, const unsigned char *end, struct check_item *item) {
    const unsigned char *fields[6];
    for (int k = 0; k < 5; k++) {
        fields[k] = p;
        p = number_end(p, end);
        if (!p) return NULL;
        p++;
    }
    fields[5] = p;
    const unsigned char *newline = memchr(p, '\n', (size_t)(end - p));
    if (!newline || newline == p || newline - p > UINT32_MAX) return NULL;
    if (item) {
        *item = (struct check_item){
            p, (uint32_t)(newline - p), 0, (long long)value(fields[2], fields[3] - 1), (long long)value(fields[3], fields[4] - 1),
            value(fields[4], fields[5] - 1), 0, 0, 0};
    }
    return newline + 1;
}

/// Adds `item` (its hash set here): 0 when its path is there already (or the table is full).
static int add(struct check_table *t, struct check_item item, size_t capacity) {
    item.hash = path_hash(item.path, item.length);
    uint32_t *slot = find(t, item.path, item.length, item.hash, item.is_folder);
    if (*slot != 0 || t->count == capacity) return 0;
    t->items[t->count++] = item;
    *slot = (uint32_t)t->count;
    return 1;
}

// In feedgen_tree_list.c and feedgen_tree_vouch.c (not in the public header).
int feedgen_list_tree_unstated(const char *root, struct feedgen_tree_entry **entries, size_t *count, char **names);
int feedgen_vouch_lines(const char *root, const char *verified_root, const unsigned char *body, size_t length, unsigned long long tree,
                        const unsigned char **first, const unsigned char **last);
int feedgen_next_same_line(const unsigned char **cursor, const unsigned char *end, const unsigned char *p, size_t n);

/// Fills `e` (whose path is `path`, `n` bytes) from a stat of that path below the open folder `root`.
static int stat_entry(int root, const unsigned char *path, size_t n, struct feedgen_tree_entry *e) {
    char name[4096];
    struct stat info;
    if (n >= sizeof name) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(name, path, n);
    name[n] = 0;
    if (fstatat(root, name, &info, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    e->type = S_ISREG(info.st_mode) ? 'f' : S_ISDIR(info.st_mode) ? 'd' : 'o';
    e->size = (long long)info.st_size;
    e->mtime_ns = (long long)info.st_mtim.tv_sec * 1000000000LL + (long long)info.st_mtim.tv_nsec;
    e->inode = (unsigned long long)info.st_ino;
    return 0;
}

int feedgen_tree_matches_state(const char *root, const unsigned char *body, size_t length, int whole, unsigned long long tree,
                               int ignore_user_entries, const char *marker) {
    return feedgen_tree_matches_state_vouched(root, body, length, whole, tree, ignore_user_entries, marker, NULL, NULL, 0, 0);
}

int feedgen_tree_matches_state_vouched(const char *root, const unsigned char *body, size_t length, int whole, unsigned long long tree,
                                       int ignore_user_entries, const char *marker, const char *verified_root,
                                       const unsigned char *verified, size_t verified_length, unsigned long long verified_tree) {
    const unsigned char *end = body + length;
    if (length == 0 || end[-1] != '\n' || length / 8 >= UINT32_MAX) return 0;
    // The tree's lines: all of `body`, or (checking that every line of the state is in its
    // form) the ones after the tree's `tree` line.
    const unsigned char *first = body, *last = end;
    size_t lines = 0;
    if (whole) {
        int found = 0, in_tree = 0;
        first = last = NULL;
        for (const unsigned char *p = body; p < end;) {
            if (*p == 't') {
                unsigned long long inode;
                const unsigned char *next = tree_line(p, end, &inode);
                if (!next) return 0;
                if (in_tree) last = p;
                in_tree = inode == tree;
                if (in_tree) {
                    if (found++) return 0;  // the tree twice
                    first = next;
                }
                p = next;
                continue;
            }
            // The tree's own lines are checked when read below (a line of its form ends at its
            // first line feed); the others here. No line before the first tree.
            const unsigned char *next = p == body ? NULL : in_tree ? (const unsigned char *)memchr(p, '\n', (size_t)(end - p)) + 1 : entry_line(p, end, NULL);
            if (!next) return 0;
            lines += in_tree;
            p = next;
        }
        if (!found) return 0;
        if (in_tree) last = end;
    } else {
        for (const unsigned char *p = body; p < end; p++) {
            p = memchr(p, '\n', (size_t)(end - p));
            lines++;
        }
    }
    if (lines == 0) return 0;
    // Files and the folders holding them (at most as many), at most half of the table full.
    size_t capacity = 2 * lines, size = 16;
    while (size < 2 * capacity) size *= 2;
    struct check_table table = {malloc(capacity * sizeof(struct check_item)), 0, calloc(size, sizeof(uint32_t)), size - 1};
    int result = table.items && table.slots ? 1 : -1;
    size_t files = 0;
    const unsigned char *last_parent = NULL;
    size_t last_parent_length = 0;
    // The verified tree's lines, walked beside these (with a tree that vouches for its files'
    // hard links here: their lines' files are listed without a stat).
    const unsigned char *vouched = NULL, *vouched_end = NULL;
    int vouching = result == 1 && verified &&
                   feedgen_vouch_lines(root, verified_root, verified, verified_length, verified_tree, &vouched, &vouched_end);
    for (const unsigned char *p = first; p < last && result == 1;) {
        struct check_item item;
        const unsigned char *next = entry_line(p, last, &item);
        const unsigned char *q = item.path;
        size_t n = next ? item.length : 0;
        if (next && vouching) item.vouched = (unsigned char)feedgen_next_same_line(&vouched, vouched_end, p, (size_t)(next - p));
        if (!next || !is_ascii(q, n) || !add(&table, item, capacity)) {
            result = 0;  // not in its form, or a path twice: left to the exact check
            break;
        }
        files++;
        p = next;
        // The folders holding it, each once (lines come in runs of one folder).
        size_t slash = n;
        while (slash > 0 && q[slash - 1] != '/') slash--;
        if (slash == 0) continue;
        size_t folder = slash - 1;
        if (last_parent && last_parent_length == folder && memcmp(last_parent, q, folder) == 0) continue;
        last_parent = q;
        last_parent_length = folder;
        for (;;) {
            struct check_item parent = {q, (uint32_t)folder, 0, 0, 0, 0, 1, 0, 0};
            if (!add(&table, parent, capacity)) {
                if (table.count == capacity) result = 0;
                break;  // there already, with its ancestors
            }
            while (folder > 0 && q[folder - 1] != '/') folder--;
            if (folder == 0) break;
            folder--;
        }
    }
    struct feedgen_tree_entry *entries = NULL;
    size_t listed = 0;
    char *names = NULL;
    // Files are then stat'ed below only when their line is not vouched for.
    int root_fd = vouching ? open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (vouching && root_fd < 0) result = -1;
    if (result == 1 && (vouching ? feedgen_list_tree_unstated : feedgen_list_tree)(root, &entries, &listed, &names) != 0) result = -1;
    size_t matched = 0;
    for (size_t k = 0; k < listed && result == 1; k++) {
        struct feedgen_tree_entry *e = &entries[k];
        const unsigned char *path = (const unsigned char *)names + e->path_offset;
        size_t n = e->path_length;
        if (!is_ascii(path, n)) {
            result = 0;
            break;
        }
        if (ignore_user_entries) {
            size_t root_name = 0;
            while (root_name < n && path[root_name] != '/') root_name++;
            if (is_user_name(path, root_name, marker)) {
                // The user's unless the manifest has a file or folder of that root name.
                uint32_t h = path_hash(path, root_name);
                if (*find(&table, path, root_name, h, 0) == 0 && *find(&table, path, root_name, h, 1) == 0) continue;
            }
        }
        uint32_t hash = path_hash(path, n);
        if (e->type == 'F') {
            // Its line's inode is the directory entry's, whose size and time a verified file of
            // that inode had: a stat would say the same.
            uint32_t slot = *find(&table, path, n, hash, 0);
            struct check_item *s = slot ? &table.items[slot - 1] : NULL;
            if (s && !s->seen && s->inode == e->inode && s->vouched) {
                s->seen = 1;
                matched++;
                continue;
            }
            if (stat_entry(root_fd, path, n, e) != 0) {
                result = -1;
                break;
            }
        }
        if (e->type == 'd') {
            if (*find(&table, path, n, hash, 1) == 0) result = 0;
        } else if (e->type == 'f') {
            uint32_t slot = *find(&table, path, n, hash, 0);
            struct check_item *s = slot ? &table.items[slot - 1] : NULL;
            if (!s || s->seen || s->size != e->size || s->mtime != e->mtime_ns || s->inode != e->inode) {
                result = 0;
            } else {
                s->seen = 1;
                matched++;
            }
        } else {
            result = 0;
        }
    }
    if (result == 1 && matched != files) result = 0;
    if (root_fd >= 0) close(root_fd);
    free(entries);
    free(names);
    free(table.items);
    free(table.slots);
    return result;
}

/// The value of eight ASCII digits loaded little-endian (the first digit in the lowest byte),
/// by multiplying pairs, then fours, then the two halves together.
static inline uint64_t eight_digits(uint64_t x) {
    x = ((x & 0x0F0F0F0F0F0F0F0FULL) * 2561) >> 8;
    x = ((x & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;
    return ((x & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32;
}

size_t feedgen_state_numbers(const unsigned char *p, size_t length, unsigned long long *values, size_t count) {
    size_t k = 0;
    for (size_t n = 0; n < count; n++) {
        unsigned long long v = 0;
        size_t start = k;
        // Eight digits at a time (each byte's high nibble 3 and low nibble at most 9) while
        // they leave the value under 10^18, then one at a time.
        while (length - k >= 8 && k - start <= 10) {
            uint64_t x;
            memcpy(&x, p + k, 8);
            if (((x & 0xF0F0F0F0F0F0F0F0ULL) | (((x + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) != 0x3333333333333333ULL) break;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            v = v * 100000000ULL + eight_digits(x);
#else
            for (int j = 0; j < 8; j++) v = v * 10 + (unsigned)(p[k + j] - '0');
#endif
            k += 8;
        }
        while (k < length && p[k] >= '0' && p[k] <= '9') {
            unsigned d = (unsigned)(p[k] - '0');
            // Below 19 digits read the value is under 10^18: a digit more cannot overflow.
            if (k - start >= 19 && v > (~0ULL - d) / 10) return 0;
            v = v * 10 + d;
            k++;
        }
        if (k == start || k >= length || (p[k] != ' ' && p[k] != '\n')) return 0;
        values[n] = v;
        k++;
    }
    return k;
}

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

size_t feedgen_format_numbers(const unsigned long long *values, size_t count, unsigned char *out) {
    size_t k = 0;
    for (size_t n = 0; n < count; n++) {
        unsigned char digits[20];
        size_t d = 20;
        unsigned long long v = values[n];
        while (v >= 100) {  // two digits a division
            unsigned r = (unsigned)(v % 100);
            v /= 100;
            d -= 2;
            memcpy(digits + d, digit_pairs + 2 * r, 2);
        }
        if (v >= 10) {
            d -= 2;
            memcpy(digits + d, digit_pairs + 2 * v, 2);
        } else {
            digits[--d] = (unsigned char)('0' + v);
        }
        memcpy(out + k, digits + d, 20 - d);
        k += 20 - d;
        out[k++] = ' ';
    }
    return k;
}
