#ifndef FEEDGEN_TOML_H
#define FEEDGEN_TOML_H

// A plain C view of toml++ (Debian's libtomlplusplus-dev, TOML 1.0): parse bytes into a flat
// list of nodes that Swift turns into front-matter values, or into one error with its position.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a node holds. Scalars carry their value as text (`text`); tables and arrays have children.
typedef enum {
    FEEDGEN_TOML_TABLE = 0,
    FEEDGEN_TOML_ARRAY = 1,
    FEEDGEN_TOML_STRING = 2,
    /// Decimal text (`0x1F` and `1_000` are written `31` and `1000`).
    FEEDGEN_TOML_INTEGER = 3,
    /// The shortest text that reads back as the same double; `.inf`, `-.inf`, `.nan` (YAML's).
    FEEDGEN_TOML_FLOAT = 4,
    /// `true` or `false`.
    FEEDGEN_TOML_BOOLEAN = 5,
    /// A local date, `YYYY-MM-DD`.
    FEEDGEN_TOML_DATE = 6,
    /// A local time, `hh:mm:ss(.fraction)`.
    FEEDGEN_TOML_TIME = 7,
    /// `YYYY-MM-DDThh:mm:ss(.fraction)`, then `Z` or `±hh:mm` when it has an offset (else local).
    FEEDGEN_TOML_DATE_TIME = 8,
} feedgen_toml_kind;

/// One node. The nodes of a document are in pre-order: a table or array is followed by its
/// `child_count` children (each followed by its own), a table's children in the order their keys
/// are written in the source. Lines and columns are 1-based; columns count Unicode code points.
typedef struct {
    feedgen_toml_kind kind;
    uint32_t child_count;
    /// The key of a table's child (UTF-8, not NUL-terminated), else NULL.
    const char *key;
    size_t key_length;
    /// Where the key is written (0 when the node has no key).
    uint32_t key_line, key_column;
    /// A scalar's value as text (UTF-8, not NUL-terminated), else NULL.
    const char *text;
    size_t text_length;
    /// Where the value starts (for a table: its header, or its first key when implicit).
    uint32_t line, column;
} feedgen_toml_node;

typedef struct feedgen_toml_document feedgen_toml_document;

/// Parses `length` bytes of TOML. Never NULL (except when memory runs out): a document that
/// failed has no nodes and an error (`feedgen_toml_error`). Free it with `feedgen_toml_free`.
feedgen_toml_document *feedgen_toml_parse(const char *bytes, size_t length);

/// The parse error's message (NUL-terminated, owned by the document) and its position, or NULL
/// when the document parsed.
const char *feedgen_toml_error(const feedgen_toml_document *document, uint32_t *line, uint32_t *column);

/// The number of nodes (the root table is node 0) and one of them, valid until the document is freed.
size_t feedgen_toml_node_count(const feedgen_toml_document *document);
const feedgen_toml_node *feedgen_toml_node_at(const feedgen_toml_document *document, size_t index);

void feedgen_toml_free(feedgen_toml_document *document);

#ifdef __cplusplus
}
#endif

#endif
