// A per-thread arena for cmark-gfm: the parser, the node tree, the extensions' data and the
// rendered HTML of one Markdown text come from one growing block of memory, given back at once
// when the text is done.
//
// cmark-gfm calls its allocator for every node and every buffer it grows (tens of thousands of
// calls for a long page), and frees them one by one when the tree is freed. Its own arena
// (cmark_get_arena_mem_allocator) is one process-wide arena, which cannot serve parsers on
// several threads at once; this one is per thread. Freeing is a no-op except for the last
// block (a buffer that grew and was given back), and a realloc of the last block grows it in
// place, which is how cmark's buffers grow.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feedgen_cmark_arena.h"

enum {
    header = 16,                        // each block's length, before it; keeps blocks 16-aligned
    first_chunk = 256 * 1024,           // a typical body's tree fits in one chunk
    kept_chunk = 4 * 1024 * 1024,       // the most memory a thread keeps between parses
};

typedef struct chunk {
    struct chunk *previous;
    size_t size;  // bytes of data
    size_t used;
    _Alignas(16) unsigned char data[];
} chunk;

typedef struct arena {
    chunk *top;
    unsigned char *last;  // the last block given out, while it is the top chunk's end
    size_t depth;         // uses open (feedgen_cmark_arena_enter)
} arena;

static _Thread_local arena current;
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

// At a thread's exit, its chunks go back to the process.
static void thread_exit(void *unused) {
    (void)unused;
    for (chunk *c = current.top; c;) {
        chunk *previous = c->previous;
        free(c);
        c = previous;
    }
    current.top = NULL;
}

static void make_exit_key(void) { pthread_key_create(&exit_key, thread_exit); }

static _Noreturn void out_of_memory(void) {
    // What cmark-gfm's own allocator does (cmark.c, xcalloc).
    fprintf(stderr, "[cmark] calloc returned null pointer, aborting\n");
    abort();
}

static size_t rounded(size_t size) {
    if (size > SIZE_MAX - 2 * header) out_of_memory();
    return (size + 15) & ~(size_t)15;
}

static void *allocate(size_t size) {
    size_t need = rounded(size) + header;
    chunk *top = current.top;
    if (!top || top->size - top->used < need) {
        size_t grown = top ? top->size * 2 : first_chunk;
        size_t bytes = need > grown ? need : grown;
        chunk *c = malloc(sizeof(chunk) + bytes);
        if (!c) out_of_memory();
        if (!top) {
            pthread_once(&exit_once, make_exit_key);
            pthread_setspecific(exit_key, c);  // any non-null value: thread_exit runs
        }
        c->previous = top;
        c->size = bytes;
        c->used = 0;
        current.top = top = c;
    }
    unsigned char *block = top->data + top->used + header;
    *(size_t *)(block - header) = size;
    top->used += need;
    current.last = block;
    return block;
}

static void *arena_calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) out_of_memory();
    void *block = allocate(count * size);
    memset(block, 0, count * size);
    return block;
}

static void *arena_realloc(void *pointer, size_t size) {
    if (!pointer) return allocate(size);
    unsigned char *block = pointer;
    size_t length = *(size_t *)(block - header);
    chunk *top = current.top;
    if (block == current.last) {
        // The last block grows or shrinks in place when the chunk has the room.
        size_t start = (size_t)(block - top->data);
        size_t need = rounded(size);
        if (top->size - start >= need) {
            *(size_t *)(block - header) = size;
            top->used = start + need;
            return block;
        }
    }
    void *moved = allocate(size);
    memcpy(moved, block, length < size ? length : size);
    return moved;
}

static void arena_free(void *pointer) {
    unsigned char *block = pointer;
    if (block && block == current.last) {
        current.top->used = (size_t)(block - current.top->data) - header;
        current.last = NULL;
    }
}

static cmark_mem arena_allocator = {arena_calloc, arena_realloc, arena_free};

cmark_mem *feedgen_cmark_arena(void) { return &arena_allocator; }

void feedgen_cmark_arena_enter(void) { current.depth += 1; }

void feedgen_cmark_arena_leave(void) {
    if (--current.depth > 0 || !current.top) return;
    // Keeps the largest chunk of at most kept_chunk bytes (chunks double: the topmost such)
    // for the next parse, and gives the others back.
    chunk *keep = current.top;
    while (keep && keep->size > kept_chunk) keep = keep->previous;
    for (chunk *c = current.top; c;) {
        chunk *previous = c->previous;
        if (c != keep) free(c);
        c = previous;
    }
    if (keep) {
        keep->previous = NULL;
        keep->used = 0;
    }
    current.top = keep;
    current.last = NULL;
}
