"""Body images (issue 19 item 3, content-format §8.2): in Chromium at 390 and 1280 px, at 1× and
2×, every image of an item page's body and of a feed page's intro loads (naturalWidth > 0); an
image with variants loads a WebP variant at least as wide as it is drawn × the device pixel ratio
(or the widest), whose `sizes` (evaluated by the browser) is the width it is drawn at; and the
page does not scroll sideways. Site: an item whose body shows a 1600 px PNG beside it, a 1000 px
PNG from static/ and a small PNG, and a feed intro showing the static one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from browser_support import candidate_problem, evaluate_with_frames, page_url
from test_responsive_images import _png


@pytest.fixture(scope="module")
def body_site(feedgen: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("body-images")
    posts = root / "content" / "posts"
    posts.mkdir(parents=True)
    (root / "static" / "images").mkdir(parents=True)
    (root / "content" / "_feed.md").write_text("---\ntitle: Home\n---\nWelcome. ![The banner](/images/banner.png)\n")
    text = "A paragraph of words that wrap across the column. " * 12
    (posts / "walk.md").write_text(
        f"---\ntitle: A walk\n---\n{text}\n\n![A wide photo](wide.png)\n\n{text}\n\n"
        f"![A small photo](small.png)\n\n![The banner again](/images/banner.png)\n")
    (posts / "wide.png").write_bytes(_png(1600, 900))
    (posts / "small.png").write_bytes(_png(300, 200))
    (root / "static" / "images" / "banner.png").write_bytes(_png(1000, 250))
    out = root / "public"
    subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], check=True, capture_output=True)
    return out


_MEASURE = """
async (_, frame) => {
  const out = [];
  for (const img of document.querySelectorAll('.detail-body img, .page-intro img')) {
    img.scrollIntoView({block: 'center'});
    await frame();
    if (!img.complete || !img.naturalWidth) {
      await new Promise(r => { img.addEventListener('load', r, {once: true}); img.addEventListener('error', r, {once: true}); setTimeout(r, 5000); });
    }
    let sizesWidth = null, candidates = [];
    const source = img.parentElement.tagName === 'PICTURE' ? img.parentElement.querySelector('source') : null;
    if (img.hasAttribute('sizes')) {
      const entries = img.getAttribute('sizes').split(/,(?![^(]*\\))/).map(s => s.trim()).filter(s => s !== 'auto');
      let length = null;
      for (const e of entries) {
        const m = e.match(/^(\\([^)]*\\))\\s+(.*)$/);
        if (!m) { length = e; break; }
        if (matchMedia(m[1]).matches) { length = m[2]; break; }
      }
      const probe = document.createElement('div');
      probe.style.cssText = 'position:absolute;top:0;left:0;height:1px;width:' + length;
      document.body.append(probe);
      sizesWidth = probe.getBoundingClientRect().width;
      probe.remove();
      candidates = (source ? source.srcset : img.srcset).split(',').map(s => s.trim().split(/\\s+/))
        .map(([url, w]) => ({url, w: parseInt(w)}));
    }
    out.push({alt: img.alt, drawn: img.getBoundingClientRect().width, naturalWidth: img.naturalWidth,
              currentSrc: img.currentSrc, sizesWidth, candidates, picture: !!source});
  }
  const doc = document.scrollingElement;
  return {images: out, scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth};
}
"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("ratio", [1, 2])
def test_body_images_load_a_fitting_variant_and_the_page_does_not_scroll_sideways(browser, body_site, width, ratio):
    context = browser.new_context(viewport={"width": width, "height": 800}, device_scale_factor=ratio)
    page = context.new_page()
    problems = []
    pictures = 0
    try:
        for path in [body_site / "posts" / "walk.html", body_site / "index.html"]:
            page.goto(page_url(path), wait_until="load")
            result = evaluate_with_frames(page, _MEASURE)
            where = f"{path.name} at {width} px ×{ratio}"
            if result["scrollWidth"] > result["clientWidth"]:
                problems.append(f"{where}: scrolls sideways ({result['scrollWidth']} > {result['clientWidth']})")
            assert result["images"], f"no body images on {path}"
            for im in result["images"]:
                name = f"{where}, image '{im['alt']}'"
                print(f"{name}: drawn {im['drawn']:.1f}, sizes {im['sizesWidth']}, loaded {im['currentSrc'].rsplit('/', 1)[-1]}")
                if im["naturalWidth"] <= 0:
                    problems.append(f"{name}: did not load ({im['currentSrc']})")
                if im["alt"] == "A small photo":
                    if im["picture"] or im["candidates"]:
                        problems.append(f"{name}: a small image got variants")
                    continue
                pictures += 1
                if not im["picture"]:
                    problems.append(f"{name}: no <picture>")
                    continue
                if abs(im["sizesWidth"] - im["drawn"]) > 0.5:
                    problems.append(f"{name}: drawn {im['drawn']:.2f} px, sizes says {im['sizesWidth']:.2f} px")
                if not im["currentSrc"].endswith(".webp"):
                    problems.append(f"{name}: loaded {im['currentSrc']}, not a WebP variant")
                    continue
                problem = candidate_problem(im["currentSrc"], im["candidates"], im["drawn"], ratio)
                if problem:
                    problems.append(f"{name}: {problem}")
    finally:
        context.close()
    assert pictures == 3
    assert problems == []
