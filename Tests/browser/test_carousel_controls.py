"""Previous/Next buttons of sideways-scrolling sections and the hero's WAI-ARIA carousel pattern
(issue 8 §1; web-output §1.4, §2 A5/A12).

Sites: the sample (its `picks` shelf scrolls freely, `continuous`; its `hero` has one slide, so
nothing to scroll) and two copies of it: one whose hero has three slides (`groupPagingCentered`,
the APG carousel), one whose `picks` section is Arabic (`dir="rtl"`).

Where the buttons must land comes from `feedgen layout --json`: a `continuous` shelf moves by
the whole groups that fit in its content box (`n` group pitches), snapping behaviours rest on
the model's next snap offset. Chromium keeps scroll offsets on whole device pixels, so offsets
are compared within a pixel."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

from browser_support import evaluate_with_frames, page_url

SCROLL_TOLERANCE = 1.0  # CSS px


def _copy_sample(repo_root: Path, root: Path) -> Path:
    shutil.copytree(repo_root / "content", root / "content")
    shutil.copy(repo_root / "feedgen.yaml", root / "feedgen.yaml")
    return root


def _build(feedgen: Path, root: Path) -> Path:
    out = root / "public"
    r = subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


@pytest.fixture(scope="module")
def slides_root(feedgen, repo_root, tmp_path_factory) -> Path:
    """The sample, whose recipes feed has a hero of three slides."""
    root = _copy_sample(repo_root, tmp_path_factory.mktemp("slides"))
    _build(feedgen, root)
    return root


@pytest.fixture(scope="module")
def rtl_root(feedgen, repo_root, tmp_path_factory) -> Path:
    """The sample with its `picks` shelf in Arabic (so `dir="rtl"` on that section)."""
    root = _copy_sample(repo_root, tmp_path_factory.mktemp("rtl"))
    path = root / "content/picks/_section.md"
    path.write_text(path.read_text(encoding="utf-8").replace("layout: carousel\n", "layout: carousel\nlang: ar\n"),
                    encoding="utf-8")
    _build(feedgen, root)
    return root


def _model(feedgen: Path, root: Path, feed: str, width: float, section: str) -> dict:
    r = subprocess.run([str(feedgen), "layout", str(root), "--width", str(width), "--feed", feed, "--json"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return next(s for s in json.loads(r.stdout)["sections"] if s["id"] == section)


def _continuous_page(section: dict) -> float:
    """How far one press moves a free-scrolling shelf: the whole groups that fit in the scroller's
    content box (width minus the leading and trailing insets), at least one."""
    o, groups = section["orthogonal"], section["groups"]
    if section.get("direction") == "rtl":  # mirrored frames (docs/layout-json.md): back to start-relative
        w = o["scroller"]["width"]
        groups = [dict(g, x=w - g["x"] - g["width"]) for g in groups]
    lead = groups[0]["x"] - o["scroller"]["x"]
    last = groups[-1]
    trail = o["contentWidth"] - (last["x"] - o["scroller"]["x"] + last["width"])
    inner = o["scroller"]["width"] - lead - trail
    pitch = groups[1]["x"] - groups[0]["x"]
    return max(1, math.floor((inner + pitch - groups[0]["width"]) / pitch)) * pitch


def _open(browser, path: Path, width: int, **options):
    context = browser.new_context(viewport={"width": width, "height": 844}, **options)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(page_url(path), wait_until="load")
    return context, page, problems


def _ax_buttons(page) -> list[str]:
    """Names of the buttons in Chromium's accessibility tree (ignored nodes left out)."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    return sorted(
        n.get("name", {}).get("value", "")
        for n in nodes
        if not n.get("ignored") and n.get("role", {}).get("value") == "button"
    )


