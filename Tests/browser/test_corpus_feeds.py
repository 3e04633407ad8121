"""The feeds of both real corpora (../shared/corpus: Hugo's documentation and Jekyll's release
posts, copied unchanged with only _feed.md / _section.md and a feedgen.yaml with a `baseURL`
that has a path) validate: feed.xml as Atom (feedparser, no bozo), feed.json against a JSON Feed
1.1 schema written from the spec (jsonschema); no `feedgen-md:` text anywhere; every entry's
link and every link and image in entry content absolute under `baseURL`, its path kept (issue 19,
"Done when", "Feeds"). Skipped (with the reason shown) when ../shared is absent. Not a browser
test: it lives here for the venv and the corpus fixtures' shape."""

from __future__ import annotations

import json
import re
from pathlib import Path

import feedparser
import jsonschema
import pytest

import corpus_sites

SHARED = corpus_sites.SHARED
BASE = corpus_sites.BASE

pytestmark = pytest.mark.skipif(
    not corpus_sites.available(),
    reason=f"{SHARED} not found (the corpora live beside the repository, in ../shared/corpus)",
)

# JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): the top-level and item keys, their types,
# and the required ones (`version`, `title`, `items`; an item's `id` and `content_html` or
# `content_text`). Dates are RFC 3339 date-times.
_DATE = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$"
_AUTHOR = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "url": {"type": "string"}, "avatar": {"type": "string"}},
    "anyOf": [{"required": ["name"]}, {"required": ["url"]}, {"required": ["avatar"]}],
}
JSON_FEED_1_1 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["version", "title", "items"],
    "properties": {
        "version": {"const": "https://jsonfeed.org/version/1.1"},
        "title": {"type": "string"},
        "home_page_url": {"type": "string", "pattern": "^https?://"},
        "feed_url": {"type": "string", "pattern": "^https?://"},
        "description": {"type": "string"},
        "user_comment": {"type": "string"},
        "next_url": {"type": "string"},
        "icon": {"type": "string"},
        "favicon": {"type": "string"},
        "authors": {"type": "array", "items": _AUTHOR},
        "language": {"type": "string"},
        "expired": {"type": "boolean"},
        "hubs": {"type": "array"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id"],
                "anyOf": [{"required": ["content_html"]}, {"required": ["content_text"]}],
                "properties": {
                    "id": {"type": "string"},
                    "url": {"type": "string", "pattern": "^https?://"},
                    "external_url": {"type": "string"},
                    "title": {"type": "string"},
                    "content_html": {"type": "string"},
                    "content_text": {"type": "string"},
                    "summary": {"type": "string"},
                    "image": {"type": "string", "pattern": "^https?://"},
                    "banner_image": {"type": "string"},
                    "date_published": {"type": "string", "pattern": _DATE},
                    "date_modified": {"type": "string", "pattern": _DATE},
                    "authors": {"type": "array", "items": _AUTHOR},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "language": {"type": "string"},
                    "attachments": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["url", "mime_type"],
                            "properties": {"url": {"type": "string"}, "mime_type": {"type": "string"}, "size_in_bytes": {"type": "number"}},
                        },
                    },
                },
            },
        },
    },
}

_URL_ATTR = re.compile(r'\s(?:href|src)="([^"]*)"')


@pytest.fixture(scope="module")
def corpus_feeds(feedgen, tmp_path_factory) -> dict[str, Path]:
    """Both corpora, as test_corpus_overflow checks their pages (built once for both)."""
    return corpus_sites.build_corpora(feedgen, tmp_path_factory)


def _content_urls(html: str) -> list[str]:
    # Inside <pre> a URL is text an example shows, not a link.
    return _URL_ATTR.findall(re.sub(r"<pre.*?</pre>", "", html, flags=re.S))


def _assert_absolute(urls: list[str], where: str) -> None:
    # `[text]()` is an empty destination in the source itself (the entry's own page).
    bad = [u for u in urls if u and not (re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", u) or u.startswith("#"))]
    assert bad == [], f"{where}: relative URLs in a feed: {bad[:5]}"
    # A URL on the site's own host is under the base URL's path (never the host's root).
    host = re.match(r"^https?://[^/]+/", BASE).group(0)
    lost = [u for u in urls if u.startswith(host) and not u.startswith(BASE)]
    assert lost == [], f"{where}: URLs that lost the path of baseURL: {lost[:5]}"


@pytest.mark.parametrize("name", ["hugodocs", "jekyll-posts"])
def test_atom_feed_validates_with_absolute_urls(corpus_feeds, name):
    text = (corpus_feeds[name] / "feed.xml").read_text(encoding="utf-8")
    assert "feedgen-md:" not in text
    feed = feedparser.parse(text)
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    # Entries are unique; Jekyll's are its 102 posts.
    assert len({e.id for e in feed.entries}) == len(feed.entries) > 0
    if name == "jekyll-posts":
        assert len(feed.entries) == 102
    for entry in feed.entries:
        assert entry.link.startswith(BASE), entry.link
        assert entry.id.startswith(BASE), entry.id
        for enclosure in entry.get("enclosures", []):
            assert enclosure.get("type", "").startswith("image/") and int(enclosure.get("length", "0")) > 0, enclosure
        for content in entry.get("content", []):
            _assert_absolute(_content_urls(content.value), f"{name} feed.xml {entry.link}")


@pytest.mark.parametrize("name", ["hugodocs", "jekyll-posts"])
def test_json_feed_validates_against_json_feed_1_1(corpus_feeds, name):
    text = (corpus_feeds[name] / "feed.json").read_text(encoding="utf-8")
    assert "feedgen-md:" not in text
    doc = json.loads(text)
    jsonschema.validate(doc, JSON_FEED_1_1)
    assert doc["feed_url"] == BASE + "feed.json"
    for item in doc["items"]:
        assert item["url"].startswith(BASE), item["url"]
        _assert_absolute(_content_urls(item.get("content_html", "")), f"{name} feed.json {item['url']}")
