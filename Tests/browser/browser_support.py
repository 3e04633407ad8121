"""Helpers shared by the browser tests: opening pages with problem listeners, images, links, sites
built once per run."""

from __future__ import annotations

import fcntl
import json
import os
import shutil

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urldefrag, urlparse

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

TOLERANCE = 0.5  # CSS px

FONTS_CONF = Path(__file__).resolve().with_name("fonts.conf")


def chromium_env() -> dict[str, str]:
    """The environment every Chromium of the tests and of scripts/screenshots is launched with
    (Playwright's `launch(env=...)`): this process's, with FONTCONFIG_FILE naming fonts.conf,
    which sets the theme's system-ui / sans-serif stack in Noto Sans (CJK: Noto Sans CJK JP)
    whatever the machine prefers, so measured heights and screenshots do not depend on it."""
    return {**os.environ, "FONTCONFIG_FILE": str(FONTS_CONF)}


def shared_folder(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder that `make(folder)` fills once per pytest run, however many modules and
    pytest-xdist workers ask for it: the workers' temporary folders share a parent, where the
    first one to ask makes it (under a file lock) and the others wait for it and reuse it. Sites
    that several modules build (the sample, the 2,000-card feed, the corpora) are built once."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / f"shared-{name}"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / f"shared-{name}.done"
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@dataclass
class OpenedPage:
    page: object  # playwright.sync_api.Page
    problems: list[str] = field(default_factory=list)


def failed_request(request) -> str | None:
    """The problem a `requestfailed` event reports, or None when Chromium cancelled the load of a
    file that exists (`net::ERR_ABORTED`: a frame resized or a srcset candidate superseded while
    the load was under way). A missing file is `net::ERR_FILE_NOT_FOUND`, still reported, and an
    image that never loaded is caught by the tests that read `img.complete`/`naturalWidth`."""
    url = request.url
    if request.failure == "net::ERR_ABORTED" and url.startswith("file://"):
        if Path(unquote(urlparse(url).path)).is_file():
            return None
    return f"request failed: {url} ({request.failure})"


def open_page(browser, url: str, width: int, height: int = 844) -> OpenedPage:
    """A fresh context and page at the given viewport, recording console errors, uncaught
    exceptions and failed requests into `problems`, then navigated to `url`."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    opened = OpenedPage(page)
    page.on(
        "console",
        lambda m: opened.problems.append(f"console error: {m.text} ({m.location.get('url', '')})")
        if m.type == "error"
        else None,
    )
    page.on("pageerror", lambda e: opened.problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: (p := failed_request(r)) and opened.problems.append(p))
    page.goto(url, wait_until="load")
    return opened


def close_page(opened: OpenedPage) -> None:
    opened.page.context.close()


# Scrolls every <img> into view (so lazy images load), waits for each to finish loading or
# fail, and returns the ones that did not decode (naturalWidth 0).
_LOAD_IMAGES_JS = """
async () => {
  const settle = (img) => new Promise((resolve) => {
    if (img.complete) return resolve();
    const done = () => resolve();
    img.addEventListener('load', done, {once: true});
    img.addEventListener('error', done, {once: true});
    setTimeout(done, 5000);
  });
  const broken = [];
  for (const img of document.querySelectorAll('img')) {
    img.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    await settle(img);
    if (!(img.naturalWidth > 0)) broken.push(img.currentSrc || img.src || img.outerHTML);
  }
  window.scrollTo({left: 0, top: 0, behavior: 'instant'});
  for (const s of document.querySelectorAll('[data-scroller]')) s.scrollTo({left: 0, behavior: 'instant'});
  return broken;
}
"""


def broken_images(page) -> list[str]:
    return page.evaluate(_LOAD_IMAGES_JS)


def links(page, selector: str = "a[href]") -> list[str]:
    """Absolute hrefs (resolved against the page URL by the browser) of the matching links."""
    return page.eval_on_selector_all(selector, "els => els.map(a => a.href)")


def file_path(url: str) -> Path | None:
    """The file a file:// URL names (fragment and query dropped); None for other schemes."""
    url, _ = urldefrag(url)
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def page_url(path: Path) -> str:
    return path.resolve().as_uri()


def close(a: float, b: float, tol: float = TOLERANCE) -> bool:
    return abs(a - b) <= tol


class BrowserStall(RuntimeError):
    """Chromium stopped producing animation frames in the middle of a measurement. Headless
    Chromium on this machine occasionally stops running requestAnimationFrame callbacks
    mid-scroll on a long page, while its timers still run; nothing the page does brings the
    frames back. A stalled run measures nothing: scripts/test reruns the whole test on a fresh
    page (pytest-rerunfailures, `--only-rerun BrowserStall`), so a test never counts a stalled
    run."""


class ScriptTimeout(RuntimeError):
    """A measuring script did not finish in its time while the page still produced frames: a
    bug in the page or the test, not a stall, so it fails the test without a rerun."""


_STALL_MARKER = "feedgen-test: no animation frame"

# Starts `run(arg, frame)` without awaiting it; its outcome lands in window.__feedgenRun.
# frame(n = 2) resolves after n animation frames, or rejects when they do not come in time.
_START_JS = """
async ([arg, frameTimeoutMs]) => {
  const frame = (n = 2) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(__MARKER__ + ' within ' + frameTimeoutMs + ' ms')), frameTimeoutMs);
    const step = (k) => requestAnimationFrame(() => { if (k > 1) return step(k - 1); clearTimeout(timer); resolve(); });
    step(n);
  });
  const run = (__FUNCTION__);
  const slot = window.__feedgenRun = {done: false};
  Promise.resolve().then(() => run(arg, frame)).then(
    (value) => Object.assign(slot, {done: true, value}),
    (error) => Object.assign(slot, {done: true, error: String((error && error.stack) || error)}));
}
"""


def evaluate_with_frames(page, function: str, arg=None, *, frame_timeout_ms: int = 10_000,
                         timeout_ms: int = 300_000):
    """Runs `function`, the source of a JavaScript function `async (arg, frame) => value`, in
    `page` and returns its value (as `page.evaluate` would). `frame(n = 2)` resolves after `n`
    animation frames and rejects when they have not come within `frame_timeout_ms`.

    The run is started by one evaluate and awaited by polling on a timer every 100 ms, not on
    animation frames, so a page that stops producing frames raises `BrowserStall` after
    `frame_timeout_ms` (rerun), and a script that never finishes otherwise raises `ScriptTimeout`
    after `timeout_ms` (not rerun), instead of blocking until pytest-timeout ends the whole test. (A renderer whose main thread hangs answers
    nothing, not even the poll: pytest-timeout is the only guard there.) Any other error in the
    script is raised as a RuntimeError with the script's stack."""
    script = _START_JS.replace("__MARKER__", json.dumps(_STALL_MARKER)).replace("__FUNCTION__", function)
    page.evaluate(script, [arg, frame_timeout_ms])
    try:
        page.wait_for_function("() => window.__feedgenRun && window.__feedgenRun.done", polling=100,
                               timeout=timeout_ms)
    except PlaywrightTimeoutError as error:
        raise ScriptTimeout(f"the page did not finish its script within {timeout_ms} ms: {error}") from None
    outcome = page.evaluate("() => window.__feedgenRun")
    if "error" in outcome:
        if _STALL_MARKER in outcome["error"]:
            raise BrowserStall(outcome["error"].splitlines()[0])
        raise RuntimeError(f"page script failed: {outcome['error']}")
    return outcome.get("value")


def candidate_problem(current_src: str, candidates: list[dict], drawn: float, ratio: float) -> str | None:
    """Why the image candidate the browser loaded (`currentSrc`) is not a fitting one, or None:
    it must be one of `candidates` (`{"url", "w"}` from a `srcset`) at least as wide as the
    drawn width (CSS px) × the device pixel ratio, or the widest."""
    chosen = next((c for c in candidates if current_src.endswith(c["url"].lstrip("./"))), None)
    if chosen is None:
        return f"{current_src} is not a candidate"
    needed = drawn * ratio
    widest = max(c["w"] for c in candidates)
    if chosen["w"] + 0.5 < min(needed, widest):
        return f"loaded {chosen['w']}w for {needed:.1f} device px"
    return None