_STATE_JS = """
(id) => {
  const s = document.getElementById(id);
  const box = document.querySelector(`[data-controls]:has([aria-controls="${id}"])`);
  const [prev, next] = box.querySelectorAll('button');
  return {x: s.scrollLeft, max: s.scrollWidth - s.clientWidth, width: s.clientWidth, hidden: box.hidden,
          visible: box.checkVisibility(), prev: prev.getAttribute('aria-disabled'),
          next: next.getAttribute('aria-disabled'),
          focus: document.activeElement === prev ? 'prev' : document.activeElement === next ? 'next' : null};
}
"""

# Waits until a scroll that may start on the next frame has come to rest (6 frames unchanged).
_SETTLE_JS = """
async (id, frame) => {
  const s = document.getElementById(id);
  let last = s.scrollLeft, same = 0;
  while (same < 6) { await frame(1); if (s.scrollLeft === last) same++; else { same = 0; last = s.scrollLeft; } }
  return s.scrollLeft;
}
"""


def _press(page, scroller: str, step: int) -> dict:
    """Clicks Previous (-1) or Next (1) of `scroller` the way a pointer does and waits for rest."""
    page.locator(f'[aria-controls="{scroller}"][data-step="{step}"]').click()
    evaluate_with_frames(page, _SETTLE_JS, scroller)
    return page.evaluate(_STATE_JS, scroller)


# ---------------------------------------------------------------------------------------------
# Without JavaScript


@pytest.mark.parametrize("rel", ["index.html", "recipes/index.html"])
def test_without_javascript_no_button_is_shown_or_exposed(browser, site, rel):
    context, page, problems = _open(browser, site / rel, 390, java_script_enabled=False)
    try:
        controls = page.locator("[data-controls]")
        assert controls.count() == 1
        assert controls.get_attribute("hidden") == ""
        assert not controls.is_visible()
        assert page.locator(".cl-control").count() == 2
        assert all(not b.is_visible() for b in page.locator(".cl-control").all())
        assert _ax_buttons(page) == []
        # Tab never reaches them.
        for _ in range(40):
            page.keyboard.press("Tab")
            assert page.evaluate("() => !document.activeElement.closest('[data-controls]')")
        assert problems == []
    finally:
        context.close()


def test_revealing_the_buttons_moves_nothing(browser, site):
    """The buttons sit over space the title row keeps free: header and shelf boxes are the same
    with and without JavaScript."""
    js = "() => ['.cl-header', '.cl-header h2', '[data-scroller]'].map(q => { const r = document.querySelector(`[data-section-id=picks] ${q}`).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })"
    boxes = {}
    for enabled in (False, True):
        context, page, _ = _open(browser, site / "index.html", 390, java_script_enabled=enabled)
        try:
            boxes[enabled] = page.evaluate(js)
            assert page.locator("[data-section-id=picks] [data-controls]").is_visible() == enabled
        finally:
            context.close()
    assert boxes[True] == boxes[False]


# ---------------------------------------------------------------------------------------------
# With JavaScript: shown only where there is something to scroll


def test_buttons_appear_only_when_the_section_overflows(browser, site, feedgen, repo_root, tmp_path):
    context, page, problems = _open(browser, site / "index.html", 390)
    try:
        state = page.evaluate(_STATE_JS, "scroller-picks")
        assert state["visible"] and not state["hidden"] and state["max"] > 0
        assert state["prev"] == "true" and state["next"] == "false"
        assert _ax_buttons(page) == ["Next: Picks", "Previous: Picks"]
        assert problems == []
    finally:
        context.close()
    # Three picks (504 px) fit the readable column of a wide page (672 px; five do not, and
    # scroll there too): at 1280 px the buttons go away, and come back when it narrows
    # (ResizeObserver).
    root = _copy_sample(repo_root, tmp_path / "three")
    for extra in ("tea.md", "dinner.md"):
        (root / "content/picks" / extra).unlink()
    context, page, problems = _open(browser, _build(feedgen, root) / "index.html", 390)
    try:
        page.wait_for_function("() => !document.querySelector('[data-controls]').hidden")
        page.set_viewport_size({"width": 1280, "height": 844})
        page.wait_for_function("() => document.querySelector('[data-controls]').hidden")
        assert page.evaluate(_STATE_JS, "scroller-picks")["max"] <= 1
        assert _ax_buttons(page) == []
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("() => !document.querySelector('[data-controls]').hidden")
        assert problems == []
    finally:
        context.close()
    # A hero of one slide has nothing to scroll: no buttons.
    root = _copy_sample(repo_root, tmp_path / "one")
    for extra in ("soup-season.md", "slow-sunday.md"):
        (root / "content/recipes/featured" / extra).unlink()
    one = _build(feedgen, root)
    context, page, problems = _open(browser, one / "recipes/index.html", 390)
    try:
        state = page.evaluate(_STATE_JS, "scroller-featured")
        assert state["hidden"] and not state["visible"] and state["max"] <= 1
        assert _ax_buttons(page) == []
        assert problems == []
    finally:
        context.close()


