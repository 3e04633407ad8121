// Makes Debian 12's cmark-gfm (0.29.0.gfm.6) safe to run on several threads at once.
//
// cmark-gfm keeps the characters that stop a run of inline text (`~` for strikethrough, `:` and
// `w` for autolinks) in one process-wide table. Each parser with those extensions adds them
// when its inline parsing starts and removes them when it ends, through
// cmark_manage_extensions_special_characters (blocks.c, process_inlines). A parser that ends
// removes them while another is still parsing, which then leaves `~~text~~` and bare URLs as
// plain text: about one body in a hundred of a parallel build, a different one on every run
// (github/cmark-gfm#176; later releases keep the table per parser).
//
// feedgen links the library's static archives with `--wrap` for the two functions that change
// the table (Package.swift): blocks.c's calls to them come here (the `__wrap_` names), and each
// character is added when the first parser that needs it starts and removed when the last one
// ends, under a lock, by the library's own functions (the `__real_` names). The table then
// always holds the characters of the running parsers. Parsers without extensions (strict
// CommonMark) change nothing.
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "feedgen_cmark_special_chars.h"

void __real_cmark_inlines_add_special_character(unsigned char c, bool emphasis);
void __real_cmark_inlines_remove_special_character(unsigned char c, bool emphasis);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned users[256];  // parsers between their add and their remove of each character
static atomic_int replaced;

void __wrap_cmark_inlines_add_special_character(unsigned char c, bool emphasis) {
  atomic_store(&replaced, 1);
  pthread_mutex_lock(&lock);
  if (users[c]++ == 0) __real_cmark_inlines_add_special_character(c, emphasis);
  pthread_mutex_unlock(&lock);
}

void __wrap_cmark_inlines_remove_special_character(unsigned char c, bool emphasis) {
  pthread_mutex_lock(&lock);
  if (users[c] > 0 && --users[c] == 0) __real_cmark_inlines_remove_special_character(c, emphasis);
  pthread_mutex_unlock(&lock);
}

int feedgen_cmark_special_chars_replaced(void) { return atomic_load(&replaced); }
