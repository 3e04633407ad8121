// pthread_rwlockattr_setkind_np (glibc).
#define _GNU_SOURCE

#include "feedgen_vips.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libvips is loaded with dlopen on first use, so that `feedgen` does not link it: linking it put
// about 100 more shared libraries into every run (`feedgen --version`: 35 ms of CPU and 2,017
// page faults, 9 ms and 720 without), also for sites without images. glib and gobject are libvips' own dependencies: their symbols are
// looked up through the same handle (dlsym searches a handle's dependencies too).
//
// The prototypes and constants below are copied from libvips 8.14's and glib 2.74's headers
// (Debian 12's libvips-dev and libglib2.0-dev), which feedgen no longer includes. Enums and
// gboolean are passed as int, which is how C passes them (glib's enums and gboolean are int-sized).

/// Debian 12's SONAME of libvips 8.x (libvips42), then the development symlink (libvips-dev).
static const char *const library_names[] = {"libvips.so.42", "libvips.so"};

// vips/version.h (libvips 8.14.1): the ABI this file was written against, as VIPS_INIT checks it.
#define VIPS_LIBRARY_CURRENT 58
#define VIPS_LIBRARY_AGE 16
// vips/resample.h: enum VipsSize { VIPS_SIZE_BOTH, VIPS_SIZE_UP, VIPS_SIZE_DOWN, ... }.
#define VIPS_SIZE_DOWN 2
// vips/foreign.h: enum VipsFailOn { NONE, TRUNCATED, ERROR, WARNING, LAST }.
#define VIPS_FAIL_ON_ERROR 2
// vips/image.h.
#define VIPS_MAX_COORD 10000000
// glib/gmacros.h: FALSE (0), TRUE (!FALSE).
#define TRUE 1
// glib/gmessages.h: GLogLevelFlags bits.
#define G_LOG_LEVEL_WARNING (1 << 4)
#define G_LOG_LEVEL_MESSAGE (1 << 5)
#define G_LOG_LEVEL_INFO (1 << 6)

/// VipsImage is only ever handled through pointers here.
typedef struct VipsImage VipsImage;

// vips/vips.h
typedef int (*vips_init_fn)(const char *argv0);
typedef int (*vips_version_fn)(int flag);
typedef const char *(*vips_version_string_fn)(void);
// vips/error.h
typedef const char *(*vips_error_buffer_fn)(void);
typedef void (*vips_error_clear_fn)(void);
typedef void (*vips_error_fn)(const char *domain, const char *fmt, ...);
// vips/operation.h
typedef void (*vips_cache_set_max_fn)(int max);
typedef void (*vips_concurrency_set_fn)(int concurrency);
// vips/vector.h (gboolean is an int)
typedef void (*vips_vector_set_enabled_fn)(int enabled);
// vips/resample.h; option lists are NULL-terminated.
typedef int (*vips_thumbnail_fn)(const char *filename, VipsImage **out, int width, ...);
// vips/foreign.h
typedef int (*vips_webpsave_buffer_fn)(VipsImage *in, void **buf, size_t *len, ...);
typedef int (*vips_jpegsave_fn)(VipsImage *in, const char *filename, ...);
typedef int (*vips_pngsave_fn)(VipsImage *in, const char *filename, ...);
// glib/gmessages.h: GLogFunc and g_log_set_handler (log_levels is a GLogLevelFlags; returns guint).
typedef void (*GLogFunc)(const char *log_domain, int log_level, const char *message, void *user_data);
typedef unsigned (*g_log_set_handler_fn)(const char *log_domain, int log_levels, GLogFunc log_func, void *user_data);
// glib/gmem.h
typedef void (*g_free_fn)(void *mem);
// gobject/gobject.h
typedef void (*g_object_unref_fn)(void *object);

static struct {
    vips_init_fn init;
    vips_version_fn version;
    vips_version_string_fn version_string;
    vips_error_buffer_fn error_buffer;
    vips_error_clear_fn error_clear;
    vips_error_fn error;
    vips_cache_set_max_fn cache_set_max;
    vips_concurrency_set_fn concurrency_set;
    vips_vector_set_enabled_fn vector_set_enabled;  // NULL where the library has none
    vips_thumbnail_fn thumbnail;
    vips_webpsave_buffer_fn webpsave_buffer;
    vips_jpegsave_fn jpegsave;
    vips_pngsave_fn pngsave;
    g_log_set_handler_fn log_set_handler;
    g_free_fn free;
    g_object_unref_fn object_unref;
} vips;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[512];

static const char *install_hint = "image variants need Debian's libvips42 package (scripts/install-deps installs it)";

