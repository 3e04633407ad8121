"""Every detail page of both real corpora (../shared/corpus: Hugo's documentation and Jekyll's
release posts, copied unchanged with only _feed.md / _section.md added) opened at 320 px: no page
scrolls sideways (issue 19, "Done when"; code blocks, tables, long words and URLs scroll or wrap
inside the page).

Fast enough for the suite (972 pages): one browser page is reused and the pages are opened ten
at a time, each in a 320 px iframe of it (its own viewport), measured by one evaluation per ten;
no screenshots. (One `page.goto` per page took 140 ms a page here, the iframes 45–55 ms.) Skipped (with the reason shown)
when ../shared is absent."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import corpus_sites as corpus_sites_module
from browser_support import chromium_env

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus"
WIDTH = 320
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")  # as conftest.py

pytestmark = pytest.mark.skipif(
    not (SHARED / "hugodocs" / "en").is_dir() or not (SHARED / "jekyll-posts").is_dir(),
    reason=f"{SHARED} not found (the corpora live beside the repository, in ../shared/corpus)",
)

# Opens `urls` together, each in an iframe of the test width (its own viewport: media queries and
# `innerWidth` are the iframe's), and returns per page [scrollWidth, innerWidth, culprits]: the
# elements that reach past the right edge (outermost first) when the page scrolls sideways, or
# null for a page that did not open. The browser runs with --allow-file-access-from-files, so the
# host page may read the documents of other file:// pages.
_MEASURE_JS = """
async ([urls, width]) => {
  const frames = urls.map((url) => {
    const f = document.createElement('iframe');
    f.style.cssText = `width:${width}px;height:640px;border:0;display:block`;
    document.body.appendChild(f);
    const loaded = new Promise((resolve) => { f.onload = resolve; setTimeout(resolve, 20000); });
    f.src = url;
    return [f, loaded];
  });
  await Promise.all(frames.map(([, loaded]) => loaded));
  const results = frames.map(([f]) => {
    const doc = f.contentDocument;
    if (!doc || doc.readyState !== 'complete' || !doc.scrollingElement) return null;
    // The narrower of the viewport and its content box (a classic scrollbar takes width).
    const inner = Math.min(f.contentWindow.innerWidth, doc.scrollingElement.clientWidth);
    const scroll = doc.scrollingElement.scrollWidth;
    const culprits = [];
    if (scroll > inner) {
      for (const el of doc.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.right <= inner + 0.5 || r.width === 0) continue;
        let outer = true;
        for (let p = el.parentElement; p && p !== doc.body; p = p.parentElement) {
          if (p.getBoundingClientRect().right > inner + 0.5) { outer = false; break; }
        }
        if (!outer) continue;
        const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
        culprits.push(`${el.tagName.toLowerCase()}${cls} right=${Math.round(r.right)} "${(el.textContent || '').trim().slice(0, 60)}"`);
        if (culprits.length >= 3) break;
      }
    }
    return [scroll, inner, culprits];
  });
  for (const [f] of frames) f.remove();
  return results;
}
"""
BATCH = 10  # pages open at once (more is no faster on two cores)
# Detail pages, and the section's own pages (100 cards to a page by default, content-format §4.1).
EXPECTED_PAGES = {"hugodocs": 870 + 9, "jekyll-posts": 102 + 2}


@pytest.fixture(scope="module")
def corpus_sites(feedgen, tmp_path_factory) -> dict[str, Path]:
    """Both corpora built as sites (corpus_sites.py): name → output folder."""
    return corpus_sites_module.build_corpora(feedgen, tmp_path_factory)


def _detail_pages(public: Path) -> list[Path]:
    """Every page but the home feed page (each corpus is one section of the home feed) and the
    section previews (none are built): the detail pages and the section's own pages."""
    return sorted(p for p in public.rglob("*.html") if p != public / "index.html")


@pytest.fixture(scope="module")
def file_browser(playwright_instance):
    """Chromium that lets a file:// page read the documents of other file:// pages (iframes)."""
    b = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=["--allow-file-access-from-files"], env=chromium_env())
    yield b
    b.close()


def _measure(browser, folder: Path, pages: list[Path]) -> tuple[list[str], float]:
    """The pages (in `folder`) that scroll sideways at WIDTH, described, and the seconds taken."""
    host = folder / "_overflow_host.html"
    host.write_text("<!doctype html><html><body style='margin:0'></body></html>", encoding="utf-8")
    context = browser.new_context(viewport={"width": WIDTH + 40, "height": 700})
    # No network: every page is a local file; anything else (none is expected) is not waited for.
    context.route("http*://**", lambda route: route.abort())
    page = context.new_page()
    page.goto(host.as_uri())
    found: list[str] = []
    start = time.monotonic()
    try:
        for k in range(0, len(pages), BATCH):
            batch = pages[k : k + BATCH]
            for path, result in zip(batch, page.evaluate(_MEASURE_JS, [[p.as_uri() for p in batch], WIDTH])):
                if result is None:
                    found.append(f"{path.relative_to(folder)}: did not open")
                elif result[0] > result[1]:
                    found.append(f"{path.relative_to(folder)}: {result[0]} px > {result[1]} px: {result[2]}")
    finally:
        context.close()
        host.unlink()
    return found, time.monotonic() - start


def test_the_measure_finds_a_page_that_scrolls_sideways(file_browser, tmp_path):
    """The check can fail: a page with an element wider than 320 px is reported, one without is not."""
    wide = tmp_path / "wide.html"
    wide.write_text("<!doctype html><meta name=viewport content='width=device-width'><div style='width:400px'>x</div>")
    narrow = tmp_path / "narrow.html"
    narrow.write_text("<!doctype html><meta name=viewport content='width=device-width'><p>x</p>")
    found, _ = _measure(file_browser, tmp_path, [narrow, wide])
    assert len(found) == 1 and found[0].startswith("wide.html: ") and "div right=408" in found[0], found


@pytest.mark.parametrize("corpus", ["hugodocs", "jekyll-posts"])
def test_no_detail_page_scrolls_sideways_at_320(file_browser, corpus_sites, corpus):
    public = corpus_sites[corpus]
    pages = _detail_pages(public)
    assert len(pages) == EXPECTED_PAGES[corpus]
    overflowing, elapsed = _measure(file_browser, public, pages)
    print(f"{corpus}: {len(pages)} detail pages at {WIDTH} px in {elapsed:.1f} s, {len(overflowing)} scroll sideways")
    assert overflowing == [], f"{len(overflowing)} of {len(pages)} pages scroll sideways:\n" + "\n".join(overflowing[:40])
