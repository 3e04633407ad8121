// cmark-gfm's autolink extension without email addresses (see feedgen_cmark_autolink.c).
#pragma once

/// A new autolink extension (a `cmark_syntax_extension *`) with no postprocess function: it
/// links `www.` and `scheme:` URLs as the registered one does, but not email addresses. Never
/// freed; NULL when out of memory.
void *feedgen_cmark_autolink_without_email(void);