static void load_vips(void) {
    void *handle = NULL;
    char first_error[256] = "";
    for (size_t i = 0; i < sizeof library_names / sizeof library_names[0] && handle == NULL; i++) {
        handle = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL && i == 0) {
            const char *reason = dlerror();
            snprintf(first_error, sizeof first_error, "%s", reason ? reason : "not found");
        }
    }
    if (handle == NULL) {
        snprintf(load_error, sizeof load_error, "cannot load %s (%s); %s", library_names[0], first_error, install_hint);
        return;
    }
    struct { const char *name; void **slot; } symbols[] = {
        {"vips_init", (void **)&vips.init},
        {"vips_version", (void **)&vips.version},
        {"vips_version_string", (void **)&vips.version_string},
        {"vips_error_buffer", (void **)&vips.error_buffer},
        {"vips_error_clear", (void **)&vips.error_clear},
        {"vips_error", (void **)&vips.error},
        {"vips_cache_set_max", (void **)&vips.cache_set_max},
        {"vips_concurrency_set", (void **)&vips.concurrency_set},
        {"vips_thumbnail", (void **)&vips.thumbnail},
        {"vips_webpsave_buffer", (void **)&vips.webpsave_buffer},
        {"vips_jpegsave", (void **)&vips.jpegsave},
        {"vips_pngsave", (void **)&vips.pngsave},
        {"g_log_set_handler", (void **)&vips.log_set_handler},
        {"g_free", (void **)&vips.free},
        {"g_object_unref", (void **)&vips.object_unref},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *address = dlsym(handle, symbols[i].name);
        if (address == NULL) {
            snprintf(load_error, sizeof load_error, "%s has no symbol %s; %s", library_names[0], symbols[i].name, install_hint);
            return;  // the handle stays open: the loader keeps one reference either way
        }
        *symbols[i].slot = address;
    }
    // VIPS_INIT's check (vips/vips.h): the library's ABI, current - age, must be the one the
    // prototypes above were written for.
    int abi = vips.version(3) - vips.version(5);
    if (abi != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) {
        snprintf(load_error, sizeof load_error, "the loaded libvips %s has ABI version %d, feedgen needs %d; %s",
            vips.version_string(), abi, VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE, install_hint);
        return;
    }
    // Optional: libvips builds without Orc may not export it.
    vips.vector_set_enabled = (vips_vector_set_enabled_fn)dlsym(handle, "vips_vector_set_enabled");
    load_status = 0;
}

int feedgen_vips_load(char *error, size_t error_size) {
    pthread_once(&load_once, load_vips);
    if (load_status != 0 && error != NULL && error_size > 0) snprintf(error, error_size, "%s", load_error);
    return load_status;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_status = -1;
static char init_error[512];

/// libvips keeps one error buffer for the process: copy it out and clear it under a lock, so that
/// concurrent failures do not clear each other's text.
static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;

static void take_error(char *error, size_t error_size, const char *fallback) {
    pthread_mutex_lock(&error_lock);
    const char *text = vips.error_buffer();
    if (text == NULL || text[0] == '\0') text = fallback;
    if (error != NULL && error_size > 0) {
        snprintf(error, error_size, "%s", text);
    }
    vips.error_clear();
    pthread_mutex_unlock(&error_lock);
}

/// libvips' warnings ("error in tile 0 x 16") would go to stderr; its errors reach the caller.
static void quiet(const char *domain, int level, const char *message, void *data) {
    (void)domain, (void)level, (void)message, (void)data;
}

static void init_vips(void) {
    if (feedgen_vips_load(init_error, sizeof init_error) != 0) return;
    vips.log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, quiet, NULL);
    if (vips.init("feedgen") != 0) {
        take_error(init_error, sizeof init_error, "libvips could not be initialised");
        return;
    }
    // No operation cache: a build reads each file once, and a cached result for a path would
    // survive the file being replaced (watch mode).
    vips.cache_set_max(0);
    vips.concurrency_set(1);
    // No run-time generated SIMD code (Orc): it has crashed with SIGSEGV on image threads here
    // and in other libvips users (sharp #172, imagor #271 turn it off too); a build makes few
    // variants, so the plain C paths cost little.
    if (vips.vector_set_enabled != NULL) vips.vector_set_enabled(0);
    init_status = 0;
}

int feedgen_vips_init(char *error, size_t error_size) {
    pthread_once(&init_once, init_vips);
    if (init_status != 0 && error != NULL && error_size > 0) snprintf(error, error_size, "%s", init_error);
    return init_status;
}

const char *feedgen_vips_version(void) {
    if (feedgen_vips_load(NULL, 0) != 0) return NULL;
    return vips.version_string();  // a constant of the library: needs no init
}

/// Writes `length` bytes to `path`. Returns 0, or -1 (with a libvips error).
static int write_all(const char *path, const unsigned char *bytes, size_t length) {
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        vips.error("feedgen", "cannot create %s", path);
        return -1;
    }
    size_t written = fwrite(bytes, 1, length, f);
    if (fclose(f) != 0 || written != length) {
        vips.error("feedgen", "cannot write %s", path);
        return -1;
    }
    return 0;
}

