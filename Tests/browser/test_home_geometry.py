"""The home feed's geometry at 390×844, and page health (console, resources, links) for both
feed pages and every detail page reachable from them."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from browser_support import (
    broken_images,
    close,
    close_page,
    file_path,
    links,
    open_page,
    page_url,
)

WIDTH, HEIGHT = 390, 844
FEED_PAGES = ["index.html", "recipes/index.html"]


@pytest.fixture(scope="module")
def home(browser, site):
    opened = open_page(browser, page_url(site / "index.html"), WIDTH, HEIGHT)
    yield opened.page
    close_page(opened)


# ---------------------------------------------------------------------------------------------
# today (list)


_TODAY_JS = """
() => {
  const sec = document.querySelector('[data-section-id="today"]');
  const h = sec.querySelector(':scope > .cl-header').getBoundingClientRect();
  const cards = [...sec.querySelectorAll('[data-item-id]')].map(e => {
    const r = e.getBoundingClientRect();
    return {id: e.dataset.itemId, left: r.left, top: r.top, width: r.width, height: r.height, bottom: r.bottom};
  });
  return {header: {top: h.top, bottom: h.bottom}, cards};
}
"""

# Every card element, its .card article, .card-body and every descendant: nothing may scroll
# or be clipped (scroll size larger than client size).
_OVERFLOW_JS = """
(sectionId) => {
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.className && typeof el.className === 'string') s += '.' + el.className.trim().split(/\\s+/).join('.');
    return s;
  };
  const out = [];
  for (const cell of document.querySelectorAll(`[data-section-id="${sectionId}"] [data-item-id]`)) {
    const id = cell.dataset.itemId;
    const required = [cell, cell.querySelector('.card'), cell.querySelector('.card-body')];
    required.forEach((el, i) => { if (!el) out.push(`${id}: missing ${['cell', '.card', '.card-body'][i]}`); });
    for (const el of new Set([...required.filter(Boolean), ...cell.querySelectorAll('*')])) {
      if (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth) {
        out.push(`${id}: ${describe(el)} scroll ${el.scrollWidth}×${el.scrollHeight} > client ${el.clientWidth}×${el.clientHeight}`);
      }
    }
  }
  return out;
}
"""


def test_today_cards_are_full_width_and_stacked(home):
    data = home.evaluate(_TODAY_JS)
    cards = data["cards"]
    assert len(cards) == 3, f"expected 3 cards in 'today', found {[c['id'] for c in cards]}"
    problems = []
    for c in cards:
        # The readable content guide at 390 px is the 16 px layout margin (docs/layout.md).
        if not close(c["left"], 16):
            problems.append(f"{c['id']}: x {c['left']} != 16")
        if not close(c["width"], 358):
            problems.append(f"{c['id']}: width {c['width']} != 358")
    expected_top = data["header"]["bottom"] + 8
    if not close(cards[0]["top"], expected_top):
        problems.append(f"{cards[0]['id']}: top {cards[0]['top']} != header bottom + 8 = {expected_top}")
    for prev, cur in zip(cards, cards[1:]):
        if not close(cur["top"], prev["bottom"] + 12):
            problems.append(f"{cur['id']}: top {cur['top']} != previous bottom + 12 = {prev['bottom'] + 12}")
    assert not problems, "\n".join(problems)


def test_today_card_heights_differ(home):
    cards = home.evaluate(_TODAY_JS)["cards"]
    same = [
        f"{a['id']} and {b['id']} both {a['height']:.3f} / {b['height']:.3f} px tall"
        for i, a in enumerate(cards)
        for b in cards[i + 1 :]
        if close(a["height"], b["height"])
    ]
    assert not same, "card heights should follow their text:\n" + "\n".join(same)


def test_today_cards_fit_their_text(home):
    overflowing = home.evaluate(_OVERFLOW_JS, "today")
    assert not overflowing, "overflow or clipping in 'today' cards:\n" + "\n".join(overflowing)


# ---------------------------------------------------------------------------------------------
# picks (carousel)


_PICKS_JS = """
() => {
  const sec = document.querySelector('[data-section-id="picks"]');
  const scroller = sec.querySelector('[data-scroller]');
  if (!scroller) return null;
  const s = scroller.getBoundingClientRect();
  const cards = [...scroller.querySelectorAll('[data-item-id]')].map(e => {
    const r = e.getBoundingClientRect();
    return {id: e.dataset.itemId, x: r.left - s.left + scroller.scrollLeft, width: r.width, height: r.height};
  });
  return {
    cards, scrollWidth: scroller.scrollWidth,
    pageScrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
  };
}
"""


def test_picks_carousel_geometry(home):
    data = home.evaluate(_PICKS_JS)
    assert data is not None, "'picks' has no [data-scroller] element"
    cards = data["cards"]
    assert len(cards) == 5, f"expected 5 cards in 'picks', found {[c['id'] for c in cards]}"
    problems = []
    for c, x in zip(cards, [16, 188, 360, 532, 704]):
        if not close(c["width"], 160) or not close(c["height"], 240):
            problems.append(f"{c['id']}: size {c['width']}×{c['height']} != 160×240")
        if not close(c["x"], x):
            problems.append(f"{c['id']}: x in scroller content {c['x']} != {x}")
    if not close(data["scrollWidth"], 880):
        problems.append(f"scroller scrollWidth {data['scrollWidth']} != 880")
    if data["pageScrollWidth"] > data["innerWidth"]:
        problems.append(
            f"page overflows horizontally: documentElement.scrollWidth {data['pageScrollWidth']}"
            f" > innerWidth {data['innerWidth']}"
        )
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Page health: console, resources, links


def _page_problems(opened, path: Path) -> tuple[list[str], list[str]]:
    """Loads `path` into the shared page, loads every image, and returns (problems, hrefs of
    every link)."""
    page = opened.page
    opened.problems.clear()
    page.goto(page_url(path), wait_until="load")
    problems = []
    for src in broken_images(page):
        problems.append(f"image did not load: {src}")
    if page.locator("h1").count() == 0:
        problems.append("no <h1>")
    hrefs = links(page)
    for href in hrefs:
        target = file_path(href)
        if target is not None and not target.is_file():
            problems.append(f"broken link: {href} (no file {target})")
    # Card links point at pages of the site (file://), never elsewhere.
    for href in links(page, "[data-item-id] a[href]"):
        if file_path(href) is None:
            problems.append(f"card link {href}: not a file:// link")
    # Console errors, page errors and failed requests, while loading and after (lazy images).
    problems.extend(opened.problems)
    return problems, hrefs


def test_every_page_loads_cleanly_and_its_links_resolve(browser, site):
    """Both feed pages and every page reachable by links from them (detail pages, views, tag
    pages, and back): no console errors, no failed loads or broken images, every link resolves
    to a file, an <h1>; each feed page has card links, and each one is among the pages loaded.

    One page is reused for every file (a new context per page cost about a second each). This
    test also covers what test_feed_page_loads_cleanly (the feed pages are the walk's start)
    and test_card_links_open_pages (every card link's file is loaded by the walk, with its
    <h1>) checked."""
    start = [(site / p).resolve() for p in FEED_PAGES]
    seen = set(start)
    queue = deque(start)
    report: dict[str, list[str]] = {}
    card_targets: dict[str, list[Path]] = {}
    opened = open_page(browser, "about:blank", WIDTH, HEIGHT)
    try:
        while queue:
            path = queue.popleft()
            problems, hrefs = _page_problems(opened, path)
            if path in start:
                card_targets[str(path)] = [file_path(h) for h in links(opened.page, "[data-item-id] a[href]")]
            if problems:
                report[str(path.relative_to(site.resolve()))] = problems
            for href in hrefs:
                target = file_path(href)
                if target is None or not target.is_file() or target.suffix != ".html":
                    continue
                target = target.resolve()
                if target not in seen and site.resolve() in target.parents:
                    seen.add(target)
                    queue.append(target)
    finally:
        close_page(opened)
    details = seen - set(start)
    assert details, "no detail pages reachable from the feed pages"
    for feed_page, targets in card_targets.items():
        assert targets, f"{feed_page}: no card links"
        unloaded = [t for t in targets if t is None or t.resolve() not in seen]
        assert not unloaded, f"{feed_page}: card links not loaded: {unloaded}"
    assert not report, "\n".join(f"{page}:\n  " + "\n  ".join(p) for page, p in sorted(report.items()))
