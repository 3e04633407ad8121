// Reading a folder's entries, for the listings of feedgen_fs.c and feedgen_tree_list.c (inline:
// called once per entry of every listing). Not in the public header.
#ifndef FEEDGEN_FOLDER_H
#define FEEDGEN_FOLDER_H

#include <dirent.h>
#include <errno.h>
#include <unistd.h>

/// A directory stream on the open folder `fd` (closed when that fails); NULL for a negative `fd`.
static inline DIR *feedgen_open_folder(int fd) {
    if (fd < 0) return NULL;
    DIR *folder = fdopendir(fd);
    if (!folder) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return folder;
}

/// The next entry of `folder` other than `.` and `..`, or NULL at the end (with `*result` set to
/// -1 when readdir failed).
static inline struct dirent *feedgen_next_entry(DIR *folder, int *result) {
    for (;;) {
        errno = 0;
        struct dirent *entry = readdir(folder);
        if (!entry) {
            if (errno != 0) *result = -1;
            return NULL;
        }
        const char *name = entry->d_name;
        if (!(name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))) return entry;
    }
}

#endif