/// WebP without metadata. libvips 8.14's webpsave writes an EXIF chunk (orientation, resolution)
/// even with "strip", so the RIFF chunks are filtered here: EXIF, XMP and ICCP chunks are dropped
/// and their VP8X flags cleared (WebP container specification: VP8X flags byte, ICC 0x20,
/// EXIF 0x08, XMP 0x04).
static int save_webp(VipsImage *image, const char *out_path, int quality) {
    void *buffer = NULL;
    size_t length = 0;
    if (vips.webpsave_buffer(image, &buffer, &length, "Q", quality, "strip", TRUE, "effort", FEEDGEN_VIPS_WEBP_EFFORT, NULL) != 0) return -1;
    unsigned char *in = buffer;
    unsigned char *out = malloc(length > 0 ? length : 1);
    if (out == NULL) {
        vips.free(buffer);
        vips.error("feedgen", "out of memory");
        return -1;
    }
    size_t n = 0;
    int status = -1;
    if (length >= 12 && memcmp(in, "RIFF", 4) == 0 && memcmp(in + 8, "WEBP", 4) == 0) {
        memcpy(out, in, 12);
        n = 12;
        size_t i = 12;
        status = 0;
        while (i + 8 <= length) {
            size_t size = (size_t)in[i + 4] | (size_t)in[i + 5] << 8 | (size_t)in[i + 6] << 16 | (size_t)in[i + 7] << 24;
            size_t total = 8 + size + (size & 1);
            if (i + total > length) {
                status = -1;
                break;
            }
            if (memcmp(in + i, "EXIF", 4) != 0 && memcmp(in + i, "XMP ", 4) != 0 && memcmp(in + i, "ICCP", 4) != 0) {
                memcpy(out + n, in + i, total);
                if (memcmp(in + i, "VP8X", 4) == 0 && size >= 1) out[n + 8] &= (unsigned char)~(0x20 | 0x08 | 0x04);
                n += total;
            }
            i += total;
        }
        size_t riff = n - 8;
        out[4] = riff & 0xFF;
        out[5] = (riff >> 8) & 0xFF;
        out[6] = (riff >> 16) & 0xFF;
        out[7] = (riff >> 24) & 0xFF;
    }
    if (status != 0) vips.error("feedgen", "libvips wrote an unexpected WebP file");
    else status = write_all(out_path, out, n);
    free(out);
    vips.free(buffer);
    return status;
}

/// Calls of `feedgen_vips_resize_save` hold it shared, or alone exclusively. Writers are
/// preferred, so that a call that must run alone is not kept waiting by a stream of others.
static pthread_rwlock_t resize_lock;
static pthread_once_t resize_lock_once = PTHREAD_ONCE_INIT;

static void make_resize_lock(void) {
    pthread_rwlockattr_t attributes;
    pthread_rwlockattr_init(&attributes);
    pthread_rwlockattr_setkind_np(&attributes, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&resize_lock, &attributes);
    pthread_rwlockattr_destroy(&attributes);
}

static int resize_save(
    const char *in_path, const char *out_path, int width, feedgen_vips_format format, int quality,
    char *error, size_t error_size) {
    VipsImage *image = NULL;
    // Height unbounded: the width alone decides the scale. VIPS_SIZE_DOWN never enlarges.
    if (vips.thumbnail(in_path, &image, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
            "fail_on", VIPS_FAIL_ON_ERROR, NULL) != 0) {
        take_error(error, error_size, "cannot read the image");
        return -1;
    }
    int status;
    switch (format) {
    case FEEDGEN_VIPS_WEBP:
        status = save_webp(image, out_path, quality);
        break;
    case FEEDGEN_VIPS_JPEG:
        status = vips.jpegsave(image, out_path, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
        break;
    case FEEDGEN_VIPS_PNG:
        status = vips.pngsave(image, out_path, "strip", TRUE, NULL);
        break;
    default:
        status = -1;
        vips.error("feedgen", "unknown output format %d", (int)format);
    }
    vips.object_unref(image);
    if (status != 0) {
        take_error(error, error_size, "its image data is truncated or corrupt");
        return -1;
    }
    return 0;
}

int feedgen_vips_resize_save(
    const char *in_path, const char *out_path, int width, feedgen_vips_format format, int quality,
    int alone, char *error, size_t error_size) {
    if (feedgen_vips_init(error, error_size) != 0) return -1;
    pthread_once(&resize_lock_once, make_resize_lock);
    if (alone) pthread_rwlock_wrlock(&resize_lock);
    else pthread_rwlock_rdlock(&resize_lock);
    // Nothing of libvips' error state is left from calls that ran before this one.
    if (alone) take_error(NULL, 0, "");
    int status = resize_save(in_path, out_path, width, format, quality, error, error_size);
    pthread_rwlock_unlock(&resize_lock);
    return status;
}
