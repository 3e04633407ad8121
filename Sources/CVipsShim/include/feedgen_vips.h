#ifndef FEEDGEN_VIPS_H
#define FEEDGEN_VIPS_H

#include <stddef.h>

/// Non-variadic wrappers around the few libvips calls feedgen makes (libvips' own API takes
/// NULL-terminated option lists, which Swift cannot call). feedgen does not link libvips: the
/// library (Debian 12's libvips42, `libvips.so.42`) is loaded with dlopen by the first call that
/// needs it, so that builds of sites without images never load it. Every function may be called
/// from any thread; libvips is loaded once, and initialised once by the first call that needs it
/// (as VIPS_INIT does, operation cache off, one worker thread per operation: feedgen runs several
/// operations in parallel itself).

/// Output formats of `feedgen_vips_resize_save`.
typedef enum {
    FEEDGEN_VIPS_WEBP = 0,
    FEEDGEN_VIPS_JPEG = 1,
    FEEDGEN_VIPS_PNG = 2,
} feedgen_vips_format;

/// libwebp's effort (0–6) for WebP variants: 2 takes 30 % less CPU than libvips' default 4 for
/// files within 0.1 % of the size (measured on 2400 × 1600 photos).
#define FEEDGEN_VIPS_WEBP_EFFORT 2

/// Loads libvips with dlopen (`libvips.so.42`, else `libvips.so`; once; later calls return the
/// first result) and checks its ABI as VIPS_INIT does, without initialising it. Returns 0, or -1
/// with the reason in `error` (NUL-terminated, truncated to `error_size`), which names the library
/// and Debian's package (libvips42) when the library or one of its symbols is missing.
int feedgen_vips_load(char *error, size_t error_size);

/// Loads (``feedgen_vips_load``) and initialises libvips (once; later calls return the first
/// result; its warnings are silenced). Returns 0, or -1 with the reason in `error`
/// (NUL-terminated, truncated to `error_size`; one line per libvips message).
int feedgen_vips_init(char *error, size_t error_size);

/// The loaded libvips' version, "8.14.1", or NULL when it cannot be loaded (the reason is
/// ``feedgen_vips_load``'s). Loads the library but does not initialise it: a build whose variants
/// are all cached never starts libvips.
const char *feedgen_vips_version(void);

/// Decodes `in_path` completely (failing on truncated or corrupt data), turns it upright from its
/// EXIF orientation, shrinks it to `width` pixels wide (the height keeps the aspect ratio; never
/// enlarged) and writes it to `out_path` as `format` with `quality` (1–100; ignored by PNG, which
/// is lossless), without metadata (EXIF, XMP, ICC after conversion to sRGB, dates), so that the
/// same input gives the same bytes. Returns 0, or -1 with libvips' message in `error`.
///
/// With `alone` nonzero the call waits until no other call of this function runs in the process
/// and keeps the others waiting while it runs. libvips' error buffer and its error freeze (which
/// drops the messages of every thread while one thread tries its file loaders) are global, so a
/// message is only surely the call's own, and the same on every run, when the call ran alone.
int feedgen_vips_resize_save(
    const char *in_path, const char *out_path, int width, feedgen_vips_format format, int quality,
    int alone, char *error, size_t error_size);


#endif
