#include "feedgen_vips.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_status = -1;
static char init_error[512];

/// libvips keeps one error buffer for the process: copy it out and clear it under a lock, so that
/// concurrent failures do not clear each other's text.
static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;

static void take_error(char *error, size_t error_size, const char *fallback) {
    pthread_mutex_lock(&error_lock);
    const char *text = vips_error_buffer();
    if (text == NULL || text[0] == '\0') text = fallback;
    if (error != NULL && error_size > 0) {
        snprintf(error, error_size, "%s", text);
    }
    vips_error_clear();
    pthread_mutex_unlock(&error_lock);
}

/// libvips' warnings ("error in tile 0 x 16") would go to stderr; its errors reach the caller.
static void quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain, (void)level, (void)message, (void)data;
}

static void init_vips(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, quiet, NULL);
    if (VIPS_INIT("feedgen") != 0) {
        take_error(init_error, sizeof init_error, "libvips could not be initialised");
        return;
    }
    // No operation cache: a build reads each file once, and a cached result for a path would
    // survive the file being replaced (watch mode).
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    init_status = 0;
}

int feedgen_vips_init(char *error, size_t error_size) {
    pthread_once(&init_once, init_vips);
    if (init_status != 0 && error != NULL && error_size > 0) snprintf(error, error_size, "%s", init_error);
    return init_status;
}

const char *feedgen_vips_version(void) {
    return vips_version_string();  // a constant of the library: needs no init
}

/// Writes `length` bytes to `path`. Returns 0, or -1 (with a libvips error).
static int write_all(const char *path, const unsigned char *bytes, size_t length) {
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        vips_error("feedgen", "cannot create %s", path);
        return -1;
    }
    size_t written = fwrite(bytes, 1, length, f);
    if (fclose(f) != 0 || written != length) {
        vips_error("feedgen", "cannot write %s", path);
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
    if (vips_webpsave_buffer(image, &buffer, &length, "Q", quality, "strip", TRUE, "effort", FEEDGEN_VIPS_WEBP_EFFORT, NULL) != 0) return -1;
    unsigned char *in = buffer;
    unsigned char *out = g_malloc(length);
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
    if (status != 0) vips_error("feedgen", "libvips wrote an unexpected WebP file");
    else status = write_all(out_path, out, n);
    g_free(out);
    g_free(buffer);
    return status;
}

int feedgen_vips_resize_save(
    const char *in_path, const char *out_path, int width, feedgen_vips_format format, int quality,
    char *error, size_t error_size) {
    if (feedgen_vips_init(error, error_size) != 0) return -1;
    VipsImage *image = NULL;
    // Height unbounded: the width alone decides the scale. VIPS_SIZE_DOWN never enlarges.
    if (vips_thumbnail(in_path, &image, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN,
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
        status = vips_jpegsave(image, out_path, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
        break;
    case FEEDGEN_VIPS_PNG:
        status = vips_pngsave(image, out_path, "strip", TRUE, NULL);
        break;
    default:
        status = -1;
        vips_error("feedgen", "unknown output format %d", (int)format);
    }
    g_object_unref(image);
    if (status != 0) {
        take_error(error, error_size, "its image data is truncated or corrupt");
        return -1;
    }
    return 0;
}
