"""The look at every width (issue 21): one leading edge, readable lines, a capped hero, text clear
of an emulated safe area, section backgrounds and pinned headers that match what they sit on,
insetGrouped separators from the text inset. (No page scrolling sideways at any width is checked
in test_accessibility's sweep, which loads every page once and resizes it through the widths.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from browser_support import close_page, open_page, page_url

WIDTHS = [320, 390, 768, 1280, 1600]
FEED_PAGES = ["index.html", "recipes/index.html"]

# Left edges: the page title, every section title, and the first card of every section that is
# not centred (a hero's slides are centred; its title is not).
_EDGES_JS = """
() => {
  const left = e => e.getBoundingClientRect().left;
  const out = {title: left(document.querySelector('.page-title')), sections: []};
  for (const s of document.querySelectorAll('.cl-section')) {
    const h = s.querySelector(':scope > .cl-header h2');
    const card = s.classList.contains('cl-preset-hero') ? null : s.querySelector('.card, .chip');
    out.sections.push({id: s.dataset.sectionId, title: h && left(h), card: card && left(card)});
  }
  return out;
}
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("rel", FEED_PAGES)
def test_titles_and_cards_share_one_leading_edge(browser, site, rel, width):
    opened = open_page(browser, page_url(site / rel), width)
    try:
        edges = opened.page.evaluate(_EDGES_JS)
        expected = 16 if width < 704 else (width - 672) / 2
        assert abs(edges["title"] - expected) < 0.5, f"page title at x = {edges['title']}, expected {expected}"
        wrong = [
            f"{s['id']}: {what} at x = {x}"
            for s in edges["sections"]
            for what, x in (("title", s["title"]), ("first card", s["card"]))
            if x is not None and abs(x - expected) > 0.5
        ]
        assert not wrong, f"not at x = {expected}:\n" + "\n".join(wrong)
    finally:
        close_page(opened)


# The longest line, in characters, of every card description and intro paragraph.
_LINES_JS = """
() => {
  let longest = 0;
  for (const p of document.querySelectorAll('.card-description, .page-intro p, .cl-header-text p')) {
    const t = p.firstChild;
    if (!t || t.nodeType !== 3) continue;
    const range = document.createRange(), lines = new Map();
    for (let i = 0; i < t.length; i++) {
      range.setStart(t, i); range.setEnd(t, i + 1);
      const r = range.getClientRects()[0];
      if (r) lines.set(Math.round(r.top), (lines.get(Math.round(r.top)) || 0) + 1);
    }
    for (const n of lines.values()) longest = Math.max(longest, n);
  }
  const hero = document.querySelector('.cl-preset-hero [data-item-id]');
  const list = document.querySelector('.cl-preset-list [data-item-id]');
  const box = e => e && {width: e.getBoundingClientRect().width, height: e.getBoundingClientRect().height};
  return {longest, hero: box(hero), list: box(list)};
}
"""


@pytest.mark.parametrize("width", [1280, 1600])
@pytest.mark.parametrize("rel", FEED_PAGES)
def test_wide_pages_keep_readable_lines_and_a_capped_hero(browser, site, rel, width):
    opened = open_page(browser, page_url(site / rel), width, 900)
    try:
        m = opened.page.evaluate(_LINES_JS)
        # Before: 1,264 px cards and ~140-character lines at 1280 px; a 1,088 × 640 hero slide.
        assert m["list"]["width"] == 672
        assert m["longest"] <= 90, f"a line of {m['longest']} characters"
        if m["hero"]:
            assert (m["hero"]["width"], m["hero"]["height"]) == (672, 336)
    finally:
        close_page(opened)


