"""`feedgen build --previews` (issue 8 item 5): `_previews/index.html` opened over file://.

Every section of every feed must have a frame at 320, 390, 768 and 1280 px in light and dark,
labelled; each frame's document must load and have exactly the nominal viewport width; the cards
in each light frame must be where the layout model puts them at that width (the frame's measured
sizes fed back to `feedgen layout --measured`, as in test_model_agreement), and the dark frame must
have the same boxes on a dark background; no console errors; axe finds nothing on the index and,
injected into every frame, nothing inside the frames either (contrast of the forced dark scheme).
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from browser_support import close, failed_request, page_url

WIDTHS = [320, 390, 768, 1280]
SCHEMES = ["light", "dark"]
FEEDS = {"/": "", "recipes": "recipes/"}  # feed → its folder below _previews/

_axe = Axe()


@pytest.fixture(scope="module")
def previews(feedgen: Path, repo_root: Path, tmp_path_factory) -> Path:
    public = tmp_path_factory.mktemp("previews") / "public"
    result = subprocess.run(
        [str(feedgen), "build", str(repo_root), "--output", str(public), "--previews"],
        cwd=repo_root, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "; previews: " in result.stderr
    index = public / "_previews" / "index.html"
    assert index.is_file()
    return public


def _model(feedgen, repo_root, feed, width, viewport_height, measured_file=None):
    cmd = [str(feedgen), "layout", str(repo_root), "--width", str(width), "--feed", feed, "--json",
           "--viewport-height", str(viewport_height)]
    if measured_file:
        cmd += ["--measured", str(measured_file)]
    result = subprocess.run(cmd, cwd=repo_root, capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(cmd)}: {result.stderr}"
    return json.loads(result.stdout)


def _expected_frames(feedgen, repo_root) -> list[dict]:
    """Every section (from the model, in page order) × light/dark × 4 widths, as the index lists them."""
    frames = []
    for feed, folder in FEEDS.items():
        for section in _model(feedgen, repo_root, feed, 390, 844)["sections"]:
            for scheme in SCHEMES:
                for width in WIDTHS:
                    frames.append({
                        "feed": feed, "section": section["id"], "scheme": scheme, "width": width,
                        "src": f"{folder}{section['id']}.{scheme}.html", "caption": f"{width} px, {scheme}",
                    })
    return frames


_FRAMES_JS = """
() => [...document.querySelectorAll('figure.pv-frame')].map(f => {
  const i = f.querySelector('iframe');
  const r = i.getBoundingClientRect();
  return {caption: f.querySelector('figcaption').textContent, src: i.getAttribute('src'),
          width: +i.getAttribute('width'), height: +i.getAttribute('height'), title: i.title,
          clientWidth: i.clientWidth, clientHeight: i.clientHeight};
})
"""

# Inside a frame: viewport, background, the section's boxes (relative to .cl-sections, items in a
# scroller in scroller-content coordinates) and the header height.
_READ_FRAME_JS = """
async () => {
  await document.fonts.ready;
  for (const img of document.images) {  // lazy images below the frame's fold load when scrolled to
    img.scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
    if (!img.complete) await new Promise(r => { img.onload = img.onerror = r; setTimeout(r, 5000); });
  }
  window.scrollTo({left: 0, top: 0, behavior: 'instant'});
  for (const s of document.querySelectorAll('[data-scroller]')) s.scrollTo({left: 0, behavior: 'instant'});
  const sections = document.querySelector('.cl-sections');
  const s = sections.getBoundingClientRect();
  const items = {};
  for (const el of document.querySelectorAll('[data-item-id]')) {
    const r = el.getBoundingClientRect();
    const scroller = el.closest('[data-scroller]');
    const dx = scroller ? scroller.scrollLeft : 0;
    items[el.dataset.itemId] = {x: r.left + dx - s.left, y: r.top - s.top, width: r.width, height: r.height};
  }
  const header = document.querySelector('[data-section-id] > .cl-header');
  return {
    innerWidth: window.innerWidth, innerHeight: window.innerHeight,
    clientWidth: document.documentElement.clientWidth, sectionsWidth: s.width,
    colorScheme: document.documentElement.dataset.colorScheme,
    background: getComputedStyle(document.documentElement).backgroundColor,
    sectionIds: [...document.querySelectorAll('[data-section-id]')].map(e => e.dataset.sectionId),
    brokenImages: [...document.images].filter(i => !(i.naturalWidth > 0)).map(i => i.src),
    header: header ? header.getBoundingClientRect().height : null,
    sectionHeight: document.querySelector('[data-section-id]').getBoundingClientRect().height,
    scrollHeight: document.documentElement.scrollHeight,
    items,
  };
}
"""


def _luminance(css_color: str) -> float:
    """Relative luminance (WCAG) of an `rgb(r, g, b)` / `rgba(…)` computed colour."""
    parts = css_color[css_color.index("(") + 1 : css_color.index(")")].replace("/", ",").split(",")
    r, g, b = (float(p) / 255 for p in parts[:3])
    lin = lambda c: c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4  # noqa: E731
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def _open_index(browser, previews: Path, scheme: str = "light"):
    context = browser.new_context(viewport={"width": 1400, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: (p := failed_request(r)) and problems.append(p))
    page.goto(page_url(previews / "_previews" / "index.html"), wait_until="load")
    return page, problems


def _loaded_frame(page, iframe, src: str):
    """The iframe's frame once its document (lazy-loaded: scrolled into view first) has loaded."""
    iframe.scroll_into_view_if_needed()
    deadline = time.monotonic() + 15
    while True:
        frame = iframe.content_frame()
        if frame is not None and frame.url.endswith("/_previews/" + src):
            frame.wait_for_load_state("load")
            return frame
        assert time.monotonic() < deadline, f"frame {src} did not load (url {frame.url if frame else None})"
        page.wait_for_timeout(50)


