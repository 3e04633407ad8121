// The build cache's files: opened so that a FIFO, socket, folder or link put in place of one of
// them never blocks a build or is written through, and the SIGBUS handler for its mapped logs.
#define _GNU_SOURCE
#include "feedgen_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// feedgen_fs.c: a stat as a stamp (feedgen_write_all is in the header).
void feedgen_fill_stamp(struct feedgen_file_stamp *stamp, const struct stat *info);

int feedgen_open_regular(const char *path, struct feedgen_file_stamp *stamp) {
    // O_NONBLOCK: opening a FIFO for reading would wait for a writer; O_NOFOLLOW: a link fails.
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat info;
    int status = fstat(fd, &info);
    if (status != 0 || !S_ISREG(info.st_mode)) {
        int saved = status != 0 ? errno : EINVAL;
        close(fd);
        errno = saved;
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    if (stamp) feedgen_fill_stamp(stamp, &info);
    return fd;
}

int feedgen_remove_any(const char *path) {
    struct stat info;
    if (lstat(path, &info) != 0) return errno == ENOENT ? 0 : -1;
    if (S_ISDIR(info.st_mode)) return feedgen_remove_tree(path);
    return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}

int feedgen_create_regular(const char *path) {
    for (int attempt = 0; attempt < 3; attempt++) {
        if (feedgen_remove_any(path) != 0) return -1;
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0 || errno != EEXIST) return fd;  // EEXIST: made again meanwhile
    }
    errno = EEXIST;
    return -1;
}

int feedgen_write_regular(const char *path, const void *bytes, size_t length) {
    int fd = feedgen_create_regular(path);
    if (fd < 0) return -1;
    int result = feedgen_write_all(fd, bytes, length);
    int saved = errno;
    if (close(fd) != 0 && result == 0) return -1;
    errno = saved;
    return result;
}

int feedgen_rename_over(const char *from, const char *to) {
    if (rename(from, to) == 0) return 0;
    if (errno != EISDIR && errno != ENOTEMPTY && errno != EEXIST) return -1;
    if (feedgen_remove_any(to) != 0) return -1;
    return rename(from, to);
}

int feedgen_ensure_folder(const char *path) {
    struct stat info;
    if (lstat(path, &info) == 0) {
        if (S_ISDIR(info.st_mode)) return 0;
        if (unlink(path) != 0 && errno != ENOENT) return -1;
    } else if (errno != ENOENT) {
        return -1;
    }
    return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

int feedgen_open_lock_file(const char *path) {
    for (int attempt = 0; attempt < 3; attempt++) {
        int fd = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0644);
        struct stat info;
        if (fd >= 0 && fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
            int flags = fcntl(fd, F_GETFL);
            if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
            return fd;
        }
        if (fd >= 0) {
            close(fd);
        } else if (errno != EISDIR && errno != ELOOP && errno != ENXIO && errno != EEXIST) {
            return -1;
        }
        // Not a regular file (a folder, link, FIFO or socket): replaced by one.
        if (feedgen_remove_any(path) != 0) return -1;
    }
    errno = EINVAL;
    return -1;
}

// MARK: - SIGBUS

enum { watch_slots = 32, watch_path_max = 4096 };

/// A watched mapping. `state`: 0 free, 1 being filled or emptied, 2 watched.
struct watched_mapping {
    _Atomic int state;
    uintptr_t base;
    size_t length;
    size_t path_length;
    char path[watch_path_max];
};

static struct watched_mapping watched[watch_slots];
static _Atomic int output_committed;
/// Set by the first thread that reports a cut log: another thread faulting at once (two cores
/// reading the mapping) waits for its exit instead of writing the message a second time.
static _Atomic int reporting;
static struct sigaction previous_action;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void write_text(const char *text, size_t length) {
    while (length > 0) {
        ssize_t n = write(STDERR_FILENO, text, length);
        if (n < 0) {
            if (errno == EINTR) continue;
            return;
        }
        text += n;
        length -= (size_t)n;
    }
}

#define WRITE_LITERAL(text) write_text(text, sizeof(text) - 1)

static void on_sigbus(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int k = 0; k < watch_slots; k++) {
        struct watched_mapping *m = &watched[k];
        if (atomic_load_explicit(&m->state, memory_order_acquire) != 2) continue;
        if (address < m->base || address - m->base >= m->length) continue;
        if (atomic_exchange_explicit(&reporting, 1, memory_order_acq_rel) != 0) {
            for (;;) pause();
        }
        WRITE_LITERAL("feedgen: error: ");
        write_text(m->path, m->path_length);
        if (atomic_load_explicit(&output_committed, memory_order_acquire)) {
            WRITE_LITERAL(" was cut short by another process while this build read it; the output was "
                          "already written whole, but the build cache was not saved; run the build again\n");
        } else {
            WRITE_LITERAL(" was cut short by another process while this build read it; nothing was written "
                          "to the output; run the build again\n");
        }
        _exit(1);
    }
    // Not a watched mapping: the handler that was there before (or the default action) takes
    // the fault when the instruction runs again.
    sigaction(signal_number, &previous_action, NULL);
}

static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous_action);
}

int feedgen_watch_mapping(const void *base, size_t length, const char *path) {
    size_t path_length = strlen(path);
    if (path_length >= watch_path_max) return -1;
    pthread_once(&install_once, install);
    for (int k = 0; k < watch_slots; k++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&watched[k].state, &expected, 1)) continue;
        watched[k].base = (uintptr_t)base;
        watched[k].length = length;
        memcpy(watched[k].path, path, path_length);
        watched[k].path_length = path_length;
        atomic_store_explicit(&watched[k].state, 2, memory_order_release);
        return k;
    }
    return -1;
}

void feedgen_unwatch_mapping(int slot) {
    if (slot < 0 || slot >= watch_slots) return;
    atomic_store_explicit(&watched[slot].state, 1, memory_order_release);
    watched[slot].base = 0;
    watched[slot].length = 0;
    atomic_store_explicit(&watched[slot].state, 0, memory_order_release);
}

void feedgen_set_output_committed(int committed) {
    atomic_store_explicit(&output_committed, committed ? 1 : 0, memory_order_release);
}
