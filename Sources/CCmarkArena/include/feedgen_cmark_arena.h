// A per-thread arena for cmark-gfm's memory: a parse's nodes, buffers and rendered HTML (see
// feedgen_cmark_arena.c).
#pragma once

#include <cmark-gfm.h>

/// The calling thread's arena as a cmark-gfm allocator, for `cmark_parser_new_with_mem`.
/// Blocks it gives out stay valid until the thread's outermost `feedgen_cmark_arena_leave`.
cmark_mem *feedgen_cmark_arena(void);

/// Opens a use of the calling thread's arena (uses nest).
void feedgen_cmark_arena_enter(void);

/// Closes a use of the calling thread's arena; the outermost one returns every block it gave
/// out at once (the memory is kept for the thread's next parse, up to a bound).
void feedgen_cmark_arena_leave(void);
