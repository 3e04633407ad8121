"""No layout shift (issue 8 §4): the cumulative layout shift of every sample page is 0 after load
and after scrolling to the end, in Chromium at 390 and 1280 px (PerformanceObserver
`layout-shift`, buffered, registered before the page's own content). The same holds for a
generated feed of 2,000 cards whose off-screen cards render lazily (`content-visibility: auto`
with estimated heights, docs/layout.md "Long sections")."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from browser_support import evaluate_with_frames, page_url
from long_feed import synthetic_texts, write_long_feed

_OBSERVE = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (!e.hadRecentInput) window.__shifts.push({value: e.value,
      sources: (e.sources || []).map(s => s.node ? (s.node.className || s.node.nodeName) : '?')});
  }
}).observe({type: 'layout-shift', buffered: true});
"""

_SCROLL_TO_END = """
async (_, frame) => {
  const step = Math.max(200, innerHeight * 0.8);
  for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
    window.scrollTo({top: y, behavior: 'instant'});
    await frame();
  }
  window.scrollTo({top: document.documentElement.scrollHeight, behavior: 'instant'});
  await Promise.all([...document.images].map(i => i.complete ? null : new Promise(r => {
    i.addEventListener('load', r, {once: true}); i.addEventListener('error', r, {once: true}); setTimeout(r, 3000);
  })));
  await frame();
}
"""

_TOTAL = "() => new Promise(r => setTimeout(() => r(window.__shifts), 100))"


def _pages(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))


@pytest.fixture(scope="module", params=[(390, 844), (1280, 900)], ids=lambda v: f"{v[0]}-{v[1]}")
def sample_pages(request, browser, site) -> tuple[int, int, dict[str, dict]]:
    """Every sample page loaded once at one viewport: (width, height, page → {"images": the
    images as loaded (before any scroll), "after_load" and "after_scroll": the layout shifts}).
    test_cls_is_zero… and test_first_screen_images… read the same load (before, each loaded
    every page itself)."""
    width, height = request.param
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(_OBSERVE)
    page = context.new_page()
    seen: dict[str, dict] = {}
    try:
        for rel in _pages(site):
            page.goto(page_url(site / rel), wait_until="load")
            after_load = page.evaluate(_TOTAL)
            images = page.evaluate(_IMAGES_JS)
            evaluate_with_frames(page, _SCROLL_TO_END)
            seen[rel] = {"images": images, "after_load": after_load, "after_scroll": page.evaluate(_TOTAL)}
    finally:
        context.close()
    return width, height, seen


def test_cls_is_zero_after_load_and_after_scrolling(sample_pages):
    width, _, seen = sample_pages
    failures = []
    for rel, m in seen.items():
        load_cls = sum(s["value"] for s in m["after_load"])
        total = sum(s["value"] for s in m["after_scroll"])
        print(f"CLS {width}px {rel}: after load {load_cls:.4f}, after scrolling {total:.4f}")
        if m["after_scroll"]:
            failures.append(f"{rel}: {m['after_scroll']}")
    assert not failures, "layout shifts:\n" + "\n".join(failures)


@pytest.fixture(scope="module")
def long_sites(feedgen, tmp_path_factory, long_list_site) -> dict[str, Path]:
    """2,000-card feeds: the list (conftest.py, shared with test_content_visibility) and a grid
    built here; layout → output folder."""
    root = write_long_feed(tmp_path_factory.mktemp("long-grid"), 2000, synthetic_texts(2000), layout="grid")
    public = root / "public"
    subprocess.run([str(feedgen), "build", str(root), "--output", str(public), "--quiet"], check=True)
    return {"list": long_list_site, "grid": public}


@pytest.mark.parametrize("layout", ["list", "grid"])
@pytest.mark.parametrize("width,height", [(390, 844), (1280, 900)])
def test_cls_is_zero_on_a_long_feed_with_deferred_cards(browser, long_sites, layout, width, height):
    public = long_sites[layout]
    html = (public / "index.html").read_text(encoding="utf-8")
    assert html.count("cl-cv") > 1900, "the long section's cards past the first screen are deferred"
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(_OBSERVE)
    page = context.new_page()
    try:
        page.goto(page_url(public / "index.html"), wait_until="load")
        after_load = page.evaluate(_TOTAL)
        evaluate_with_frames(page, _SCROLL_TO_END)
        after_scroll = page.evaluate(_TOTAL)
        print(f"CLS {width}px long {layout} feed (2,000 cards): after load {sum(s['value'] for s in after_load):.4f}, "
              f"after scrolling {sum(s['value'] for s in after_scroll):.4f}")
        assert after_scroll == [], after_scroll[:5]
    finally:
        context.close()


def test_the_observer_sees_a_shift(browser, tmp_path):
    """Control: a page that inserts content above text after load does record a shift."""
    html = tmp_path / "shift.html"
    html.write_text(
        "<!doctype html><p id=p>Some text that will move.</p>"
        "<script>setTimeout(() => { const d = document.createElement('div'); d.style.height = '200px';"
        " document.body.prepend(d); }, 300)</script>",
        encoding="utf-8")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(_OBSERVE)
    page = context.new_page()
    try:
        page.goto(html.as_uri(), wait_until="load")
        page.wait_for_timeout(600)
        assert sum(s["value"] for s in page.evaluate(_TOTAL)) > 0
    finally:
        context.close()


_IMAGES_JS = """
() => [...document.images].map(i => ({
  src: i.getAttribute('src'), loading: i.getAttribute('loading') || 'eager',
  priority: i.getAttribute('fetchpriority'), top: i.getBoundingClientRect().top + scrollY,
  firstScreen: i.getBoundingClientRect().top + scrollY < innerHeight,
}))
"""


def test_first_screen_images_are_eager_and_the_first_is_high_priority(sample_pages):
    """Feed pages: every image in the first screen is eager, the page's first image alone has
    fetchpriority=high, and images after the first four are lazy. Item pages: their image is
    eager and high priority."""
    width, _, seen = sample_pages
    checked = 0
    for rel, m in seen.items():
        images = m["images"]
        if not images:
            continue
        checked += 1
        high = [i["src"] for i in images if i["priority"] == "high"]
        assert high == [images[0]["src"]], (rel, images)
        for n, img in enumerate(images):
            if img["firstScreen"]:
                assert img["loading"] == "eager", (rel, img)
            if rel.endswith("index.html") and n >= 4:
                assert img["loading"] == "lazy", (rel, img)
        print(f"images {width}px {rel}: " + ", ".join(f"{i['loading']}{'/high' if i['priority'] else ''}" for i in images))
    assert checked >= 2
