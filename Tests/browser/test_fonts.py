"""The fonts the browser tests render with (Tests/browser/fonts.conf through
browser_support.chromium_env) and the glyph advances CardHeightEstimate assumes for them.

Chromium reports which font files drew a node (DevTools `CSS.getPlatformFontsForNode`): the sample
site's card text must be Noto Sans (regular and bold) and its Japanese Noto Sans CJK JP, not
DejaVu Sans, Debian's default without fonts-noto-core. The advances are measured as
CardHeightEstimate counts them (Sources/FeedgenEmit/CardHeightEstimate.swift): over the titles and
descriptions of Hugo's documentation (../shared/corpus/hugodocs), each set on one line in the
theme's font stack, total width / (16 px × characters, spaces included).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser_support import close_page, open_page, page_url
from long_feed import CORPUS, corpus_texts

_ESTIMATE_SWIFT = Path(__file__).resolve().parents[2] / "Sources" / "FeedgenEmit" / "CardHeightEstimate.swift"


def _constant(name: str) -> float:
    """A `public static let <name> = <number>` of CardHeightEstimate (em)."""
    found = re.search(rf"static let {name} = ([0-9.]+)", _ESTIMATE_SWIFT.read_text(encoding="utf-8"))
    assert found, f"{name} not found in {_ESTIMATE_SWIFT}"
    return float(found.group(1))


GLYPH_WIDTH = _constant("glyphWidth")
BOLD_GLYPH_WIDTH = _constant("boldGlyphWidth")
# One hundredth of an em: 1 px over a 100-glyph line of 16 px text.
ADVANCE_TOLERANCE = 0.01

_PLATFORM_FONTS_JS_SETUP = """
() => {
  const box = document.createElement('div');
  box.id = 'font-probe';
  box.innerHTML = '<p id="fp-regular">Cards of the feed</p><h3 id="fp-bold">Cards of the feed</h3>'
    + '<p id="fp-ja" lang="ja">日本語の説明文です</p>';
  document.querySelector('.card').append(box);
}
"""


def _platform_fonts(page, selector: str) -> list[str]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return sorted(f["postScriptName"] for f in fonts)


def test_card_text_is_set_in_noto_sans(browser, site):
    opened = open_page(browser, page_url(site / "index.html"), 390)
    try:
        opened.page.evaluate(_PLATFORM_FONTS_JS_SETUP)
        hint = "are fonts-noto-core and fonts-noto-cjk installed (scripts/install-deps --test)?"
        assert _platform_fonts(opened.page, "#fp-regular") == ["NotoSans-Regular"], hint
        assert _platform_fonts(opened.page, "#fp-bold") == ["NotoSans-Bold"], hint
        assert _platform_fonts(opened.page, "#fp-ja") == ["NotoSansCJKjp-Regular"], hint
    finally:
        close_page(opened)


# Sets each text on one line (white-space: pre, so spaces are not collapsed: the texts are
# whitespace-normalised before) in the card's font stack at 16 px; returns the widths.
_WIDTHS_JS = """
([texts, weight]) => {
  const probe = document.createElement('span');
  probe.style.cssText = `position: absolute; white-space: pre; font-size: 16px; font-weight: ${weight}; line-height: 1`;
  document.querySelector('.card').append(probe);
  const out = texts.map((t) => { probe.textContent = t; return probe.getBoundingClientRect().width; });
  probe.remove();
  return out;
}
"""


def _units(text: str) -> float:
    """Characters, spaces included: how the constants have been derived since the first
    calibration (DejaVu Sans: 0.506 em), together with CardHeightEstimate.wrapSlack. The
    estimate counts a space as 0.6 glyph, so it sums about 6 % less than the text's width and
    wrapSlack's 1.5 em was fitted with that; the heights are checked in test_estimates.py."""
    return len(text)


def _measured_advance(page, texts: list[str], weight: int) -> float:
    widths = page.evaluate(_WIDTHS_JS, [texts, weight])
    return sum(widths) / (16 * sum(_units(t) for t in texts))


def test_glyph_advances_match_the_estimate_constants(browser, site):
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} not found (the glyph widths are measured over Hugo's documentation)")
    pairs = corpus_texts()
    descriptions = [" ".join(d.split()) for _, d in pairs]
    titles = [" ".join(t.split()) for t, _ in pairs]
    opened = open_page(browser, page_url(site / "index.html"), 390)
    try:
        regular = _measured_advance(opened.page, descriptions, 400)
        bold = _measured_advance(opened.page, descriptions, 700)
        bold_titles = _measured_advance(opened.page, titles, 700)
    finally:
        close_page(opened)
    print(f"glyph advances over {len(pairs)} hugodocs texts: regular {regular:.4f} em, bold {bold:.4f} em "
          f"(descriptions), bold {bold_titles:.4f} em (titles)")
    assert abs(regular - GLYPH_WIDTH) <= ADVANCE_TOLERANCE, regular
    assert abs(bold - BOLD_GLYPH_WIDTH) <= ADVANCE_TOLERANCE, bold
