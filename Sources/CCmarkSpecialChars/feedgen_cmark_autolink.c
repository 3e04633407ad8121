// cmark-gfm's autolink extension without its postprocessing step, for texts with no `@`.
//
// The extension finds `www.` and `scheme:` links while inlines are parsed, and email addresses
// after parsing: its postprocess function walks the whole tree and searches every text node
// for `@` (autolink.c, postprocess_text), on every document. A document in whose text no `@`
// can appear gets the same tree from this copy, which has no postprocess function: the walk
// is skipped (the parser has merged adjacent text nodes already, cmark_parser_finish).
#include <cmark-gfm-extension_api.h>
#include <stddef.h>

#include "feedgen_cmark_autolink.h"

// Exported by libcmark-gfm-extensions, declared in its autolink.h (not installed).
cmark_syntax_extension *create_autolink_extension(void);

void *feedgen_cmark_autolink_without_email(void) {
  cmark_syntax_extension *extension = create_autolink_extension();
  if (extension) cmark_syntax_extension_set_postprocess_func(extension, NULL);
  return extension;
}