def test_the_script_is_inline_classic_and_small(site):
    # Feed pages with a sideways scroller: the buttons' script and the gestures' script
    # (docs/layout.md: one page or group per wheel gesture).
    for rel, expected in [("index.html", 2), ("recipes/index.html", 2), ("today/morning.html", 0)]:
        html = (site / rel).read_text(encoding="utf-8")
        assert html.count("<script>") == expected, rel
        assert "type=\"module\"" not in html and "<script src" not in html
    html = (site / "index.html").read_text(encoding="utf-8")
    first = html.index("<script>")
    script = html[first:html.index("</script>") + len("</script>")]
    assert len(script.encode()) <= 1024, len(script.encode())
    second = html.index("<script>", first + 1)
    gestures = html[second:html.index("</script>", second) + len("</script>")]
    assert "feedgen sideways scrolling" in gestures and len(gestures.encode()) <= 2560, len(gestures.encode())


@pytest.mark.parametrize("width", [390, 768])
def test_next_and_previous_move_a_shelf_by_whole_cards(browser, feedgen, repo_root, site, width):
    context, page, problems = _open(browser, site / "index.html", width)
    try:
        start = page.evaluate(_STATE_JS, "scroller-picks")
        model = _model(feedgen, repo_root, "/", start["width"], "picks")
        assert model["orthogonal"]["behavior"] == "continuous"
        step = _continuous_page(model)
        end = model["orthogonal"]["maxOffset"]
        assert abs(start["max"] - end) <= SCROLL_TOLERANCE
        expected = []
        x = 0.0
        while x < end - SCROLL_TOLERANCE:
            x = min(x + step, end)
            expected.append(x)
        assert len(expected) >= 1
        for target in expected:
            state = _press(page, "scroller-picks", 1)
            assert abs(state["x"] - target) <= SCROLL_TOLERANCE, (state, target, step)
            assert state["prev"] == "false" and state["focus"] == "next"
        # At the end: Next is disabled (aria-disabled, so it keeps focus) and does nothing.
        assert state["next"] == "true" and state["focus"] == "next"
        page.locator('[aria-controls="scroller-picks"][data-step="1"]').dispatch_event("click")
        assert abs(evaluate_with_frames(page, _SETTLE_JS, "scroller-picks") - end) <= SCROLL_TOLERANCE
        # Back to the start, one page at a time.
        x = state["x"]
        while x > SCROLL_TOLERANCE:
            state = _press(page, "scroller-picks", -1)
            assert state["x"] < x - SCROLL_TOLERANCE
            assert abs(state["x"] - max(0.0, x - step)) <= SCROLL_TOLERANCE, (state, x, step)
            x = state["x"]
        assert state["prev"] == "true" and state["next"] == "false" and state["focus"] == "prev"
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_hero_slides_follow_the_apg_carousel_and_snap(browser, feedgen, slides_root, width):
    out = slides_root / "public"
    context, page, problems = _open(browser, out / "recipes/index.html", width)
    try:
        section = page.locator("[data-section-id=featured]")
        assert section.get_attribute("aria-roledescription") == "carousel"
        heading = section.locator("h2")
        assert section.get_attribute("aria-labelledby") == heading.get_attribute("id")
        assert "carousel" not in heading.inner_text().lower()
        slides = section.locator("[aria-roledescription=slide]")
        assert slides.count() == 3
        for i, slide in enumerate(slides.all()):
            assert slide.get_attribute("role") == "group"
            assert slide.get_attribute("aria-label") == f"{i + 1} of 3"
        scroller = page.locator("#scroller-featured")
        assert scroller.get_attribute("role") is None and scroller.get_attribute("aria-live") == "polite"
        assert _ax_buttons(page) == ["Next slide: Today's pick", "Previous slide: Today's pick"]

        start = page.evaluate(_STATE_JS, "scroller-featured")
        model = _model(feedgen, slides_root, "recipes", start["width"], "featured")
        snaps = model["orthogonal"]["snapOffsets"]
        assert model["orthogonal"]["behavior"] == "groupPagingCentered" and len(snaps) == 3
        assert abs(start["x"] - snaps[0]) <= SCROLL_TOLERANCE and start["prev"] == "true"
        for target in snaps[1:]:
            state = _press(page, "scroller-featured", 1)
            assert abs(state["x"] - target) <= SCROLL_TOLERANCE, (state, snaps)
        assert state["next"] == "true" and state["prev"] == "false" and state["focus"] == "next"
        for target in snaps[:-1][::-1]:
            state = _press(page, "scroller-featured", -1)
            assert abs(state["x"] - target) <= SCROLL_TOLERANCE, (state, snaps)
        assert state["prev"] == "true" and state["next"] == "false"
        assert problems == []
    finally:
        context.close()