# Every visible text fragment outside sideways scrollers (full-bleed: their cards scroll under
# the insets, as in UIKit) whose box enters an inset; for scrollers, the first card at rest.
_UNDER_INSETS_JS = """
([top, right, bottom, left]) => {
  const W = document.documentElement.clientWidth, H = window.innerHeight;
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || n.parentElement.closest('[data-scroller], .cl-visually-hidden')) continue;
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width === 0 || r.bottom <= 0 || r.top >= H) continue;
      if (r.left < left - 0.5 || r.right > W - right + 0.5 || r.top < top - 0.5 || r.bottom > H - bottom + 0.5)
        out.push(`'${n.textContent.trim().slice(0, 30)}' at (${r.left.toFixed(1)}, ${r.top.toFixed(1)})–(${r.right.toFixed(1)}, ${r.bottom.toFixed(1)})`);
    }
  }
  for (const s of document.querySelectorAll('[data-scroller]')) {
    const first = s.querySelector('[data-item-id]');
    if (first && !s.closest('.cl-preset-hero') && first.getBoundingClientRect().left < left - 0.5)
      out.push(`scroller ${s.closest('[data-section-id]').dataset.sectionId}: first card at ${first.getBoundingClientRect().left}`);
  }
  return out;
}
"""


def _with_insets(page, insets: dict) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setSafeAreaInsetsOverride", {"insets": insets})


@pytest.mark.parametrize(
    "viewport,insets",
    [
        pytest.param((844, 390), {"top": 0, "left": 47, "right": 47, "bottom": 21}, id="landscape"),
        pytest.param((390, 844), {"top": 47, "left": 0, "right": 0, "bottom": 34}, id="portrait"),
    ],
)
@pytest.mark.parametrize("rel", FEED_PAGES + ["today/morning.html", "recipes/recipes/miso-soup.html"])
def test_no_text_under_an_emulated_safe_area(browser, site, rel, viewport, insets):
    """Chromium's Emulation.setSafeAreaInsetsOverride gives env(safe-area-inset-*) the insets of
    a notched phone; with viewport-fit=cover (the built-in head) the page must keep its text out
    of them: at the top of the page, and at the bottom once scrolled to the end."""
    opened = open_page(browser, page_url(site / rel), *viewport)
    try:
        page = opened.page
        content = page.evaluate("() => document.querySelector('meta[name=viewport]').content")
        assert "viewport-fit=cover" in content
        _with_insets(page, insets)
        # At the top of the page: the top and side insets; scrolled to the end: the bottom and
        # side insets. In between the page scrolls under them, as every page does on a phone.
        off = -100_000  # an edge not checked: the viewport's foot at the top, its head at the end
        at_top = page.evaluate(_UNDER_INSETS_JS, [insets["top"], insets["right"], off, insets["left"]])
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        at_end = page.evaluate(_UNDER_INSETS_JS, [off, insets["right"], insets["bottom"], insets["left"]])
        assert not at_top + at_end, "text under an inset:\n" + "\n".join(at_top + at_end)
    finally:
        close_page(opened)


def _site(root: Path, sections: dict[str, str]) -> Path:
    (root / "feedgen.yaml").write_text("title: Look\n", encoding="utf-8")
    (root / "content").mkdir(parents=True)
    names = ", ".join(sections)
    (root / "content/_feed.md").write_text(f"---\ntitle: Home\nsections: [{names}]\n---\n", encoding="utf-8")
    for name, layout in sections.items():
        folder = root / "content" / name
        folder.mkdir()
        (folder / "_section.md").write_text(f"---\ntitle: {name.title()}\nlayout: {layout}\n---\n", encoding="utf-8")
        for i in range(40 if name == "pinned" else 4):
            (folder / f"c{i:02d}.md").write_text(f"---\ntitle: Card {i}\ndescription: Text {i}.\n---\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def look_site(feedgen, tmp_path_factory) -> Path:
    root = _site(tmp_path_factory.mktemp("look"), {
        "pinned": "{preset: list, background: true, header: {pinToVisibleBounds: true}}",
        "rows": "insetGrouped",
    })
    out = root / "public"
    subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], check=True, capture_output=True)
    return out


