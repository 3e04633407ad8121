// toml++ behind a C API (include/feedgen_toml.h): the document is flattened into nodes in
// pre-order, a table's keys sorted back into source order (toml++ keeps them in a map).

#include "feedgen_toml.h"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <cmath>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

struct feedgen_toml_document {
    std::vector<feedgen_toml_node> nodes;
    // Keys and value texts, owned here; nodes point into them (each string is allocated once,
    // so its buffer stays where it is while the list grows).
    std::vector<std::unique_ptr<std::string>> texts;
    std::string error;
    bool failed = false;
    uint32_t error_line = 0, error_column = 0;
};

namespace {

const std::string &S_keep(feedgen_toml_document &doc, std::string text) {
    doc.texts.push_back(std::make_unique<std::string>(std::move(text)));
    return *doc.texts.back();
}

std::string S_two(unsigned value) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "%02u", value % 100);
    return buffer;
}

std::string S_date(const toml::date &d) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%04u-%02u-%02u", unsigned(d.year), unsigned(d.month), unsigned(d.day));
    return buffer;
}

std::string S_time(const toml::time &t) {
    std::string text = S_two(t.hour) + ":" + S_two(t.minute) + ":" + S_two(t.second);
    if (t.nanosecond != 0) {
        char buffer[16];
        std::snprintf(buffer, sizeof buffer, ".%09u", unsigned(t.nanosecond));
        std::string fraction = buffer;
        while (fraction.back() == '0') fraction.pop_back();
        text += fraction;
    }
    return text;
}

std::string S_float(double value) {
    if (std::isnan(value)) return ".nan";
    if (std::isinf(value)) return value > 0 ? ".inf" : "-.inf";
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    std::string text(buffer, result.ptr);
    // `3.0` stays a float: YAML would read `3` as an integer.
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
}

void S_append(feedgen_toml_document &doc, const toml::node &node, const toml::key *key) {
    feedgen_toml_node out{};
    if (key) {
        const std::string &k = S_keep(doc, std::string(key->str()));
        out.key = k.data();
        out.key_length = k.size();
        out.key_line = key->source().begin.line;
        out.key_column = key->source().begin.column;
    }
    out.line = node.source().begin.line;
    out.column = node.source().begin.column;
    auto scalar = [&](feedgen_toml_kind kind, std::string text) {
        out.kind = kind;
        const std::string &t = S_keep(doc, std::move(text));
        out.text = t.data();
        out.text_length = t.size();
        doc.nodes.push_back(out);
    };
    switch (node.type()) {
    case toml::node_type::table: {
        const toml::table &table = *node.as_table();
        std::vector<std::pair<const toml::key *, const toml::node *>> children;
        for (auto &&[k, v] : table) children.emplace_back(&k, &v);
        std::stable_sort(children.begin(), children.end(), [](const auto &a, const auto &b) {
            const auto &pa = a.first->source().begin, &pb = b.first->source().begin;
            return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
        });
        out.kind = FEEDGEN_TOML_TABLE;
        out.child_count = uint32_t(children.size());
        doc.nodes.push_back(out);
        for (auto &[k, v] : children) S_append(doc, *v, k);
        return;
    }
    case toml::node_type::array: {
        const toml::array &array = *node.as_array();
        out.kind = FEEDGEN_TOML_ARRAY;
        out.child_count = uint32_t(array.size());
        doc.nodes.push_back(out);
        for (const toml::node &element : array) S_append(doc, element, nullptr);
        return;
    }
    case toml::node_type::string:
        return scalar(FEEDGEN_TOML_STRING, std::string(node.as_string()->get()));
    case toml::node_type::integer:
        return scalar(FEEDGEN_TOML_INTEGER, std::to_string(node.as_integer()->get()));
    case toml::node_type::floating_point:
        return scalar(FEEDGEN_TOML_FLOAT, S_float(node.as_floating_point()->get()));
    case toml::node_type::boolean:
        return scalar(FEEDGEN_TOML_BOOLEAN, node.as_boolean()->get() ? "true" : "false");
    case toml::node_type::date:
        return scalar(FEEDGEN_TOML_DATE, S_date(node.as_date()->get()));
    case toml::node_type::time:
        return scalar(FEEDGEN_TOML_TIME, S_time(node.as_time()->get()));
    case toml::node_type::date_time: {
        const toml::date_time &dt = node.as_date_time()->get();
        std::string text = S_date(dt.date) + "T" + S_time(dt.time);
        if (dt.offset) {
            int minutes = dt.offset->minutes;
            if (minutes == 0) {
                text += "Z";
            } else {
                text += minutes < 0 ? "-" : "+";
                unsigned magnitude = unsigned(minutes < 0 ? -minutes : minutes);
                text += S_two(magnitude / 60) + ":" + S_two(magnitude % 60);
            }
        }
        return scalar(FEEDGEN_TOML_DATE_TIME, std::move(text));
    }
    case toml::node_type::none:
        return;
    }
}

void S_fail(feedgen_toml_document &doc, const toml::parse_error &error) {
    doc.failed = true;
    doc.error = std::string(error.description());
    doc.error_line = error.source().begin.line;
    doc.error_column = error.source().begin.column;
}

}  // namespace

extern "C" feedgen_toml_document *feedgen_toml_parse(const char *bytes, size_t length) {
    auto *doc = new (std::nothrow) feedgen_toml_document();
    if (!doc) return nullptr;
    try {
        std::string_view source(bytes ? bytes : "", bytes ? length : 0);
#if TOML_EXCEPTIONS
        try {
            toml::table table = toml::parse(source);
            S_append(*doc, table, nullptr);
        } catch (const toml::parse_error &error) {
            S_fail(*doc, error);
        }
#else
        toml::parse_result result = toml::parse(source);
        if (result) {
            S_append(*doc, result.table(), nullptr);
        } else {
            S_fail(*doc, result.error());
        }
#endif
    } catch (const std::bad_alloc &) {
        doc->nodes.clear();
        doc->failed = true;
        doc->error = "out of memory";
    }
    return doc;
}

extern "C" const char *feedgen_toml_error(const feedgen_toml_document *document, uint32_t *line, uint32_t *column) {
    if (!document->failed) return nullptr;
    if (line) *line = document->error_line;
    if (column) *column = document->error_column;
    return document->error.c_str();
}

extern "C" size_t feedgen_toml_node_count(const feedgen_toml_document *document) { return document->nodes.size(); }

extern "C" const feedgen_toml_node *feedgen_toml_node_at(const feedgen_toml_document *document, size_t index) {
    return index < document->nodes.size() ? &document->nodes[index] : nullptr;
}

extern "C" void feedgen_toml_free(feedgen_toml_document *document) { delete document; }