@pytest.fixture(scope="module")
def behaviours_root(feedgen, tmp_path_factory) -> Path:
    """One shelf per snapping behaviour, eight 160 px cards each."""
    root = tmp_path_factory.mktemp("behaviours")
    (root / "feedgen.yaml").write_text("title: Shelves\n", encoding="utf-8")
    names = ["continuousGroupLeadingBoundary", "paging", "groupPaging"]
    (root / "content").mkdir()
    (root / "content/_feed.md").write_text(f"---\ntitle: Shelves\nsections: [{', '.join(names)}]\n---\n",
                                           encoding="utf-8")
    for name in names:
        folder = root / "content" / name
        folder.mkdir()
        (folder / "_section.md").write_text(
            f"---\ntitle: {name}\nlayout:\n  preset: carousel\n  orthogonalScrollingBehavior: {name}\n---\n",
            encoding="utf-8")
        for i in range(1, 9):
            (folder / f"card{i}.md").write_text(f"---\ntitle: Card {i}\nweight: {i}\n---\nText {i}.\n",
                                                encoding="utf-8")
    _build(feedgen, root)
    return root


@pytest.mark.parametrize("behaviour", ["continuousGroupLeadingBoundary", "paging", "groupPaging"])
@pytest.mark.parametrize("width", [390, 768])
def test_snapping_shelves_rest_on_the_models_snap_offsets(browser, feedgen, behaviours_root, behaviour, width):
    """Leading-boundary shelves move by the groups that fit and rest on that group's edge;
    paging and groupPaging stop at every snap offset, so each press is the next one."""
    context, page, problems = _open(browser, behaviours_root / "public/index.html", width)
    scroller = f"scroller-{behaviour}"
    try:
        start = page.evaluate(_STATE_JS, scroller)
        model = _model(feedgen, behaviours_root, "/", start["width"], behaviour)
        snaps = model["orthogonal"]["snapOffsets"]
        assert model["orthogonal"]["behavior"] == behaviour and len(snaps) >= 2
        lead = behaviour == "continuousGroupLeadingBoundary"
        step = _continuous_page(model)

        def target(x: float, direction: int) -> float:
            if lead:  # the snap offset nearest to where the whole groups end
                return min(snaps, key=lambda o: abs(o - min(max(x + direction * step, 0.0), snaps[-1])))
            i = min(range(len(snaps)), key=lambda k: abs(snaps[k] - x))
            return snaps[i + direction]

        x = 0.0
        while x < snaps[-1] - SCROLL_TOLERANCE:
            x = target(x, 1)
            state = _press(page, scroller, 1)
            assert abs(state["x"] - x) <= SCROLL_TOLERANCE, (state, x, snaps)
        assert state["next"] == "true" and state["prev"] == "false"
        while x > SCROLL_TOLERANCE:
            x = target(x, -1)
            state = _press(page, scroller, -1)
            assert abs(state["x"] - x) <= SCROLL_TOLERANCE, (state, x, snaps)
        assert state["prev"] == "true" and state["next"] == "false"
        assert problems == []
    finally:
        context.close()


