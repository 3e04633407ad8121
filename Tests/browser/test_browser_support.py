"""The frame waits of browser_support.evaluate_with_frames: a page that stops producing
animation frames raises BrowserStall within the set time instead of hanging the test
(scripts/test reruns such a test); a script that never finishes on a live page raises
ScriptTimeout, which is not rerun (a bug of the page or the test, not a stall)."""

from __future__ import annotations

import time

import pytest

from browser_support import BrowserStall, ScriptTimeout, evaluate_with_frames

_COUNT_FRAMES = "async (n, frame) => { for (let i = 0; i < n; i++) await frame(); return n * 2; }"


@pytest.fixture
def page(browser, tmp_path):
    html = tmp_path / "p.html"
    html.write_text("<!doctype html><title>t</title><p>frames</p>", encoding="utf-8")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(html.as_uri(), wait_until="load")
    yield page
    context.close()


def test_returns_the_value_after_the_frames(page):
    assert evaluate_with_frames(page, _COUNT_FRAMES, 5) == 10


def test_a_page_without_animation_frames_raises_browser_stall(page):
    page.evaluate("() => { window.requestAnimationFrame = () => 0; }")
    start = time.monotonic()
    with pytest.raises(BrowserStall, match="no animation frame within 500 ms"):
        evaluate_with_frames(page, _COUNT_FRAMES, 5, frame_timeout_ms=500)
    assert time.monotonic() - start < 5


def test_a_script_that_never_finishes_is_no_stall(page):
    start = time.monotonic()
    with pytest.raises(ScriptTimeout, match="did not finish its script within 2000 ms") as raised:
        evaluate_with_frames(page, "async (_, frame) => { await frame(); await new Promise(() => {}); }",
                             timeout_ms=2000)
    assert time.monotonic() - start < 10
    assert not isinstance(raised.value, BrowserStall)


def test_other_script_errors_are_not_stalls(page):
    with pytest.raises(RuntimeError, match="page script failed: TypeError") as raised:
        evaluate_with_frames(page, "async (_, frame) => { await frame(); return null.x; }")
    assert not isinstance(raised.value, BrowserStall)
