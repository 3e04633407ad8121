// A thread-safe replacement for cmark-gfm's management of its special inline characters (see
// feedgen_cmark_special_chars.c).
#pragma once

/// 1 when cmark-gfm has called the replacement (so parsers on several threads are safe), else 0.
int feedgen_cmark_special_chars_replaced(void);
