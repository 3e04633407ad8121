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
// The library calls the function through its PLT, so this definition in the program takes its
// place: the characters are added when the first parser with extensions starts and removed
// when the last one ends, under a lock, by the library's own function (found with RTLD_NEXT).
// Every parser of feedgen attaches the same extensions, so the table then always matches the
// running parsers. Parsers without extensions (strict CommonMark) change nothing.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "feedgen_cmark_special_chars.h"

typedef struct cmark_parser cmark_parser;
typedef struct _cmark_llist cmark_llist;
extern cmark_llist *cmark_parser_get_syntax_extensions(cmark_parser *parser);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int parsing;  // parsers with extensions between their add and their remove
static atomic_int replaced;

void cmark_manage_extensions_special_characters(cmark_parser *parser, int add) {
  static void (*library)(cmark_parser *, int);
  atomic_store(&replaced, 1);
  if (cmark_parser_get_syntax_extensions(parser) == NULL) return;  // no characters to manage
  pthread_mutex_lock(&lock);
  if (library == NULL) library = (void (*)(cmark_parser *, int))dlsym(RTLD_NEXT, "cmark_manage_extensions_special_characters");
  if (library != NULL) {
    if (add) {
      if (parsing++ == 0) library(parser, 1);
    } else if (parsing > 0 && --parsing == 0) {
      library(parser, 0);
    }
  }
  pthread_mutex_unlock(&lock);
}

int feedgen_cmark_special_chars_replaced(void) { return atomic_load(&replaced); }
