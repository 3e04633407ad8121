"""Helpers shared by the browser tests: opening pages with problem listeners, images, links."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

TOLERANCE = 0.5  # CSS px


@dataclass
class OpenedPage:
    page: object  # playwright.sync_api.Page
    problems: list[str] = field(default_factory=list)


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
    page.on("requestfailed", lambda r: opened.problems.append(f"request failed: {r.url} ({r.failure})"))
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
