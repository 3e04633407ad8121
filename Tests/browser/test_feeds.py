"""Feeds and sharing (issue 8 §6): the Atom (RFC 4287) and JSON Feed 1.1 documents of every
feed page, the sitemap, `<link rel="alternate">`, canonical, OpenGraph and Twitter meta on every
page; and, without `baseURL`, no feeds and one note saying why."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

BASE = "https://example.org/feedgen/"
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
FEEDS = {"": "index.html", "recipes/": "recipes/index.html"}
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


class _Head(HTMLParser):
    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[dict[str, str]] = []
        self.html: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.html = a
        elif tag == "meta" and ("property" in a or "name" in a):
            self.meta[a.get("property") or a["name"]] = a.get("content", "")
        elif tag == "link":
            self.links.append(a)


def _head(path: Path) -> _Head:
    h = _Head()
    h.feed(path.read_text(encoding="utf-8"))
    return h


def _pages(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))


def _page_url(rel: str) -> str:
    return BASE + (rel[: -len("index.html")] if rel.endswith("index.html") else rel)


@pytest.mark.parametrize("prefix", list(FEEDS))
def test_atom_feed_has_the_required_elements(site, prefix):
    root = ET.parse(site / prefix / "feed.xml").getroot()
    assert root.tag == ATOM + "feed"
    assert root.findtext(ATOM + "id") == BASE + prefix
    assert root.findtext(ATOM + "title")
    assert RFC3339.match(root.findtext(ATOM + "updated"))
    assert root.find(ATOM + "author/" + ATOM + "name").text  # RFC 4287 §4.1.1: an author
    self_link = [l for l in root.findall(ATOM + "link") if l.get("rel") == "self"]
    assert self_link and self_link[0].get("href") == BASE + prefix + "feed.xml"
    entries = root.findall(ATOM + "entry")
    assert entries
    ids = [e.findtext(ATOM + "id") for e in entries]
    assert len(ids) == len(set(ids)), "entry ids must be unique"
    newest = max(e.findtext(ATOM + "updated") for e in entries)
    assert root.findtext(ATOM + "updated") == newest
    for e in entries:
        assert e.findtext(ATOM + "id").startswith("https://")
        assert e.findtext(ATOM + "title")
        assert RFC3339.match(e.findtext(ATOM + "updated"))
        alternate = [l for l in e.findall(ATOM + "link") if l.get("rel", "alternate") == "alternate"]
        assert alternate and alternate[0].get("href").startswith("https://")
        content = e.find(ATOM + "content")
        if content is not None:
            assert content.get("type") == "html" and content.text
            # relative links inside the content were made absolute
            assert not re.search(r'(href|src)="(?!https?:|mailto:|#)', content.text)


@pytest.mark.parametrize("prefix", list(FEEDS))
def test_json_feed_has_the_required_fields(site, prefix):
    doc = json.loads((site / prefix / "feed.json").read_text(encoding="utf-8"))
    assert doc["version"] == "https://jsonfeed.org/version/1.1"
    assert doc["title"]
    assert doc["home_page_url"] == BASE + prefix
    assert doc["feed_url"] == BASE + prefix + "feed.json"
    assert doc["items"]
    ids = [i["id"] for i in doc["items"]]
    assert len(ids) == len(set(ids))
    atom_ids = [e.findtext(ATOM + "id") for e in ET.parse(site / prefix / "feed.xml").getroot().findall(ATOM + "entry")]
    assert ids == atom_ids, "the two feeds list the same items in the same order"
    for item in doc["items"]:
        assert isinstance(item["id"], str) and item["id"]
        assert item["url"].startswith("https://")
        assert ("content_html" in item) or ("content_text" in item)
        if "date_published" in item:
            assert RFC3339.match(item["date_published"])
        if "image" in item:
            assert item["image"].startswith("https://")


def test_feeds_hold_the_feed_items_with_dates_from_content(site):
    doc = json.loads((site / "recipes/feed.json").read_text(encoding="utf-8"))
    by_url = {i["url"]: i for i in doc["items"]}
    miso = by_url[BASE + "recipes/recipes/miso-soup.html"]
    assert miso["date_published"] == "2026-11-18T00:00:00Z"
    assert miso["image"] == BASE + "assets/recipes/recipes/miso-soup.png"
    home = json.loads((site / "feed.json").read_text(encoding="utf-8"))
    undated = [i for i in home["items"] if "date_published" not in i]
    assert undated, "the sample has an undated item; it is listed without date_published"


def test_sitemap_lists_every_page(site):
    root = ET.parse(site / "sitemap.xml").getroot()
    assert root.tag == SITEMAP + "urlset"
    locs = [u.findtext(SITEMAP + "loc") for u in root.findall(SITEMAP + "url")]
    assert sorted(locs) == sorted(_page_url(p) for p in _pages(site))


def test_every_page_has_sharing_meta(site):
    pages = _pages(site)
    assert len(pages) > 2
    for rel in pages:
        h = _head(site / rel)
        m = h.meta
        assert m.get("og:title"), rel
        assert m.get("og:type") == ("website" if rel.endswith("index.html") else "article"), rel
        assert m.get("og:url") == _page_url(rel), rel
        assert m.get("twitter:card") in ("summary", "summary_large_image"), rel
        assert m.get("twitter:title") == m["og:title"], rel
        if "description" in m:
            assert m.get("og:description") == m["description"] == m.get("twitter:description"), rel
        canonical = [l for l in h.links if l.get("rel") == "canonical"]
        assert canonical and canonical[0]["href"] == _page_url(rel), rel
        html = (site / rel).read_text(encoding="utf-8")
        if 'class="detail-image"' in html:
            assert m.get("og:image", "").startswith(BASE + "assets/"), rel
            assert m.get("twitter:card") == "summary_large_image", rel


@pytest.mark.parametrize("prefix,page", list(FEEDS.items()))
def test_feed_pages_link_their_feeds(site, prefix, page):
    h = _head(site / page)
    alternates = {l["type"]: l["href"] for l in h.links if l.get("rel") == "alternate"}
    assert alternates == {"application/atom+xml": "feed.xml", "application/feed+json": "feed.json"}
    # detail pages have none
    detail = next(p for p in _pages(site) if not p.endswith("index.html"))
    assert not [l for l in _head(site / detail).links if l.get("rel") == "alternate"]


def test_without_base_url_no_feeds_and_one_note(feedgen, repo_root, tmp_path):
    work = tmp_path / "site"
    shutil.copytree(repo_root / "content", work / "content")
    (work / "feedgen.yaml").write_text("title: no base\nlanguage: en\n", encoding="utf-8")
    out = tmp_path / "public"
    r = subprocess.run([str(feedgen), "build", str(work), "--output", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    notes = [l for l in (r.stdout + r.stderr).splitlines() if "note:" in l and "baseURL" in l]
    assert len(notes) == 1 and (r.stdout + r.stderr).count("note:") == 1, r.stdout + r.stderr
    assert notes[0].startswith("feedgen.yaml"), notes
    assert not list(out.rglob("feed.xml")) and not list(out.rglob("feed.json")) and not (out / "sitemap.xml").exists()
    h = _head(out / "index.html")
    assert "og:url" not in h.meta and "og:title" in h.meta
    assert not [l for l in h.links if l.get("rel") in ("alternate", "canonical")]
