// GitHub's cmark-gfm (Debian's libcmark-gfm-dev, libcmark-gfm-extensions-dev): CommonMark with
// the GFM extensions (tables, strikethrough, autolinks, task lists, tag filter) and footnotes.
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

// The extensions' node types: exported by libcmark-gfm-extensions but declared in no installed
// header; set once when the extensions are registered, read-only after (hence `const` here).
extern const cmark_node_type CMARK_NODE_TABLE;
extern const cmark_node_type CMARK_NODE_STRIKETHROUGH;