_PAINT_JS = """
() => {
  const sec = document.querySelector('[data-section-id="pinned"]');
  const bg = getComputedStyle(sec.querySelector(':scope > .cl-background')).backgroundColor;
  const card = getComputedStyle(sec.querySelector('.card')).backgroundColor;
  const header = getComputedStyle(sec.querySelector(':scope > .cl-header'));
  const row = document.querySelector('[data-section-id="rows"] .cl-item .card');
  const sep = getComputedStyle(row, '::before');
  return {
    background: bg, card, headerBackground: header.backgroundColor, headerTop: header.top,
    rowBorder: getComputedStyle(row).borderBottomWidth, separatorStart: sep.insetInlineStart,
    separatorEnd: sep.insetInlineEnd, separator: sep.borderBottomWidth,
    textStart: getComputedStyle(row.querySelector('.card-body')).paddingInlineStart,
  };
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_backgrounds_pinned_headers_and_separators(browser, look_site, scheme):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(page_url(look_site / "index.html"))
        _with_insets(page, {"top": 47, "left": 0, "right": 0, "bottom": 34})
        m = page.evaluate(_PAINT_JS)
        # A section background is never the card colour (before: white on white, #1c1c1e on #1c1c1e).
        assert m["background"] != m["card"]
        assert m["background"] == ("rgb(227, 227, 232)" if scheme == "light" else "rgb(44, 44, 46)")
        # The pinned header paints what it sits on (the decoration), below the top inset.
        assert m["headerBackground"] == m["background"]
        assert m["headerTop"] == "47px"
        # Separators: from the text inset (16 px, the row's padding) to the trailing edge.
        assert m["rowBorder"] == "0px"
        assert (m["separatorStart"], m["separatorEnd"], m["separator"]) == (m["textStart"], "0px", "1px")
    finally:
        context.close()


def test_pinned_header_stays_below_the_top_inset_when_scrolled(browser, look_site):
    opened = open_page(browser, page_url(look_site / "index.html"), 390)
    try:
        page = opened.page
        _with_insets(page, {"top": 47, "left": 0, "right": 0, "bottom": 34})
        page.evaluate("() => window.scrollTo(0, 900)")
        top = page.evaluate("() => document.querySelector('[data-section-id=\"pinned\"] > .cl-header').getBoundingClientRect().top")
        assert abs(top - 47) < 0.5
    finally:
        close_page(opened)


# Every card image's drawn width and its largest variant (the widest srcset candidate; the
# source's own width without a srcset).
_IMAGES_JS = """
() => [...document.querySelectorAll('img.card-image, img.detail-image')].map(img => {
  const widths = (img.getAttribute('srcset') || '').split(',').map(c => parseInt(c.trim().split(/\\s+/)[1])).filter(n => n > 0);
  return {src: img.getAttribute('src'), drawn: img.getBoundingClientRect().width,
          largest: widths.length ? Math.max(...widths) : img.naturalWidth};
})
"""


@pytest.mark.parametrize("width", WIDTHS)
def test_images_are_never_drawn_wider_than_their_largest_variant(browser, site, width):
    """Before: the sample's 480 px list images were drawn 1,264 px wide at 1280 px."""
    wide = []
    for rel in ["recipes/index.html", "recipes/recipes/miso-soup.html"]:
        opened = open_page(browser, page_url(site / rel), width)
        try:
            opened.page.evaluate("() => Promise.all([...document.images].map(i => { i.loading = 'eager'; return i.decode().catch(() => {}); }))")
            for img in opened.page.evaluate(_IMAGES_JS):
                if img["drawn"] > img["largest"] + 0.5:
                    wide.append(f"{rel}: {img['src']} drawn {img['drawn']} px wide, largest variant {img['largest']} px")
        finally:
            close_page(opened)
    assert not wide, "\n".join(wide)
