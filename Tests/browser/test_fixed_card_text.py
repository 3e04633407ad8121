"""Text in fixed-size cards (issue 21 item 2): in every card whose cell has a fixed size
(carousels, heroes, custom absolute sizes), at 320 to 1600 px, the title and the description
show whole lines only (the last visible line ends inside its box and inside the card), a cut
description is clamped with `-webkit-line-clamp` to exactly its visible lines (so Chromium draws
the ellipsis), and the date is inside the card. Sites: the sample, and one with long English and
Japanese titles and descriptions in carousels with and without images and dates, a hero, and
absolute sizes of a custom grid."""

from __future__ import annotations

import subprocess
import struct
import zlib
from pathlib import Path

import pytest

from browser_support import page_url

WIDTHS = [320, 390, 768, 1280, 1600]

EN = ("A very long description that keeps going well past what a small card can hold, so that the "
      "card has to cut it somewhere, and the only acceptable places are line ends with an ellipsis. ") * 2
JA = "これはとても長い説明文です。小さなカードには収まりきらないので、行の終わりで省略記号とともに切り詰められなければなりません。" * 2
TITLE_EN = "An unusually long card title that wraps over several lines in a narrow card"
TITLE_JA = "狭いカードで何行にも折り返される、とても長いカードのタイトルです"


def _png(width: int, height: int) -> bytes:
    """A real RGB PNG (a gradient), made with zlib."""
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x * 4 % 256, y * 5 % 256, 160))
                    for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


SECTIONS = {
    "shelf-en": ("layout: carousel\n", "en", False),
    "shelf-ja": ("layout: carousel\nlang: ja\n", "ja", False),
    "shelf-images": ("layout: carousel\n", "en", True),
    "hero": ("layout: hero\n", "en", False),
    "hero-ja": ("layout: hero\nlang: ja\n", "ja", True),
    "tiles": ("layout:\n  preset: grid\n  item: {width: fractionalWidth(1.0), height: absolute(150)}\n"
              "  group: {height: absolute(150)}\n", "ja", False),
}


@pytest.fixture(scope="module")
def text_site(feedgen: Path, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fixedtext")
    content = root / "content"
    content.mkdir()
    (content / "_feed.md").write_text(f"---\ntitle: Fixed cards\nsections: [{', '.join(SECTIONS)}]\n---\n")
    png = _png(64, 48)
    for name, (layout, lang, images) in SECTIONS.items():
        folder = content / name
        folder.mkdir()
        (folder / "_section.md").write_text(f"---\ntitle: {name}\n{layout}---\n")
        for i in range(4):
            title = (TITLE_JA if lang == "ja" else TITLE_EN) if i % 2 else f"Card {i}"
            text = JA if lang == "ja" else EN
            description = text[: 30 + 70 * i]
            front = [f"title: {title}", f"description: {description}", f"weight: {i}"]
            if i != 2:
                front.append(f"date: 2026-11-0{i + 1}")
            if images:
                (folder / f"p{i}.png").write_bytes(png)
                front.append(f"image: p{i}.png")
            (folder / f"c{i}.md").write_text("---\n" + "\n".join(front) + "\n---\n")
    out = root / "public"
    r = subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


# For every fixed-size cell: the boxes of its card, title, description and date, the last line
# box of the title and of the description (Range client rects), line heights and clamps.
_MEASURE_JS = """
() => {
  const out = [];
  for (const item of document.querySelectorAll('.cl-item')) {
    if (getComputedStyle(item).containerType !== 'size') continue;
    const card = item.querySelector('.card');
    if (!card) continue;
    const box = (el) => el ? el.getBoundingClientRect() : null;
    const title = card.querySelector('.card-title'), text = card.querySelector('.card-description');
    const date = card.querySelector('.card-date'), body = card.querySelector('.card-body');
    const entry = {id: item.querySelector('[data-item-id]').dataset.itemId, card: box(card).toJSON()};
    for (const [name, el] of [['title', title], ['text', text]]) {
      if (!el) continue;
      const cs = getComputedStyle(el), lh = parseFloat(cs.lineHeight);
      const lines = [...(() => { const r = document.createRange(); r.selectNodeContents(el); return r.getClientRects(); })()];
      // Lines that start inside the element's box are drawn. The text rects tell how many lines
      // there are, not where their line boxes start: a rect is the font's content area, taller
      // than the line box when ascent + descent exceed the line height (Noto Sans 1.36 em,
      // Noto Sans CJK 1.45 em, against 1.3), so line k starts at the box's top + k line heights.
      const count = new Set(lines.filter(l => l.height > 0).map(l => Math.round(l.top * 4) / 4)).size;
      const tops = Array.from({length: count}, (_, k) => box(el).top + k * lh);
      const bottom = Math.min(box(body).bottom, box(card).bottom), boxBottom = box(el).bottom;
      const shown = tops.filter(t => t < Math.min(bottom, boxBottom) - 0.5);
      entry[name] = {height: box(el).height, lineHeight: lh, clamp: cs.webkitLineClamp,
                     scrollHeight: el.scrollHeight, clientHeight: el.clientHeight,
                     bottom, boxBottom,
                     shownLines: shown.length};
    }
    if (date) entry.date = box(date).toJSON();
    out.push(entry);
  }
  return out;
}
"""


def _problems(browser, url: str, width: int) -> tuple[int, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(url, wait_until="load")
        page.evaluate("document.fonts.ready")
        cards = page.evaluate(_MEASURE_JS)
    finally:
        context.close()
    problems = []
    for c in cards:
        where = f"{url.rsplit('/', 2)[-2]} {c['id']} at {width}px"
        for name in ("title", "text"):
            t = c.get(name)
            if not t:
                continue
            # Whole lines: the box is a whole number of lines tall and ends inside the card.
            lines = round(t["height"] / t["lineHeight"])
            if abs(t["height"] - lines * t["lineHeight"]) > 0.5 or t["boxBottom"] > t["bottom"] + 0.5:
                problems.append(f"{where}: the {name} is {t['height']:.2f} px tall ({t['height'] / t['lineHeight']:.2f} "
                                f"lines) and ends at {t['boxBottom']:.2f}, its card's text at {t['bottom']:.2f}")
            cut = t["scrollHeight"] > t["clientHeight"] + 1
            if cut and t["clamp"] != str(t["shownLines"]):
                problems.append(f"{where}: the {name} is cut after {t['shownLines']} lines but clamped at "
                                f"{t['clamp']} (no ellipsis on its last line)")
        if "date" in c:
            d, k = c["date"], c["card"]
            if d["height"] <= 0 or d["bottom"] > k["bottom"] + 0.5 or d["top"] < k["top"] - 0.5:
                problems.append(f"{where}: the date ({d['top']:.1f}…{d['bottom']:.1f}) is not inside the card "
                                f"({k['top']:.1f}…{k['bottom']:.1f})")
    return len(cards), problems


@pytest.mark.parametrize("width", WIDTHS)
def test_fixed_cards_show_whole_lines_and_the_date(browser, site, text_site, width):
    total, problems = 0, []
    for path in [site / "index.html", site / "recipes" / "index.html", text_site / "index.html"]:
        n, p = _problems(browser, page_url(path), width)
        total += n
        problems += p
    print(f"{width}px: {total} fixed-size cards checked")
    assert total >= 24
    assert problems == [], "\n".join(problems)
