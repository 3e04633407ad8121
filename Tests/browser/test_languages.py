"""Languages (issue 8 §3): `lang` on the page, sections and items; Japanese phrase wrapping with
strict line breaking; long words and URLs never overflow a card at 320 px; and `dir="rtl"`
derived from an RTL `lang`, with the carousel's insets mirrored (logical properties)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from browser_support import close_page, open_page, page_url

FEED_PAGES = ["index.html", "recipes/index.html"]


def test_page_and_item_lang(browser, site):
    opened = open_page(browser, page_url(site / "index.html"), 390)
    try:
        page = opened.page
        assert page.get_attribute("html", "lang") == "en"
        assert page.get_attribute("html", "dir") is None
        card = page.locator('[data-item-id="today/kisetsu"] article.card')
        assert card.get_attribute("lang") == "ja"
        styles = card.evaluate(
            """c => ({card: getComputedStyle(c).lineBreak,
                      title: getComputedStyle(c.querySelector('h3')).wordBreak,
                      text: getComputedStyle(c.querySelector('p')).wordBreak,
                      titleLine: getComputedStyle(c.querySelector('h3')).lineBreak})"""
        )
        assert styles == {"card": "strict", "title": "auto-phrase", "text": "auto-phrase", "titleLine": "strict"}, styles
        # English cards are untouched.
        en = page.locator('[data-item-id="today/morning"] .card-title').evaluate("e => getComputedStyle(e).wordBreak")
        assert en == "normal"
    finally:
        close_page(opened)
    detail = open_page(browser, page_url(site / "today/kisetsu.html"), 390)
    try:
        assert detail.page.get_attribute("html", "lang") == "ja"
        word_break = detail.page.locator(".detail-body p").first.evaluate("e => getComputedStyle(e).wordBreak")
        assert word_break == "auto-phrase"
    finally:
        close_page(detail)


_OVERFLOW_JS = """
() => [...document.querySelectorAll('.card, .chip, .detail')]
  .filter(c => c.scrollWidth > c.clientWidth + 0.5)
  .map(c => (c.closest('[data-item-id]') || c).getAttribute('data-item-id') || c.className)
"""


@pytest.mark.parametrize("rel", FEED_PAGES + ["today/read-later.html"])
def test_no_card_overflows_at_320(browser, site, rel):
    opened = open_page(browser, page_url(site / rel), 320)
    try:
        page = opened.page
        assert page.locator(".card, .detail").count() > 0
        assert page.evaluate(_OVERFLOW_JS) == []
        # nor the page itself (horizontal scrollers scroll inside their own box)
        assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    finally:
        close_page(opened)


# ---------------------------------------------------------------------------------------------
# Right to left

_ITEM = """---
title: {title}
description: {text}
---
{text}
"""


def _rtl_site(root: Path, language: str) -> Path:
    (root / "content/shelf").mkdir(parents=True)
    (root / "feedgen.yaml").write_text(f"title: RTL\nlanguage: {language}\n", encoding="utf-8")
    (root / "content/_feed.md").write_text("---\ntitle: Home\nsections: [shelf]\n---\n", encoding="utf-8")
    (root / "content/shelf/_section.md").write_text("---\ntitle: Shelf\nlayout: carousel\n---\n", encoding="utf-8")
    for i in range(1, 7):
        (root / f"content/shelf/item{i}.md").write_text(
            _ITEM.format(title=f"Item {i}", text="نص قصير " * 3), encoding="utf-8")
    return root


_GEOMETRY_JS = """
() => {
  const vw = document.documentElement.clientWidth;
  const scroller = document.querySelector('[data-scroller]');
  const cells = [...scroller.querySelectorAll('[data-item-id]')];
  const first = cells[0].getBoundingClientRect();
  const second = cells[1].getBoundingClientRect();
  const heading = document.querySelector('.cl-header h2').getBoundingClientRect();
  return {
    dir: getComputedStyle(scroller).direction,
    firstStart: first.left, firstEnd: vw - first.right, secondLeft: second.left, firstLeft: first.left,
    headingLeft: heading.left, headingRight: vw - heading.right, vw,
    overflow: scroller.scrollWidth > scroller.clientWidth,
  };
}
"""


def _geometry(browser, feedgen: Path, tmp: Path, language: str) -> dict:
    root = _rtl_site(tmp / language, language)
    out = root / "public"
    r = subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    opened = open_page(browser, page_url(out / "index.html"), 390)
    try:
        assert not opened.problems, opened.problems
        html = opened.page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]")
        return {"html": html, **opened.page.evaluate(_GEOMETRY_JS)}
    finally:
        close_page(opened)


def test_rtl_lang_sets_dir_and_mirrors_the_carousel(browser, feedgen, tmp_path):
    ltr = _geometry(browser, feedgen, tmp_path, "en")
    rtl = _geometry(browser, feedgen, tmp_path, "ar")
    assert ltr["html"] == ["en", ""] and rtl["html"] == ["ar", "rtl"]
    assert ltr["dir"] == "ltr" and rtl["dir"] == "rtl"
    assert ltr["overflow"] and rtl["overflow"], "the shelf should scroll in both"
    # The first card sits at the start inset: left in LTR, right in RTL, the same distance.
    assert abs(rtl["firstEnd"] - ltr["firstStart"]) <= 0.5, (ltr, rtl)
    # The second card follows the first towards the end: right of it in LTR, left in RTL.
    assert ltr["secondLeft"] > ltr["firstLeft"] and rtl["secondLeft"] < rtl["firstLeft"]
    # The heading's start inset mirrors too.
    assert abs(rtl["headingRight"] - ltr["headingLeft"]) <= 0.5, (ltr, rtl)


def test_rtl_item_in_ltr_page_gets_dir(feedgen, tmp_path):
    root = tmp_path / "mixed"
    (root / "content/shelf").mkdir(parents=True)
    (root / "feedgen.yaml").write_text("title: Mixed\nlanguage: en\n", encoding="utf-8")
    (root / "content/_feed.md").write_text("---\ntitle: Home\nsections: [shelf]\n---\n", encoding="utf-8")
    (root / "content/shelf/_section.md").write_text("---\ntitle: Shelf\nlayout: list\n---\n", encoding="utf-8")
    (root / "content/shelf/a.md").write_text("---\ntitle: שלום\nlang: he\n---\nגוף\n", encoding="utf-8")
    (root / "content/shelf/b.md").write_text("---\ntitle: Hello\nlang: en-GB\n---\nBody\n", encoding="utf-8")
    out = root / "public"
    r = subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    home = (out / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in home
    assert 'lang="he" dir="rtl"' in home and 'lang="en-GB">' in home
    detail = (out / "shelf/a.html").read_text(encoding="utf-8")
    assert '<html lang="he" dir="rtl">' in detail