def test_index_lists_every_frame(browser, previews, feedgen, repo_root):
    expected = _expected_frames(feedgen, repo_root)
    assert len(expected) == 7 * 8  # the sample's seven sections
    page, problems = _open_index(browser, previews)
    try:
        seen = page.evaluate(_FRAMES_JS)
        assert [(f["src"], f["caption"], f["width"]) for f in seen] == [
            (e["src"], e["caption"], e["width"]) for e in expected
        ]
        for f in seen:
            # The border is outside the frame: the frame's content box is the nominal width.
            assert f["clientWidth"] == f["width"] and f["clientHeight"] == f["height"], f
            assert f["title"].endswith(": " + f["caption"]), f
        assert len({f["title"] for f in seen}) == len(seen), "frame titles are not unique"
        assert not problems, problems
    finally:
        page.context.close()


def test_every_frame_loads_at_its_width_and_matches_the_model(browser, previews, feedgen, repo_root, tmp_path):
    expected = _expected_frames(feedgen, repo_root)
    page, problems = _open_index(browser, previews)
    mismatches: list[str] = []
    light_boxes: dict[tuple, dict] = {}
    try:
        iframes = page.query_selector_all("figure.pv-frame iframe")
        assert len(iframes) == len(expected)
        for n, (iframe, e) in enumerate(zip(iframes, expected)):
            where = f"{e['src']} at {e['width']} px"
            frame = _loaded_frame(page, iframe, e["src"])
            seen = frame.evaluate(_READ_FRAME_JS)
            # The index corrects the model's height with the frame's own measurement (a
            # message from the frame): wait for it, then read the viewport again.
            deadline = time.monotonic() + 5
            while (abs(int(iframe.get_attribute("height")) - seen["sectionHeight"]) > 1
                   and iframe.get_attribute("data-fit") is not None and time.monotonic() < deadline):
                page.wait_for_timeout(50)
            height = int(iframe.get_attribute("height"))
            seen.update(frame.evaluate("() => ({innerHeight, scrollHeight: document.documentElement.scrollHeight, "
                                       "sectionHeight: document.querySelector('[data-section-id]').getBoundingClientRect().height})"))
            if seen["innerWidth"] != e["width"] or seen["clientWidth"] != e["width"]:
                mismatches.append(f"{where}: viewport innerWidth {seen['innerWidth']}, clientWidth {seen['clientWidth']}")
            if not close(seen["sectionsWidth"], e["width"]):
                mismatches.append(f"{where}: .cl-sections is {seen['sectionsWidth']} px wide")
            if seen["innerHeight"] != height:
                mismatches.append(f"{where}: viewport height {seen['innerHeight']} vs frame height {height}")
            # Every frame shows its section whole (issue 21 item 5): as tall as the section.
            if abs(seen["sectionHeight"] - height) > 1 or seen["scrollHeight"] > height + 1:
                mismatches.append(f"{where}: section {seen['sectionHeight']:.2f} px tall (page {seen['scrollHeight']} px) "
                                  f"in a frame of {height} px")
            if seen["sectionIds"] != [e["section"]]:
                mismatches.append(f"{where}: sections {seen['sectionIds']}")
            if seen["colorScheme"] != e["scheme"]:
                mismatches.append(f"{where}: data-color-scheme {seen['colorScheme']!r}")
            if seen["brokenImages"]:
                mismatches.append(f"{where}: images did not load: {seen['brokenImages']}")
            lum = _luminance(seen["background"])
            if (e["scheme"] == "dark") != (lum < 0.05) or (e["scheme"] == "light" and lum < 0.8):
                mismatches.append(f"{where}: {e['scheme']} frame has background {seen['background']} (luminance {lum:.3f})")

            key = (e["src"].rsplit(".", 2)[0], e["width"])
            if e["scheme"] == "dark":
                if seen["items"] != light_boxes.get(key):
                    mismatches.append(f"{where}: dark boxes differ from the light frame's")
                continue
            light_boxes[key] = seen["items"]
            # The model, given this frame's measured sizes, must put every card where the browser did.
            measured = {
                "items": {i: {"width": b["width"], "height": b["height"]} for i, b in seen["items"].items()},
                "headers": {e["section"]: seen["header"]} if seen["header"] is not None else {},
            }
            measured_file = tmp_path / f"measured-{n}.json"
            measured_file.write_text(json.dumps(measured))
            model = _model(feedgen, repo_root, e["feed"], e["width"], height, measured_file)
            section = next(s for s in model["sections"] if s["id"] == e["section"])
            top = section["frame"]["y"]
            if not section["items"] or set(seen["items"]) != {i["id"] for i in section["items"]}:
                mismatches.append(f"{where}: items {sorted(seen['items'])} vs model {[i['id'] for i in section['items']]}")
                continue
            for item in section["items"]:
                box = seen["items"][item["id"]]
                m = dict(item["frame"], y=item["frame"]["y"] - top)
                for axis in ("x", "y", "width", "height"):
                    if not close(m[axis], box[axis]):
                        mismatches.append(f"{where}: {item['id']} {axis} model {m[axis]} vs browser {box[axis]:.3f}")
        mismatches.extend(problems)
        assert not mismatches, f"{len(mismatches)} problem(s):\n" + "\n".join(mismatches)
    finally:
        page.context.close()


