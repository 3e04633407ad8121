"""Long unbroken words and URLs never widen the page at 320 px, and a fixed-size card keeps its
image visible whatever the length of its title (issue 22, items 6 and 7)."""
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from browser_support import close_page, open_page

WORD = "Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft" * 2
URL = "https://example.org/" + "a-very-long-path-segment-without-any-break" * 4
CODE = "let x = " + "longIdentifierWithoutBreaks" * 12


def png(width: int, height: int) -> bytes:
    """A solid grey RGB PNG (no imaging library needed)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


FILES = {
    "content/_feed.md": f"---\ntitle: Feed {WORD}\n---\nIntro {WORD} and {URL}\n\n```\n{CODE}\n```\n",
    "content/tags/_section.md": f"---\ntitle: Chips {WORD}\nlayout: chips\n---\nSee {URL}\n",
    "content/tags/a.md": f"---\ntitle: Chip {WORD}\n---\n",
    "content/tags/b.md": "---\ntitle: short\n---\n",
    "content/cars/_section.md": f"---\ntitle: Carousel {URL}\nlayout: carousel\n---\n",
    "content/cars/a.md": f"---\ntitle: {WORD} {WORD} {WORD}\nimage: a.png\n---\nBody {URL}\n\n```\n{CODE}\n```\n",
    "content/cars/b.md": "---\ntitle: Short\nimage: a.png\n---\n",
    "content/grid/_section.md": "---\ntitle: Grid\nlayout: grid\n---\n",
    "content/grid/a.md": f"---\ntitle: Wide image\nimage: wide.png\ndescription: {'Words to read. ' * 40}\n---\n",
    "content/grid/b.md": "---\ntitle: B\n---\n",
    "content/heroes/_section.md": "---\ntitle: Hero\nlayout: hero\n---\n",
    "content/heroes/a.md": f"---\ntitle: {WORD} {WORD} {WORD} {WORD}\nimage: a.png\n---\n",
}


@pytest.fixture(scope="module")
def long_site(feedgen, tmp_path_factory):
    root = tmp_path_factory.mktemp("long-words")
    for rel, text in FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    for folder in ("cars", "heroes"):
        (root / "content" / folder / "a.png").write_bytes(png(320, 200))
    (root / "content" / "grid" / "wide.png").write_bytes(png(400, 100))
    out = root / "public"
    result = subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out


def scroll_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("page_path", ["index.html", "cars/a.html"])
def test_long_words_do_not_widen_the_page(long_site: Path, browser, page_path):
    opened = open_page(browser, (long_site / page_path).as_uri(), 320)
    try:
        page = opened.page
        assert scroll_width(page) == 320
        for pre in page.query_selector_all("pre"):
            # A code block scrolls inside itself.
            box = pre.evaluate("e => [e.clientWidth, e.scrollWidth, getComputedStyle(e).overflowX]")
            assert box[0] <= 320 and box[1] > box[0] and box[2] == "auto", box
        if page_path == "index.html":
            chip = page.query_selector(".cl-preset-chips .chip span, .cl-preset-chips .chip a")
            style = chip.evaluate("e => [getComputedStyle(e).textOverflow, e.getBoundingClientRect().right]")
            assert style[0] == "ellipsis" and style[1] <= 320, style
        assert opened.problems == []
    finally:
        close_page(opened)


def test_fixed_size_cards_keep_their_image(long_site: Path, browser):
    opened = open_page(browser, (long_site / "index.html").as_uri(), 320)
    try:
        sizes = opened.page.evaluate("""() => [...document.querySelectorAll(
            '.cl-preset-carousel .card-with-image, .cl-preset-hero .card-with-image')].map(c => {
              const img = c.querySelector('.card-image');
              return [c.closest('.cl-section').className, c.getBoundingClientRect().height,
                      img.getBoundingClientRect().height];
            })""")
        assert len(sizes) == 3, sizes
        for section, card, image in sizes:
            # The carousel card is 240 px tall: its image keeps at least 40% of it (96 px).
            assert card > 0 and image >= 0.4 * card - 0.5, (section, card, image)
        assert sizes[0][1] == 240
        # A self-sizing grid card keeps its image at its aspect ratio and shows all its text.
        grid = opened.page.evaluate("""() => {
            const c = document.querySelector('.cl-preset-grid .card-with-image');
            const img = c.querySelector('.card-image'), body = c.querySelector('.card-body');
            return [img.getBoundingClientRect().width, img.getBoundingClientRect().height,
                    body.scrollHeight, body.clientHeight];
        }""")
        assert abs(grid[1] - grid[0] / 4) <= 0.5 and grid[2] <= grid[3], grid
    finally:
        close_page(opened)