# Clicks a button from script and reads scrollLeft in the same task: an instant scroll has
# already moved, a smooth one has not started.
_CLICK_NOW_JS = """
(id) => {
  document.querySelector(`[aria-controls="${id}"][data-step="1"]`).click();
  return document.getElementById(id).scrollLeft;
}
"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_scrolls_instantly(browser, feedgen, slides_root, motion):
    out = slides_root / "public"
    context, page, problems = _open(browser, out / "recipes/index.html", 390, reduced_motion=motion)
    try:
        width = page.evaluate(_STATE_JS, "scroller-featured")["width"]
        snaps = _model(feedgen, slides_root, "recipes", width, "featured")["orthogonal"]["snapOffsets"]
        now = page.evaluate(_CLICK_NOW_JS, "scroller-featured")
        if motion == "reduce":
            assert abs(now - snaps[1]) <= SCROLL_TOLERANCE, (now, snaps)
        else:
            assert now == snaps[0], "a smooth scroll should still be at its start in the same task"
        assert abs(evaluate_with_frames(page, _SETTLE_JS, "scroller-featured") - snaps[1]) <= SCROLL_TOLERANCE
        assert problems == []
    finally:
        context.close()


def test_rtl_mirrors_the_buttons_and_their_direction(browser, feedgen, rtl_root):
    out = rtl_root / "public"
    context, page, problems = _open(browser, out / "index.html", 390)
    try:
        section = page.locator("[data-section-id=picks]")
        assert section.get_attribute("dir") == "rtl"
        start = page.evaluate(_STATE_JS, "scroller-picks")
        assert start["visible"] and start["prev"] == "true"
        prev, nxt = (page.locator(f'[aria-controls="scroller-picks"][data-step="{s}"]') for s in (-1, 1))
        # The buttons sit at the inline end (left) with Previous first (right), and the arrows
        # point the other way: Next points left, towards the inline end.
        prev_box, next_box, heading_box = prev.bounding_box(), nxt.bounding_box(), section.locator("h2").bounding_box()
        assert next_box["x"] < prev_box["x"]
        assert abs(next_box["x"] - heading_box["x"]) <= 0.5
        for button in (prev, nxt):
            assert button.locator("svg").evaluate("s => getComputedStyle(s).transform") == "matrix(-1, 0, 0, 1, 0, 0)"
        model = _model(feedgen, rtl_root, "/", start["width"], "picks")
        step = _continuous_page(model)
        # Next moves towards the inline end: left, so scrollLeft goes negative (CSSOM View).
        state = _press(page, "scroller-picks", 1)
        assert abs(state["x"] - (-step)) <= SCROLL_TOLERANCE, (state, step)
        assert state["prev"] == "false"
        first = page.locator("[data-item-id='picks/stretch']").bounding_box()
        assert first["x"] > 390, "the first card should have moved off to the right"
        state = _press(page, "scroller-picks", -1)
        assert abs(state["x"]) <= SCROLL_TOLERANCE and state["prev"] == "true"
        # Scroll to the end: Next disabled.
        while state["next"] == "false":
            state = _press(page, "scroller-picks", 1)
        assert abs(state["x"] + model["orthogonal"]["maxOffset"]) <= SCROLL_TOLERANCE
        assert problems == []
    finally:
        context.close()


def test_ltr_buttons_are_not_mirrored(browser, site):
    context, page, _ = _open(browser, site / "index.html", 390)
    try:
        prev, nxt = (page.locator(f'[aria-controls="scroller-picks"][data-step="{s}"]') for s in (-1, 1))
        assert nxt.bounding_box()["x"] > prev.bounding_box()["x"]
        assert nxt.locator("svg").evaluate("s => getComputedStyle(s).transform") == "none"
    finally:
        context.close()


def test_keyboard_reaches_and_operates_the_buttons(browser, feedgen, repo_root, site):
    context, page, problems = _open(browser, site / "index.html", 390)
    try:
        width = page.evaluate(_STATE_JS, "scroller-picks")["width"]
        step = _continuous_page(_model(feedgen, repo_root, "/", width, "picks"))
        order = []
        for _ in range(60):
            page.keyboard.press("Tab")
            where = page.evaluate(
                "() => { const e = document.activeElement; return e.matches('.cl-control') ? 'button' + e.dataset.step"
                " : e.closest('[data-section-id=picks] [data-item-id]') ? 'card' : 'other'; }")
            order.append(where)
            if where == "button1":
                break
        # Previous, then Next, both before the shelf's first card (controls precede content);
        # Previous is aria-disabled but stays focusable.
        assert order[-2:] == ["button-1", "button1"] and "card" not in order, order
        outline = page.evaluate("() => parseFloat(getComputedStyle(document.activeElement).outlineWidth)")
        assert outline >= 2, "the focused button shows a focus ring"
        page.keyboard.press("Enter")
        assert abs(evaluate_with_frames(page, _SETTLE_JS, "scroller-picks") - step) <= SCROLL_TOLERANCE
        page.keyboard.press("Space")
        state = page.evaluate(_STATE_JS, "scroller-picks")
        x = evaluate_with_frames(page, _SETTLE_JS, "scroller-picks")
        assert abs(x - min(2 * step, state["max"])) <= SCROLL_TOLERANCE
        assert page.evaluate(_STATE_JS, "scroller-picks")["focus"] == "next"
        # Shift+Tab to Previous, now enabled; Enter goes back one page.
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(_STATE_JS, "scroller-picks")["focus"] == "prev"
        page.keyboard.press("Enter")
        assert abs(evaluate_with_frames(page, _SETTLE_JS, "scroller-picks") - max(0.0, x - step)) <= SCROLL_TOLERANCE
        assert problems == []
    finally:
        context.close()


def test_no_auto_advance(browser, slides_root):
    """Nothing moves by itself: after 3 s the hero and the shelf are where they started."""
    context, page, _ = _open(browser, slides_root / "public/recipes/index.html", 390)
    try:
        page.wait_for_timeout(3000)
        assert page.evaluate("() => document.getElementById('scroller-featured').scrollLeft") == 0
    finally:
        context.close()


@pytest.mark.parametrize("fixture, rel", [("slides_root", "recipes/index.html"), ("rtl_root", "index.html"),
                                          ("behaviours_root", "index.html")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_with_the_buttons_shown(browser, request, fixture, rel, scheme):
    """test_accessibility runs axe on the sample; these pages add a three-slide hero, an RTL shelf
    and the snapping shelves, all with their buttons shown (one pressed, so both are enabled)."""
    from axe_playwright_python.sync_playwright import Axe

    root = request.getfixturevalue(fixture)
    context, page, _ = _open(browser, root / "public" / rel, 390, color_scheme=scheme)
    try:
        box = page.locator("[data-controls]").first
        assert box.is_visible()
        box.locator('[data-step="1"]').click()
        evaluate_with_frames(page, _SETTLE_JS, box.locator("button").first.get_attribute("aria-controls"))
        violations = Axe().run(page, options={"resultTypes": ["violations"]}).response["violations"]
        assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in violations]
    finally:
        context.close()