def _describe(violations: list[dict]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(", ".join(map(str, n["target"])) for n in v["nodes"][:5])
        for v in violations
    )


@pytest.mark.parametrize("scheme", SCHEMES)
def test_axe_finds_nothing_on_the_index(browser, previews, scheme):
    """The index itself (frames titled, scrollers focusable, contrast) in the reader's scheme.
    axe does not descend into the frames here: their documents are audited one by one below
    (axe run across frames counts every frame's <main> as a duplicate landmark of the index's)."""
    page, problems = _open_index(browser, previews, scheme)
    try:
        page.evaluate(_axe.axe_script)
        result = page.evaluate("axe.run(document, {iframes: false, resultTypes: ['violations']})")
        assert not result["violations"], _describe(result["violations"])
        assert result["passes"] and any(r["id"] == "frame-title" for r in result["passes"])
        assert not problems, problems
    finally:
        page.context.close()


def test_axe_finds_nothing_in_the_frames(browser, previews, feedgen, repo_root):
    """Every section page, light and dark (the forced dark scheme's contrast), at the narrowest
    and widest width, as loaded in its frame. `page-has-heading-one` is off: a preview page is
    one section (its heading is an h2), not a page of the site. `preload: false`: axe's stylesheet
    preload is an XHR, which file:// refuses (web-output §2)."""
    expected = _expected_frames(feedgen, repo_root)
    page, problems = _open_index(browser, previews)
    failures = []
    try:
        iframes = page.query_selector_all("figure.pv-frame iframe")
        for iframe, e in zip(iframes, expected):
            if e["width"] not in (WIDTHS[0], WIDTHS[-1]):
                continue
            frame = _loaded_frame(page, iframe, e["src"])
            frame.evaluate(_axe.axe_script)
            result = frame.evaluate(
                "axe.run(document, {preload: false, resultTypes: ['violations'], rules: {'page-has-heading-one': {enabled: false}}})"
            )
            if result["violations"]:
                failures.append(f"{e['src']} at {e['width']} px:\n{_describe(result['violations'])}")
        assert not failures, "\n".join(failures)
        assert not problems, problems
    finally:
        page.context.close()


def test_watch_mode_reloads_the_previews(feedgen, browser, tmp_path):
    """`--watch --previews`: after a save, the open index reloads and its frames show the edit."""
    site = tmp_path / "site"
    for rel, text in {
        "content/news/_section.md": "---\ntitle: News\nlayout: list\n---\n",
        "content/news/first.md": "---\ntitle: Before the edit\n---\nBody.\n",
    }.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text, encoding="utf-8")
    out = tmp_path / "public"
    proc = subprocess.Popen(
        [str(feedgen), "build", str(site), "--output", str(out), "--watch", "--previews"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not (out / "_feedgen" / "build-id.js").exists():
            assert time.monotonic() < deadline, "watch mode wrote nothing"
            time.sleep(0.05)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(page_url(out / "_previews" / "index.html"), wait_until="load")
        title = "[data-item-id='news/first'] h3"
        frame = _loaded_frame(page, page.query_selector("iframe"), "news.light.html")
        assert frame.inner_text(title) == "Before the edit"
        time.sleep(0.3)
        (site / "content/news/first.md").write_text("---\ntitle: After the edit\n---\nBody.\n", encoding="utf-8")
        page.wait_for_event("load", timeout=5000)  # the index reloads itself
        frame = _loaded_frame(page, page.query_selector("iframe"), "news.light.html")
        assert frame.inner_text(title) == "After the edit"
        assert len(page.query_selector_all("iframe")) == 8
        page.close()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "news/first.md changed; rebuilt in" in err
