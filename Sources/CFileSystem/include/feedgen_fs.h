#ifndef FEEDGEN_FS_H
#define FEEDGEN_FS_H

#include <stddef.h>
#include <sys/uio.h>

/// The width in columns of the terminal `fd` refers to (TIOCGWINSZ), or 0 when `fd` is not a
/// terminal or the terminal does not say.
int feedgen_terminal_columns(int fd);

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE). Returns 0 on success,
/// else -1 with errno set (EINVAL or ENOSYS where the file system or kernel cannot exchange).
int feedgen_rename_exchange(const char *from, const char *to);

/// Copies the regular file `from` to `to` (created with mode 0644). Returns 0, or -1 with errno.
int feedgen_copy_file(const char *from, const char *to);

/// Removes `path` and everything below it without following symbolic links (nftw, FTW_PHYS).
/// Returns 0, or -1 with errno set.
int feedgen_remove_tree(const char *path);

/// Size, modification time (ns since 1970) and inode of a file.
struct feedgen_identity {
    long long size;
    long long mtime_ns;
    unsigned long long inode;
};

/// Replaces `path` by a new file holding `length` bytes: an existing file of that name is
/// unlinked first, so a file hard-linked from another tree (the build cache's other buffer) is
/// never written through. Fills `identity` (when not NULL) from the written file.
/// Returns 0, or -1 with errno set.
int feedgen_replace_file(const char *path, const void *bytes, size_t length, struct feedgen_identity *identity);

/// feedgen_replace_file with the bytes of `count` parts, in order (written with writev; the
/// parts' entries may be changed).
int feedgen_replace_file_parts(const char *path, struct iovec *parts, size_t count, struct feedgen_identity *identity);

/// 1 when `needle` occurs in the `length` bytes at `bytes` (memmem), else 0.
int feedgen_contains(const void *bytes, size_t length, const void *needle, size_t needle_length);
/// The first occurrence of `needle` in `bytes` (memmem), or NULL.
const void *feedgen_find(const void *bytes, size_t length, const void *needle, size_t needle_length);
/// The offset of the first of the `length` bytes at `bytes` that is `a`, `b`, `c` or `d`, or
/// `length` when none is: sixteen bytes at a time with SSE2, else one at a time.
size_t feedgen_first_of4(const void *bytes, size_t length, unsigned char a, unsigned char b, unsigned char c, unsigned char d);
/// Whether the `length` bytes at `bytes` are well-formed UTF-8: 0 when not, 1 when they are and
/// hold a non-ASCII byte, 2 when they are all ASCII. ASCII runs are read sixteen bytes at a time
/// with SSE2 (the standard library's check reads one byte at a time).
int feedgen_utf8_check(const void *bytes, size_t length);

/// Like feedgen_replace_file, with the bytes of the regular file `from`.
int feedgen_replace_with_copy(const char *from, const char *to);

/// Size, modification time (ns since 1970) and inode of `path` (not following a final link).
/// Returns 0, or -1 with errno set.
int feedgen_file_identity(const char *path, long long *size, long long *mtime_ns, unsigned long long *inode);

/// One entry of a tree listing (feedgen_list_tree).
struct feedgen_tree_entry {
    unsigned long long inode;
    long long size;
    /// Modification time, ns since 1970.
    long long mtime_ns;
    /// The path below the root (`a/b.html`): `path_length` bytes at `path_offset` of the names
    /// buffer, not NUL-terminated.
    size_t path_offset;
    size_t path_length;
    /// `f` (regular file), `d` (folder) or `o` (anything else).
    char type;
};

/// Lists everything below `root` without following links, each entry stat'ed relative to its
/// folder: `*count` entries in the malloc'd array `*entries`, their paths in the malloc'd buffer
/// `*names` (free both with free()). Returns 0, or -1 with errno set (nothing to free then).
int feedgen_list_tree(const char *root, struct feedgen_tree_entry **entries, size_t *count, char **names);

