"""Layout conformance: the browser puts every box where the layout model says.

Each folder in `layout_cases/` is a small site exercising one feature of the compositional
layout (content-format §6.1) alone or combined with others. Every case is built once per session,
then opened from file:// in Chromium at container widths 320, 390, 768, 1280 and 1600 (one test id per
case and width). For each:

1. the page's boxes are read: every `data-item-id` cell, every section, header, footer and
   background decoration, every `[data-scroller]`;
2. the measured sizes (cells, headers, footers) are fed back to the model with
   `feedgen layout --json --measured`, which uses them only for estimated dimensions, as UIKit
   uses the preferred sizes of self-sizing cells;
3. every item's x, y, width and height, and every section, header, footer and background frame,
   must equal the model's within 0.5 px;
4. for orthogonal sections: the scroller's frame and `scrollWidth` (its content's extent) must
   equal the model's scroller frame and `contentWidth`; programmatic scrolls must come to rest
   at the model's snap offsets (or, for `continuous`, where they were sent); keyboard scrolls
   (ArrowRight, ArrowLeft from the focused scroller or a focused card link) must step through
   the snap offsets in order.

A case may list the warnings its build must print in `expected-warnings.txt`; any other
diagnostic fails the case. The largest deviations of each test (boxes, and resting scroll offsets,
which Chromium keeps on whole device pixels) are written to the JSON file named by
$FEEDGEN_CONFORMANCE_REPORT (default: conformance-report.json in pytest's temporary folder).
"""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from browser_support import TOLERANCE, chromium_env, evaluate_with_frames, page_url

CASES_DIR = Path(__file__).resolve().parent / "layout_cases"
CASES = sorted(p.name for p in CASES_DIR.iterdir() if (p / "content").is_dir())
WIDTHS = [320, 390, 768, 1280, 1600]
VIEWPORT_HEIGHT = 844  # passed to the model as --viewport-height
# Chromium keeps scroll offsets on whole device pixels (DPR 1 here): a snap offset of 341.5 rests
# at 341 or 342. Half a pixel, plus one LayoutUnit (1/64 px) for the rounding of the snap area.
SNAP_TOLERANCE = 0.5 + 1 / 64
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

_DEVIATIONS: dict[str, dict[str, float]] = {}


@pytest.fixture(scope="session")
def case_sites(feedgen, tmp_path_factory) -> dict[str, tuple[Path, list[str]]]:
    """Every case built once: case name → (output folder, diagnostics printed by the build)."""
    out_root = tmp_path_factory.mktemp("layout-cases")

    def build(name: str):
        public = out_root / name / "public"
        result = subprocess.run(
            [str(feedgen), "build", str(CASES_DIR / name), "--output", str(public), "--quiet"],
            capture_output=True, text=True,
        )
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        return name, (public if result.returncode == 0 else None, lines, result.returncode)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        built = dict(pool.map(build, CASES))
    report = os.environ.get("FEEDGEN_CONFORMANCE_REPORT") or str(out_root / "conformance-report.json")
    yield {name: (public, lines, status) for name, (public, lines, status) in built.items()}
    Path(report).write_text(json.dumps({
        "largest box deviation (px)": max((d["boxes"] for d in _DEVIATIONS.values()), default=0.0),
        "largest snap deviation (px)": max((d["snaps"] for d in _DEVIATIONS.values()), default=0.0),
        "tests": dict(sorted(_DEVIATIONS.items())),
    }, indent=2))


@pytest.fixture(scope="module")
def page(playwright_instance):
    """One Chromium for the module, without smooth scrolling (keyboard scrolls settle at once),
    and one page reused by every test."""
    headed = os.environ.get("HEADED") == "1" and os.environ.get("CI", "").lower() not in ("1", "true", "yes")
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=not headed, args=["--disable-smooth-scrolling"], env=chromium_env())
    context = browser.new_context(
        viewport={"width": 390, "height": VIEWPORT_HEIGHT}, reduced_motion="reduce")
    p = context.new_page()
    problems: list[str] = []
    p.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    p.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    p.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    p.problems = problems
    yield p
    context.close()
    browser.close()


