// GitHub's cmark-gfm (Debian's libcmark-gfm-dev, libcmark-gfm-extensions-dev): CommonMark with
// the GFM extensions (tables, strikethrough, autolinks, task lists, tag filter) and footnotes.
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
