"""Responsive images (issue 8 §2, issue 21 item 7): in Chromium at 320, 390, 768, 1280 and
1600 px, every image's `sizes` (evaluated by the browser: the first entry whose media condition
matches, its length measured on a probe element) equals the width the image is drawn at (with
`object-fit: cover` in a fixed-size card, the width of the scaled image, wider than its box
when the box is taller in proportion), and the candidate the
browser loads (`currentSrc`, WebP) is at least as wide as the drawn width × the device pixel
ratio (or is the widest candidate). Pages: a site with grid, carousel, hero, adaptive and list
sections and item pages, with large generated PNGs, and the sample site's recipes feed."""

from __future__ import annotations

import re
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from browser_support import candidate_problem, evaluate_with_frames, page_url

WIDTHS = [320, 390, 768, 1280, 1600]


def _png(width: int, height: int) -> bytes:
    """A real RGB PNG (a gradient), made with zlib."""
    base = bytearray()
    for x in range(width):
        base += bytes((x * 255 // max(width - 1, 1), 0, x & 255))
    rows = bytearray()
    for y in range(height):
        row = bytearray(base)
        row[1::3] = bytes([y * 255 // max(height - 1, 1)]) * width
        rows += b"\x00" + row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b""))


ADAPTIVE = """---
title: Adaptive
layout:
  item: {width: fractionalWidth(1.0), height: estimated(100)}
  group: {direction: horizontal, width: fractionalWidth(1.0), height: estimated(100), count: 1, interItemSpacing: fixed(10)}
  contentInsets: 12
  interGroupSpacing: 8
  adaptive:
    - minWidth: 600
      group: {count: 2}
---
"""


@pytest.fixture(scope="module")
def image_site(feedgen: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("images")
    sections = {"hero": "hero", "grid": "grid", "carousel": "carousel", "adaptive": None, "list": "list"}
    order = list(sections)
    (root / "content").mkdir()
    (root / "content" / "_feed.md").write_text(f"---\ntitle: Images\nsections: [{', '.join(order)}]\n---\n")
    n = 0
    for name, preset in sections.items():
        folder = root / "content" / name
        folder.mkdir()
        (folder / "_section.md").write_text(ADAPTIVE if preset is None else f"---\ntitle: {name.title()}\nlayout: {preset}\n---\n")
        for i in range(3):
            n += 1
            (folder / f"p{i}.png").write_bytes(_png(1200 + 40 * n, 600))
            body = "A body, so the item has its own page.\n" if i == 0 else ""
            (folder / f"p{i}.md").write_text(
                f"---\ntitle: Picture {n}\nweight: {i}\nimage:\n  src: p{i}.png\n  alt: Gradient number {n}\n---\n{body}")
    out = root / "public"
    subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], check=True, capture_output=True)
    return out


_MEASURE = """
async (_, frame) => {
  const out = [];
  for (const img of document.querySelectorAll('img[sizes]')) {
    img.scrollIntoView({block: 'center', inline: 'center'});
    const scroller = img.closest('[data-scroller]');
    if (scroller) img.scrollIntoView({block: 'center', inline: 'nearest'});
    await frame();
    if (!img.complete || !img.currentSrc) {
      await new Promise(r => { img.addEventListener('load', r, {once: true}); img.addEventListener('error', r, {once: true}); setTimeout(r, 3000); });
    }
    // The sizes list without `auto`: the first entry whose condition matches.
    const entries = img.getAttribute('sizes').split(/,(?![^(]*\\))/).map(s => s.trim()).filter(s => s !== 'auto');
    let length = null, condition = null;
    for (const e of entries) {
      const m = e.match(/^(\\([^)]*\\))\\s+(.*)$/);
      if (!m) { length = e; break; }
      if (matchMedia(m[1]).matches) { length = m[2]; condition = m[1]; break; }
    }
    const probe = document.createElement('div');
    probe.style.cssText = 'position:absolute;top:0;left:0;height:1px;width:' + length;
    document.body.append(probe);
    const sizesWidth = probe.getBoundingClientRect().width;
    probe.remove();
    const source = img.parentElement.tagName === 'PICTURE' ? img.parentElement.querySelector('source') : null;
    const candidates = (source ? source.srcset : img.srcset).split(',').map(s => s.trim().split(/\\s+/))
      .map(([url, w]) => ({url, w: parseInt(w)}));
    // Drawn width: the box, or with object-fit: cover the scaled image that covers it (at the
    // image's own aspect ratio, its width and height attributes: a variant's rounded height
    // changes it by a fraction of a pixel).
    const box = img.getBoundingClientRect(), cover = getComputedStyle(img).objectFit === 'cover';
    const aspect = +img.getAttribute('width') / +img.getAttribute('height');
    const drawn = cover && aspect > 0 ? Math.max(box.width, box.height * aspect) : box.width;
    const fixed = !!img.closest('.cl-item') && getComputedStyle(img.closest('.cl-item')).containerType === 'size';
    out.push({alt: img.alt, drawn, box: box.width, fixed, sizesWidth, length, condition,
              currentSrc: img.currentSrc, naturalWidth: img.naturalWidth, candidates,
              sourceSizes: source ? source.getAttribute('sizes') : null, imgSizes: img.getAttribute('sizes')});
  }
  return out;
}
"""


def _webp_width(path: Path) -> int:
    """The pixel width in a WebP file's header (VP8, VP8L or VP8X chunk)."""
    d = path.read_bytes()
    kind = d[12:16]
    if kind == b"VP8 ":
        return struct.unpack("<H", d[26:28])[0] & 0x3FFF
    if kind == b"VP8L":
        return 1 + (d[21] | (d[22] & 0x3F) << 8)
    return 1 + int.from_bytes(d[24:27], "little")


def _check(browser, urls: list[str], width: int, ratio: int) -> list[str]:
    """The problems of every page of `urls`, loaded one after the other into one page (one
    context per width and ratio: a fresh context per page cost about a second each)."""
    context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=ratio)
    page = context.new_page()
    problems = []
    try:
        for url in urls:
            problems += _check_page(page, url, width, ratio)
    finally:
        context.close()
    return problems