# Every box relative to the top-left of `.cl-sections` (the model's origin). Sticky headers and
# footers are measured where the flow puts them (as if not pinned: the model's frame); items in a
# scroller in scroller-content coordinates (as if scrollLeft were 0).
_READ_JS = """
async () => {
  await document.fonts.ready;
  const root = document.querySelector('.cl-sections');
  if (!root) return null;
  const pinned = [...document.querySelectorAll('.cl-header, .cl-footer')]
    .filter(e => getComputedStyle(e).position === 'sticky');
  for (const e of pinned) e.style.setProperty('position', 'relative', 'important');
  const o = root.getBoundingClientRect();
  const ox = o.left + scrollX, oy = o.top + scrollY;
  const box = (el, dx = 0) => {
    const r = el.getBoundingClientRect();
    return {x: r.left + scrollX + dx - ox, y: r.top + scrollY - oy, width: r.width, height: r.height};
  };
  const items = {}, sections = {};
  for (const el of document.querySelectorAll('[data-item-id]')) {
    const scroller = el.closest('[data-scroller]');
    items[el.dataset.itemId] = box(el, scroller ? scroller.scrollLeft : 0);
  }
  for (const sec of document.querySelectorAll('[data-section-id]')) {
    const part = (sel) => {
      const e = sec.querySelector(':scope > ' + sel);
      return e && getComputedStyle(e).display !== 'none' ? box(e) : null;
    };
    const s = {frame: box(sec), header: part('.cl-header'), footer: part('.cl-footer'),
               background: part('.cl-background'), scroller: null};
    const scroller = sec.querySelector('[data-scroller]');
    if (scroller && getComputedStyle(scroller).overflowX !== 'visible') {
      // The content's own extent: the furthest child edge in content coordinates plus the
      // inline-end padding (scrollWidth is never less than clientWidth).
      // Right to left: from the right edge, and the end padding is on the left.
      const sr = scroller.getBoundingClientRect(), rtl = getComputedStyle(scroller).direction === 'rtl';
      let right = 0;
      for (const child of scroller.children) {
        if (getComputedStyle(child).position === 'absolute') continue;
        const c = child.getBoundingClientRect();
        right = Math.max(right, rtl ? sr.right - scroller.clientLeft - c.left - scroller.scrollLeft
                                    : c.right - sr.left - scroller.clientLeft + scroller.scrollLeft);
      }
      s.scroller = {frame: box(scroller), scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth, rtl,
                    contentExtent: right + parseFloat(getComputedStyle(scroller)[rtl ? 'paddingLeft' : 'paddingRight']),
                    focusable: scroller.hasAttribute('tabindex'), links: scroller.querySelectorAll('a[href]').length};
    }
    sections[sec.dataset.sectionId] = s;
  }
  for (const e of pinned) e.style.removeProperty('position');
  return {width: o.width, items, sections};
}
"""

# Waits until the scroller's scrollLeft has not changed for three animation frames.
_SETTLE_JS = """
async (id, frame) => {
  const s = document.querySelector(`[data-section-id="${id}"] [data-scroller]`);
  let last = s.scrollLeft, stable = 0;
  for (let i = 0; i < 120 && stable < 3; i++) {
    await frame(1);
    if (s.scrollLeft === last) stable++; else { stable = 0; last = s.scrollLeft; }
  }
  return s.scrollLeft;
}
"""

_SCROLL_TO_JS = """
([id, left]) => {
  const s = document.querySelector(`[data-section-id="${id}"] [data-scroller]`);
  s.scrollTo({left, behavior: 'instant'});
}
"""

# Focuses the scroller itself (it has tabindex when it holds no link) or its first card link,
# without scrolling, after resetting it to offset 0.
_FOCUS_JS = """
(id) => {
  const s = document.querySelector(`[data-section-id="${id}"] [data-scroller]`);
  s.scrollTo({left: 0, behavior: 'instant'});
  const target = s.hasAttribute('tabindex') ? s : s.querySelector('a[href]');
  target.focus({preventScroll: true});
  return document.activeElement === target ? (target === s ? 'scroller' : 'link') : null;
}
"""