/// Reads `count` decimal numbers from the `length` bytes at `p`, each ended by a space or a line
/// feed (the build cache's state lines): into `values`. Returns the bytes read (the last
/// number's end included), or 0 when there are not `count` such numbers or one is 2^64 or more.
size_t feedgen_state_numbers(const unsigned char *p, size_t length, unsigned long long *values, size_t count);

/// Writes `count` numbers in decimal, each followed by a space, to `out` (room for 21 bytes a
/// number). Returns the bytes written.
size_t feedgen_format_numbers(const unsigned long long *values, size_t count, unsigned char *out);

/// Whether the tree at `root` is exactly what a manifest in the build cache's state describes:
/// the same regular files with the same sizes, modification times and inodes, and no other files
/// or folders (with `ignore_user_entries`, a root entry named as the user's — a dot-name other
/// than `marker`, or `CNAME` — that the manifest has no path under is passed over). `body`
/// (`length` bytes) holds the manifest's lines (`hash key size mtime inode path`, each ending in
/// a line feed), or with `whole` the state's lines between its header and its `end` line (every
/// tree, each after its `tree <inode>` line), of which the tree `tree` is compared. Returns 1
/// when it is; 0 when it is not or the lines are beyond this check (a line not strictly in that
/// form, a path twice, a non-ASCII path: compare them as Strings instead); -1 with errno set
/// when the tree cannot be listed.
int feedgen_tree_matches_state(const char *root, const unsigned char *body, size_t length, int whole, unsigned long long tree,
                               int ignore_user_entries, const char *marker);

/// feedgen_tree_matches_state, where the tree `verified_tree` of the state lines `verified`
/// (`verified_length` bytes, in `whole` form), which was just found at `verified_root` exactly as
/// they say (feedgen_tree_matches_state said 1), vouches for the hard links of its files: a
/// regular file below `root` whose line the verified tree has too (the same bytes: path, size,
/// time and inode) and whose directory entry's inode (readdir's d_ino) is that inode is not
/// stat'ed (the answer is the same: the two are one file). Only where d_ino is st_ino and inode
/// numbers of the two trees name the same files (both on one device of tmpfs, ext2/3/4 or XFS, no
/// mount point below either); elsewhere, or with `verified` NULL, every entry is stat'ed.
int feedgen_tree_matches_state_vouched(const char *root, const unsigned char *body, size_t length, int whole, unsigned long long tree,
                                       int ignore_user_entries, const char *marker, const char *verified_root,
                                       const unsigned char *verified, size_t verified_length, unsigned long long verified_tree);

/// What a file's `stat` says of it: a changed file has a different one (git's index rule).
struct feedgen_file_stamp {
    long long size;
    /// Modification and status-change times, ns since 1970.
    long long mtime_ns;
    long long ctime_ns;
    unsigned long long inode;
    unsigned long long device;
};

/// One entry of a folder listing (feedgen_list_folder).
struct feedgen_folder_entry {
    /// The entry's name, NUL-terminated, inside the listing's names buffer.
    const char *name;
    size_t name_length;
    /// `f`: a regular file, or a link to one; `d`: a folder, or a link to one; `b`: a symbolic
    /// link whose target does not exist; `o`: anything else (a FIFO, socket or device, or a link
    /// to one).
    char kind;
    /// Whether the entry is a symbolic link (followed for `kind` and `stamp`).
    char is_link;
    /// Whether `stamp` holds the entry's stat (links followed).
    char has_stamp;
    struct feedgen_file_stamp stamp;
};

