// Debian's libvips-dev (pkg-config vips). Only the CVipsShim C target includes it: its API is
// variadic (NULL-terminated option lists), which Swift cannot call; feedgen_vips.h wraps it.
#include <vips/vips.h>