def _check_page(page, url: str, width: int, ratio: int) -> list[str]:
    problems = []
    page.goto(url, wait_until="load")
    assert page.evaluate("innerWidth") == width
    assert page.evaluate("document.documentElement.clientWidth") == width, "a classic scrollbar narrows the page"
    images = evaluate_with_frames(page, _MEASURE)
    assert images, f"no responsive images on {url}"
    for im in images:
        where = f"{url} at {width} px ×{ratio}, image '{im['alt']}'"
        print(f"{width}px ×{ratio} {im['alt']}: drawn {im['drawn']:.2f}, sizes {im['condition']} {im['length']} = "
              f"{im['sizesWidth']:.2f}, loaded {im['currentSrc'].rsplit('/', 1)[-1]}")
        # `sizes` is the drawn width where the model knows it: the box, or the covering
        # image in a fixed-size card. A self-sizing card stretched by a taller neighbour in
        # a grid row draws its image a little wider than `sizes`: the candidate check below
        # still holds it to the drawn width. An image narrower than its slot is drawn at its
        # own width (theme.css, issue 21): `sizes` then names the slot, wider than drawn, and
        # the largest variant is loaded.
        capped = abs(im["drawn"] - max(c["w"] for c in im["candidates"])) < 0.5 and im["sizesWidth"] > im["drawn"]
        if abs((im["drawn"] if im["fixed"] else im["box"]) - im["sizesWidth"]) > 0.5 and not capped:
            problems.append(f"{where}: drawn {im['drawn']:.2f} px, sizes says {im['sizesWidth']:.2f} px ({im['length']})")
        if im["sourceSizes"] != im["imgSizes"]:
            problems.append(f"{where}: <source> and <img> sizes differ")
        if not im["currentSrc"].endswith(".webp"):
            problems.append(f"{where}: Chromium loaded {im['currentSrc']}, not the WebP source")
            continue
        problem = candidate_problem(im["currentSrc"], im["candidates"], im["drawn"], ratio)
        if problem:
            problems.append(f"{where}: {problem}")
    return problems


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("ratio", [1, 2])
def test_sizes_match_drawn_widths_and_candidates_suffice(browser, image_site, width, ratio):
    pages = [image_site / "index.html"] + sorted(image_site.glob("*/p0.html"))
    assert len(pages) == 6, pages
    assert _check(browser, [page_url(p) for p in pages], width, ratio) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_sample_recipes_feed(browser, site, width):
    assert _check(browser, [page_url(site / "recipes" / "index.html")], width, 2) == []


def test_every_variant_is_listed_and_no_upscaling(image_site):
    html = (image_site / "index.html").read_text()
    listed = set(re.findall(r"images/[^\s\"]+", html))
    files = {f"images/{p.name}" for p in (image_site / "images").iterdir()}
    # The feed page lists its variants; item pages may add wider ones.
    assert listed <= files
    for name in files:
        w = int(re.search(r"-(\d+)\.(webp|png)$", name).group(1))
        assert w <= 1200 + 40 * 15
        if name.endswith(".webp"):
            assert _webp_width(image_site / name) == w, name