/// Lists the folder `path` (without `.` and `..`), sorted by name byte-wise (strcmp): `*count`
/// entries in the malloc'd array `*entries`, their names in the malloc'd buffer `*names` (free
/// both with free()). Entries that are neither files, folders nor symbolic links are left out.
/// Each entry that needs it (a link, or a file system that does not report types) is stat'ed
/// relative to the folder (fstatat, following links), and with `stamp_files` every file too, so
/// that callers get each file's stamp without looking its path up again. `folder` (when not NULL)
/// receives the folder's own stamp (its device and inode identify it).
/// Returns 0, or -1 with errno set (nothing to free then).
int feedgen_list_folder(const char *path, int stamp_files, struct feedgen_file_stamp *folder,
                        struct feedgen_folder_entry **entries, size_t *count, char **names);

/// Recreates the folders of `from` below the new folder `to` and hard-links every regular file.
/// Thread-safe: several trees may be linked at once.
/// Returns 0, or -1 with errno set (`to` may then be partly filled).
int feedgen_link_tree(const char *from, const char *to);

// MARK: - The build cache's files (feedgen_cache_files.c)

/// Opens the regular file `path` for reading, never blocking and never following a final link
/// (O_NONBLOCK | O_NOFOLLOW, then fstat): a FIFO, socket, device, folder or symbolic link in its
/// place is not opened (-1, errno EINVAL for a non-regular file). `stamp` (when not NULL) receives
/// the file's stat. Returns the descriptor (blocking again), or -1 with errno set.
int feedgen_open_regular(const char *path, struct feedgen_file_stamp *stamp);

/// Removes whatever is at `path`, not following links: a folder with everything below it, any
/// other kind of file by unlink. Returns 0 (also when nothing was there), or -1 with errno set.
int feedgen_remove_any(const char *path);

/// Creates `path` as a new, empty regular file for writing (mode 0644), removing whatever was
/// there first (feedgen_remove_any): O_CREAT | O_EXCL | O_NOFOLLOW, so a FIFO, folder or link of
/// that name is never written through nor waited on. Returns the descriptor, or -1 with errno.
int feedgen_create_regular(const char *path);

/// feedgen_create_regular, then writes `length` bytes and closes. Returns 0, or -1 with errno.
int feedgen_write_regular(const char *path, const void *bytes, size_t length);

/// Writes `length` bytes at `fd`'s place (again after a short write or EINTR). Returns 0, or -1
/// with errno.
int feedgen_write_all(int fd, const char *p, size_t length);

/// Renames `from` to `to`; when a folder is in the way (`to` is a folder), removes it and tries
/// again. Returns 0, or -1 with errno set.
int feedgen_rename_over(const char *from, const char *to);

/// Makes sure `path` is a folder (not a link to one): anything else of that name is removed
/// (feedgen_remove_any) and the folder created (mode 0755). Returns 0, or -1 with errno set.
int feedgen_ensure_folder(const char *path);

/// Opens (creating it if needed) the regular file `path` for reading and writing, for a lock:
/// anything else of that name (a FIFO, socket, folder or link) is removed and replaced by an empty
/// regular file. Returns the descriptor, or -1 with errno set.
int feedgen_open_lock_file(const char *path);

// MARK: - Mapped files cut short (SIGBUS)

/// Watches the mapping of `length` bytes at `base`, mapped from the file `path`: when a read of
/// it faults because another process truncated the file (SIGBUS), the process writes
/// `feedgen: error: <path> was cut short by another process while this build read it; …` to
/// standard error and exits with status 1 (`_exit`: nothing more is written; the build's output
/// is exchanged whole or not at all). Installs the SIGBUS handler the first time; a fault
/// anywhere else goes to the handler that was there before. Returns a slot for
/// feedgen_unwatch_mapping, or -1 when every slot is taken (the mapping is then not watched).
int feedgen_watch_mapping(const void *base, size_t length, const char *path);

/// Stops watching a mapping (before it is unmapped). Does nothing for -1.
void feedgen_unwatch_mapping(int slot);

/// Whether this build's output was already exchanged into place (1) or not yet (0): chooses
/// what the SIGBUS message says about the output.
void feedgen_set_output_committed(int committed);

#endif