def _model(feedgen: Path, site: Path, width: int, measured_file: Path) -> dict:
    cmd = [str(feedgen), "layout", str(site), "--width", str(width), "--viewport-height", str(VIEWPORT_HEIGHT),
           "--json", "--measured", str(measured_file)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(cmd)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return json.loads(result.stdout)


def _targets(orthogonal: dict) -> list[float]:
    max_offset = orthogonal["maxOffset"]
    snaps = orthogonal["snapOffsets"]
    targets = {0.0, max_offset, max_offset / 3}
    for a, b in list(zip(snaps, snaps[1:]))[:3]:
        targets.update({(a + b) / 2 - 3, (a + b) / 2 + 3})
    return sorted(round(t) for t in targets if 0 <= t <= max_offset)


class Comparison:
    def __init__(self) -> None:
        self.mismatches: list[str] = []
        self.largest = 0.0  # boxes and extents
        self.largest_snap = 0.0  # resting scroll offsets (the browser keeps them on device pixels)

    def rect(self, what: str, model: dict | None, seen: dict | None) -> None:
        if model is None and seen is None:
            return
        if model is None or seen is None:
            self.mismatches.append(f"{what}: model {model} vs browser {seen}")
            return
        for axis in ("x", "y", "width", "height"):
            self.value(f"{what} {axis}", model[axis], seen[axis])

    def value(self, what: str, model: float, seen: float, tolerance: float = TOLERANCE, tracked: bool = True) -> None:
        delta = abs(seen - model)
        if tracked:
            self.largest = max(self.largest, delta)
        if delta > tolerance:
            self.mismatches.append(f"{what}: model {model} vs browser {seen:.4f} (Δ {seen - model:+.4f})")


def _check_scrolling(page, sid: str, orthogonal: dict, scroller: dict, check: Comparison, rtl: bool = False) -> None:
    """Right to left, the model's snap offsets are the negative `scrollLeft` values the page
    has (docs/layout-json.md): targets are negated and ArrowLeft moves towards the end."""
    sign = -1 if rtl else 1
    snaps = orthogonal["snapOffsets"]
    behavior = orthogonal["behavior"]
    max_offset = orthogonal["maxOffset"]
    forward, back = ("ArrowLeft", "ArrowRight") if rtl else ("ArrowRight", "ArrowLeft")
    if max_offset <= 0:
        return

    def near_snap(v: float) -> bool:
        return any(abs(v - s) <= SNAP_TOLERANCE for s in snaps)

    # Programmatic scrolls.
    for target in _targets(dict(orthogonal, snapOffsets=[sign * o for o in snaps])):
        target *= sign
        page.evaluate(_SCROLL_TO_JS, [sid, target])
        final = evaluate_with_frames(page, _SETTLE_JS, sid)
        if snaps:
            nearest = min(snaps, key=lambda s: abs(s - final))
            check.largest_snap = max(check.largest_snap, abs(final - nearest))
            if not near_snap(final):
                check.mismatches.append(f"{sid}: scrollTo({target}) rests at {final}, not a snap offset {snaps}")
        elif abs(final - target) > SNAP_TOLERANCE:
            check.mismatches.append(f"{sid} ({behavior}): scrollTo({target}) moved on to {final}")

    # Keyboard scrolls from the focused scroller or card link.
    focused = page.evaluate(_FOCUS_JS, sid)
    if focused is None:
        check.mismatches.append(f"{sid}: neither the scroller nor a card link in it can take focus")
        return
    if not snaps:
        page.keyboard.press(forward)
        after = sign * evaluate_with_frames(page, _SETTLE_JS, sid)
        if not 0 < after <= max_offset + SNAP_TOLERANCE:
            check.mismatches.append(f"{sid} ({behavior}): ArrowRight from 0 ({focused}) rests at {after}")
        return
    position = 0
    for _ in range(min(2, len(snaps) - 1)):
        page.keyboard.press(forward)
        after = evaluate_with_frames(page, _SETTLE_JS, sid)
        expected = snaps[position + 1]
        check.largest_snap = max(check.largest_snap, abs(after - expected))
        if abs(after - expected) > SNAP_TOLERANCE:
            check.mismatches.append(
                f"{sid} ({behavior}): ArrowRight ({focused}) from {snaps[position]} rests at {after}, not {expected}")
            return
        position += 1
    page.keyboard.press(back)
    after = evaluate_with_frames(page, _SETTLE_JS, sid)
    if abs(after - snaps[position - 1]) > SNAP_TOLERANCE:
        check.mismatches.append(
            f"{sid} ({behavior}): ArrowLeft ({focused}) from {snaps[position]} rests at {after}, not {snaps[position - 1]}")


@pytest.mark.parametrize("case,width", [pytest.param(c, w, id=f"{c}-{w}") for c in CASES for w in WIDTHS])
def test_layout_case(case_sites, page, feedgen, tmp_path, case, width):
    public, diagnostics, status = case_sites[case]
    expected_file = CASES_DIR / case / "expected-warnings.txt"
    expected = expected_file.read_text().splitlines() if expected_file.is_file() else []
    assert status == 0 and diagnostics == expected, (
        f"building {case}: exit status {status}, diagnostics:\n" + "\n".join(diagnostics)
        + "\nexpected:\n" + "\n".join(expected))

    page.problems.clear()
    page.set_viewport_size({"width": width, "height": VIEWPORT_HEIGHT})
    page.goto(page_url(public / "index.html"), wait_until="load")
    seen = page.evaluate(_READ_JS)
    assert seen is not None, f"{case}: no .cl-sections element"

    measured = {
        "items": {i: {"width": b["width"], "height": b["height"]} for i, b in seen["items"].items()},
        "headers": {s: v["header"]["height"] for s, v in seen["sections"].items() if v["header"]},
        "footers": {s: v["footer"]["height"] for s, v in seen["sections"].items() if v["footer"]},
    }
    measured_file = tmp_path / "measured.json"
    measured_file.write_text(json.dumps(measured))
    model = _model(feedgen, CASES_DIR / case, width, measured_file)

    check = Comparison()
    check.value(".cl-sections width", width, seen["width"])
    model_ids = set()
    for section in model["sections"]:
        sid = section["id"]
        box = seen["sections"].get(sid)
        if box is None:
            check.mismatches.append(f"section {sid}: in the model, not on the page")
            continue
        check.rect(f"section {sid}", section["frame"], box["frame"])
        check.rect(f"section {sid} header", section["header"], box["header"])
        check.rect(f"section {sid} footer", section["footer"], box["footer"])
        check.rect(f"section {sid} background", section["background"], box["background"])
        for item in section["items"]:
            model_ids.add(item["id"])
            check.rect(item["id"], item["frame"], seen["items"].get(item["id"]))
        orthogonal = section["orthogonal"]
        if orthogonal is None:
            if box["scroller"] is not None:
                check.mismatches.append(f"section {sid}: scrolls sideways on the page, not in the model")
            continue
        scroller = box["scroller"]
        if scroller is None:
            check.mismatches.append(f"section {sid}: orthogonal in the model, no horizontal scroller on the page")
            continue
        check.rect(f"section {sid} scroller", orthogonal["scroller"], scroller["frame"])
        check.value(f"section {sid} scroller content extent", orthogonal["contentWidth"], scroller["contentExtent"])
        # scrollWidth is a whole number of px: compared within 1 px, not counted as a deviation.
        check.value(f"section {sid} scrollWidth", max(orthogonal["contentWidth"], scroller["clientWidth"]),
                    scroller["scrollWidth"], tolerance=1.0, tracked=False)
    for extra in sorted(set(seen["items"]) - model_ids):
        check.mismatches.append(f"{extra}: on the page, not in the model")

    if not check.mismatches:
        for section in model["sections"]:
            if section["orthogonal"] is not None:
                _check_scrolling(page, section["id"], section["orthogonal"],
                                 seen["sections"][section["id"]]["scroller"], check,
                                 rtl=section.get("direction") == "rtl")

    _DEVIATIONS[f"{case}-{width}"] = {"boxes": check.largest, "snaps": check.largest_snap}
    check.mismatches.extend(page.problems)
    assert not check.mismatches, (
        f"{case} at {width} px: {len(check.mismatches)} mismatch(es)\n" + "\n".join(check.mismatches))
