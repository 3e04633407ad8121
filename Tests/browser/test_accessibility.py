"""Accessibility of the sample site: axe-core on every page at five widths (320, 390, 768, 1280, 1600) in light and dark, and
a keyboard walk through the home feed (web-output §1–2, issue 8 §1). The same sweep also checks
that no page scrolls sideways at any of the widths (issue 21; before, test_look loaded every
page again per width for that).

Every page means both feed pages and every detail page the build wrote (every `*.html` in the
output). The per-page violation counts are printed (run pytest with `-s` to see them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from browser_support import page_url

WIDTHS = [320, 390, 768, 1280, 1600]
SCHEMES = ["light", "dark"]

_axe = Axe()


def _pages(site: Path) -> list[str]:
    return sorted(
        str(p.relative_to(site)) for p in site.rglob("*.html") if not p.relative_to(site).parts[0].startswith("_")
    )


def _describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:5]:
            lines.append(f"    {', '.join(map(str, node['target']))}: {node.get('failureSummary', '').splitlines()[-1:]}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def sweep(browser, site) -> tuple[dict[tuple[int, str], list[tuple[str, list[dict]]]], dict[int, list[tuple[str, int]]]]:
    """axe-core on every page at every width and scheme: (width, scheme) → [(page, violations)];
    and each page's `document.documentElement.scrollWidth` at every width (light): width →
    [(page, px)].

    Each page is loaded once and checked at every width and scheme in turn: the viewport is
    resized (Playwright's set_viewport_size) and the colour scheme switched (emulate_media),
    then two animation frames pass (the scroll buttons' ResizeObserver runs in the frame after
    a resize) before axe runs again. axe-core (570 KB of script) is injected once per load. The
    pages have no CSS transitions, so a switched scheme is drawn at once. Loading the 28 pages
    once instead of ten times, and injecting axe once, halves the module's time."""
    pages = _pages(site)
    results: dict[tuple[int, str], list[tuple[str, list[dict]]]] = {(w, s): [] for w in WIDTHS for s in SCHEMES}
    scroll_widths: dict[int, list[tuple[str, int]]] = {w: [] for w in WIDTHS}
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 844}, color_scheme=SCHEMES[0])
    page = context.new_page()
    try:
        for rel in pages:
            page.set_viewport_size({"width": WIDTHS[0], "height": 844})
            page.emulate_media(color_scheme=SCHEMES[0])
            page.goto(page_url(site / rel), wait_until="load")
            page.evaluate(_axe.axe_script)
            for width in WIDTHS:
                for scheme in SCHEMES:
                    page.set_viewport_size({"width": width, "height": 844})
                    page.emulate_media(color_scheme=scheme)
                    page.evaluate(_AFTER_TWO_FRAMES_JS)
                    if scheme == SCHEMES[0]:
                        scroll_widths[width].append((rel, page.evaluate("() => document.documentElement.scrollWidth")))
                    found = page.evaluate(_AXE_RUN_JS)
                    print(f"axe {width}px {scheme:5} {rel}: {len(found)} violations")
                    results[(width, scheme)].append((rel, found))
    finally:
        context.close()
    return results, scroll_widths


_AFTER_TWO_FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
# What axe_playwright_python's Axe.run evaluates after injecting axe-core, with these options.
_AXE_RUN_JS = "() => axe.run({resultTypes: ['violations']}).then(results => results.violations)"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_axe_has_no_violations(sweep, site, width, scheme):
    pages = _pages(site)
    assert "index.html" in pages and "recipes/index.html" in pages and len(pages) > 2
    checked = sweep[0][(width, scheme)]
    assert [rel for rel, _ in checked] == pages
    failures = [f"{rel}:\n{_describe(violations)}" for rel, violations in checked if violations]
    assert not failures, f"axe violations at {width}px, {scheme}:\n" + "\n".join(failures)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_scrolls_sideways(sweep, site, width):
    checked = sweep[1][width]
    assert [rel for rel, _ in checked] == _pages(site)
    wide = [f"{rel}: {sw} px wide" for rel, sw in checked if sw > width]
    assert not wide, f"at {width} px:\n" + "\n".join(wide)


# ---------------------------------------------------------------------------------------------
# Keyboard

_FOCUS_JS = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const card = el.closest('.card, .chip');
  const width = (e) => e ? parseFloat(getComputedStyle(e).outlineWidth) || 0 : 0;
  const style = (e) => e ? getComputedStyle(e).outlineStyle : 'none';
  return {
    href: el.getAttribute('href'),
    tag: el.tagName,
    inCard: !!el.closest('[data-item-id]'),
    outline: style(el) !== 'none' ? width(el) : 0,
    cardOutline: card && style(card) !== 'none' ? width(card) : 0,
  };
}
"""

_CARD_LINKS_JS = """
() => [...document.querySelectorAll('[data-item-id] a[href]')].map(a => a.getAttribute('href'))
"""


@pytest.mark.parametrize("width", [390, 1280])
def test_keyboard_reaches_every_card_link_in_order_with_visible_focus(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    try:
        page.goto(page_url(site / "index.html"), wait_until="load")
        expected = page.evaluate(_CARD_LINKS_JS)
        assert expected, "no card links on the home feed"
        reached = []
        seen_focus = set()
        for _ in range(200):
            page.keyboard.press("Tab")
            info = page.evaluate(_FOCUS_JS)
            if info is None:
                break
            key = page.evaluate("() => { const e = document.activeElement; return e.outerHTML.slice(0, 200) + '@' + [...document.querySelectorAll('*')].indexOf(e); }")
            if key in seen_focus:
                break  # wrapped around
            seen_focus.add(key)
            if info["inCard"] and info["tag"] == "A":
                reached.append(info["href"])
                assert max(info["outline"], info["cardOutline"]) > 0, f"no visible focus on card link {info['href']}"
            else:
                assert info["outline"] > 0, f"no visible focus on {info}"
        assert reached == expected, f"tab order {reached} != DOM order {expected}"
    finally:
        context.close()
