"""Deferred cards (`content-visibility: auto`, docs/layout.md "Long sections") keep the page
usable: none is in the first screen, and cards that have never rendered are reached by the
keyboard, by find-in-page and by anchor links, in Chromium at 390 and 1280 px, on a generated
feed of 2,000 cards."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from browser_support import page_url

SIZES = [(390, 844), (1280, 900)]


@pytest.fixture(scope="module")
def long_site(long_list_site):
    """The 2,000-card list (conftest.py), shared with test_cls."""
    return long_list_site


@contextmanager
def _opened(browser, public, width, height, fragment=""):
    """The long feed's page at the viewport, loaded (with `fragment`), in a fresh context."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(page_url(public / "index.html") + fragment, wait_until="load")
        yield page
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_no_deferred_card_in_the_first_screen(browser, long_site, width, height):
    with _opened(browser, long_site, width, height) as page:
        tops = page.evaluate("[...document.querySelectorAll('.cl-cv')].map(e => e.getBoundingClientRect().top)")
        eager = page.evaluate("document.querySelectorAll('.cl-item:not(.cl-cv)').length")
        print(f"{width}px: {eager} eager cards, first deferred card at {min(tops):.0f} px (viewport {height} px)")
        assert len(tops) > 1900
        assert min(tops) >= height


@pytest.mark.parametrize("width,height", SIZES)
def test_tab_reaches_deferred_cards_in_order_and_scrolls_them_into_view(browser, long_site, width, height):
    with _opened(browser, long_site, width, height) as page:
        links = page.evaluate("[...document.querySelectorAll('.card-title a')].map(a => !!a.closest('.cl-cv'))")
        first = links.index(True)
        page.evaluate(f"document.querySelectorAll('.card-title a')[{first - 1}].focus()")
        for k in range(first, first + 12):
            page.keyboard.press("Tab")
            # The link's line boxes, not its rect: an inline's rect is the font's content area,
            # which in Noto Sans (1.36 em) overhangs the 1.3 line box by half the difference, and
            # Chromium scrolls the line box into view.
            state = page.evaluate("""() => { const a = document.activeElement;
              const all = [...document.querySelectorAll('.card-title a')]; const r = a.getBoundingClientRect();
              const over = Math.max(0, (a.getClientRects()[0].height - parseFloat(getComputedStyle(a).lineHeight)) / 2);
              return {index: all.indexOf(a), deferred: !!a.closest('.cl-cv'), top: r.top + over, bottom: r.bottom - over}; }""")
            assert state["index"] == k, state
            assert state["deferred"]
            assert 0 <= state["top"] and state["bottom"] <= height, state


@pytest.mark.parametrize("width,height", SIZES)
def test_find_in_page_finds_a_card_that_never_rendered(browser, long_site, width, height):
    with _opened(browser, long_site, width, height) as page:
        title = page.evaluate("document.querySelectorAll('.cl-cv .card-title')[1500].textContent")
        found = page.evaluate("""(t) => { const ok = window.find(t);
          const node = getSelection().anchorNode; const el = node && (node.nodeType === 1 ? node : node.parentElement);
          const r = el ? el.getBoundingClientRect() : null;
          return {ok, deferred: !!(el && el.closest('.cl-cv')), top: r && r.top, bottom: r && r.bottom}; }""", title)
        print(f"{width}px: find '{title}': {found}")
        assert found["ok"] and found["deferred"]
        assert 0 <= found["top"] and found["bottom"] <= height


@pytest.mark.parametrize("width,height", SIZES)
def test_anchor_below_deferred_cards_lands_and_stays(browser, long_site, width, height):
    with _opened(browser, long_site, width, height, "#sec-after") as page:
        read = """() => ({top: document.getElementById('sec-after').getBoundingClientRect().top,
          atEnd: Math.abs(scrollY + innerHeight - document.documentElement.scrollHeight) <= 1, y: scrollY})"""
        first = page.evaluate(read)
        page.wait_for_timeout(500)
        later = page.evaluate(read)
        print(f"{width}px: #sec-after at {first} after load, {later} 500 ms later")
        # The heading comes to the top (the section after it is taller than the screen) and stays.
        assert first["y"] > 100_000
        assert abs(first["top"]) <= 1 and abs(later["top"]) <= 1
