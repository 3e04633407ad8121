"""The browser's boxes agree with the layout model (`feedgen layout --json --measured`).

For each feed and container width, the page is opened at that viewport width; every item's box,
every section header's height and every item's size are read and fed back to the model as
measurements; the model's item frames must then equal the browser's boxes (±0.5 px). Model
coordinates are relative to the top-left of `.cl-sections`; items inside a `[data-scroller]` are
measured in scroller-content coordinates (as if scrollLeft = 0). For orthogonal sections the
scroller's scrollWidth must equal the model's contentWidth (or the scroller's width when the
content is narrower: scrollWidth never reports less than clientWidth), and programmatic scrolls must settle
on one of the model's snap offsets.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from browser_support import broken_images, close, close_page, open_page, page_url

WIDTHS = [320, 390, 768, 1280, 1600]
VIEWPORT_HEIGHT = 844  # the model's default --viewport-height
FEEDS = {"/": "index.html", "recipes": "recipes/index.html"}
SNAP_TOLERANCE = 1.0

CASES = [
    pytest.param(feed, width, id=f"{'home' if feed == '/' else feed}-{width}")
    for feed in FEEDS
    for width in WIDTHS
]

_READ_JS = """
async () => {
  await document.fonts.ready;
  const sections = document.querySelector('.cl-sections');
  if (!sections) return null;
  const s = sections.getBoundingClientRect();
  const ox = s.left + window.scrollX, oy = s.top + window.scrollY;
  const items = {}, headers = {}, scrollers = {};
  for (const el of document.querySelectorAll('[data-item-id]')) {
    const r = el.getBoundingClientRect();
    const scroller = el.closest('[data-scroller]');
    const dx = scroller ? scroller.scrollLeft : 0;
    items[el.dataset.itemId] = {
      x: r.left + window.scrollX + dx - ox, y: r.top + window.scrollY - oy,
      width: r.width, height: r.height,
    };
  }
  for (const sec of document.querySelectorAll('[data-section-id]')) {
    const id = sec.dataset.sectionId;
    const header = sec.querySelector(':scope > .cl-header');
    if (header) headers[id] = header.getBoundingClientRect().height;
    const scroller = sec.querySelector('[data-scroller]');
    if (scroller) {
      // The content's own extent: the furthest child edge in scroller-content coordinates plus
      // the inline-end padding. Unlike scrollWidth it is not clamped up to clientWidth.
      const sr = scroller.getBoundingClientRect();
      let right = 0;
      for (const child of scroller.children) {
        right = Math.max(right, child.getBoundingClientRect().right - sr.left - scroller.clientLeft + scroller.scrollLeft);
      }
      const extent = right + parseFloat(getComputedStyle(scroller).paddingRight);
      scrollers[id] = {scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth, contentExtent: extent};
    }
  }
  return {sectionsWidth: s.width, items, headers, scrollers};
}
"""

# Scrolls the section's scroller to `left` instantly, waits ~300 ms for snapping to settle (and
# then until scrollLeft stops changing), and returns the final scrollLeft.
_SCROLL_JS = """
async ([sectionId, left]) => {
  const scroller = document.querySelector(`[data-section-id="${sectionId}"] [data-scroller]`);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  scroller.scrollTo({left, behavior: 'instant'});
  await sleep(300);
  let last = scroller.scrollLeft;
  for (let i = 0; i < 20; i++) {
    await sleep(50);
    if (scroller.scrollLeft === last) break;
    last = scroller.scrollLeft;
  }
  return scroller.scrollLeft;
}
"""


def _model(feedgen, repo_root, feed, width, measured_file):
    cmd = [
        str(feedgen), "layout", str(repo_root), "--width", str(width), "--feed", feed,
        "--json", "--measured", str(measured_file),
    ]
    result = subprocess.run(cmd, cwd=repo_root, capture_output=True, text=True)
    assert result.returncode == 0, (
        f"{' '.join(cmd)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    )
    return json.loads(result.stdout)


def _scroll_targets(orthogonal) -> list[float]:
    max_offset = orthogonal["maxOffset"]
    snaps = sorted(orthogonal["snapOffsets"])
    targets = {0.0, max_offset, max_offset / 4, max_offset / 2, 3 * max_offset / 4}
    # Just either side of the midpoint between neighbouring snaps.
    for a, b in zip(snaps, snaps[1:]):
        targets.update({(a + b) / 2 - 5, (a + b) / 2 + 5})
    return sorted(round(t) for t in targets if 0 <= t <= max_offset)


@pytest.mark.parametrize("feed,width", CASES)
def test_browser_matches_model(browser, site, feedgen, repo_root, tmp_path, feed, width):
    opened = open_page(browser, page_url(site / FEEDS[feed]), width, VIEWPORT_HEIGHT)
    try:
        page = opened.page
        broken = broken_images(page)  # load lazy images so every box has its final size
        assert not broken, f"images did not load: {broken}"
        seen = page.evaluate(_READ_JS)
        assert seen is not None, f"{FEEDS[feed]} has no .cl-sections element"

        measured = {
            "items": {i: {"width": b["width"], "height": b["height"]} for i, b in seen["items"].items()},
            "headers": seen["headers"],
        }
        measured_file = tmp_path / "measured.json"
        measured_file.write_text(json.dumps(measured, indent=2))
        model = _model(feedgen, repo_root, feed, width, measured_file)

        mismatches = []
        if not close(seen["sectionsWidth"], width):
            mismatches.append(f".cl-sections width: model container {width} vs browser {seen['sectionsWidth']}")
        model_ids = set()
        for section in model["sections"]:
            for item in section["items"]:
                model_ids.add(item["id"])
                box = seen["items"].get(item["id"])
                if box is None:
                    mismatches.append(f"{item['id']}: in the model, not on the page")
                    continue
                for axis in ("x", "y", "width", "height"):
                    m, b = item["frame"][axis], box[axis]
                    if not close(m, b):
                        mismatches.append(f"{item['id']}: {axis} model {m} vs browser {b:.4f} (Δ {b - m:+.4f})")
        for extra in sorted(set(seen["items"]) - model_ids):
            mismatches.append(f"{extra}: on the page, not in the model")

        for section in model["sections"]:
            orthogonal = section.get("orthogonal")
            if not orthogonal:
                continue
            sid = section["id"]
            scroller = seen["scrollers"].get(sid)
            if scroller is None:
                mismatches.append(f"section {sid}: orthogonal in the model, no [data-scroller] on the page")
                continue
            # scrollWidth is never less than the scroller's clientWidth, so when the content is
            # narrower than the scroller it equals the scroller's width; the content's own extent
            # is compared as well.
            content_width = orthogonal["contentWidth"]
            expected_scroll_width = max(content_width, orthogonal["scroller"]["width"])
            if not close(scroller["scrollWidth"], expected_scroll_width):
                mismatches.append(
                    f"section {sid}: scroller scrollWidth browser {scroller['scrollWidth']}"
                    f" vs model {expected_scroll_width} (contentWidth {content_width},"
                    f" scroller width {orthogonal['scroller']['width']})"
                )
            if not close(scroller["contentExtent"], content_width):
                mismatches.append(
                    f"section {sid}: scroller content extent browser {scroller['contentExtent']:.4f}"
                    f" vs model contentWidth {content_width}"
                )
            snaps = orthogonal["snapOffsets"]
            if not snaps:
                continue
            for target in _scroll_targets(orthogonal):
                final = page.evaluate(_SCROLL_JS, [sid, target])
                if not any(close(final, s, SNAP_TOLERANCE) for s in snaps):
                    mismatches.append(
                        f"section {sid}: scrollTo({target}) settled at scrollLeft {final},"
                        f" not a model snap offset {snaps}"
                    )
            page.evaluate(_SCROLL_JS, [sid, 0])

        mismatches.extend(opened.problems)
        assert not mismatches, (
            f"feed {feed!r} at width {width}: {len(mismatches)} mismatch(es)\n" + "\n".join(mismatches)
        )
    finally:
        close_page(opened)
