"""GitHub Flavored Markdown in the built-in theme (issue 19, items 1 and 6): a detail page with a
wide table, a long code line, an image wider than the column, footnotes and a task list never
scrolls sideways at 320 px (the table and the code block scroll inside themselves, the image
scales down), the heading and footnote links land on their
ids, and axe finds nothing at 320 and 1280 px in light and dark."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from browser_support import close_page, open_page
from test_long_words import png

CODE = "let configuration = " + "loadTheConfigurationFromEnvironment()." * 6 + "build()"
ROW = "| " + " | ".join(f"column {i} with some words" for i in range(8)) + " |"
BODY = f"""Intro with a note[^1] and a [link to the steps](#steps).

## Steps

- [x] install the dependencies
- [ ] write ~~the~~ a post

| {" | ".join(f"Heading {i}" for i in range(8))} |
|{"---|" * 8}
{ROW}
{ROW}

```swift
{CODE}
```

![A wide diagram](wide.png)

A very long URL: https://example.org/{"a-very-long-path-segment-without-any-break" * 3} and `inline code`.

## Steps

Again, with a second note[^long].

[^1]: The first note.
[^long]: A longer note with `code`.
"""

FILES = {
    "content/_feed.md": "---\ntitle: Docs\n---\n",
    "content/docs/_section.md": "---\ntitle: Pages\n---\n",
    "content/docs/gfm.md": f"---\ntitle: GitHub Flavored Markdown\n---\n{BODY}",
}

_axe = Axe()


@pytest.fixture(scope="module")
def gfm_site(feedgen, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("gfm")
    for rel, text in FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    # An image 1,200 px wide: wider than the column at every width.
    (root / "content/docs/wide.png").write_bytes(png(1200, 300))
    out = root / "public"
    result = subprocess.run([str(feedgen), "build", str(root), "--output", str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "warning:" not in result.stderr, result.stderr
    return out


def test_tables_code_and_images_stay_inside_the_page_at_320(gfm_site: Path, browser):
    opened = open_page(browser, (gfm_site / "docs/gfm.html").as_uri(), 320)
    try:
        page = opened.page
        assert page.evaluate("document.documentElement.scrollWidth") == 320
        for selector in (".table-scroll", "pre"):
            box = page.eval_on_selector(
                selector, "e => [e.getBoundingClientRect().right, e.clientWidth, e.scrollWidth, getComputedStyle(e).overflowX]"
            )
            assert box[0] <= 320 and box[2] > box[1] and box[3] == "auto", (selector, box)
        # The 1,200 px image is drawn at the column's width, in its own ratio (4:1).
        image = page.eval_on_selector(
            ".detail-body img", "e => [e.getBoundingClientRect().right, e.getBoundingClientRect().width, e.getBoundingClientRect().height, e.naturalWidth]"
        )
        assert image[0] <= 320 and image[1] < 320 and abs(image[1] / image[2] - 4) < 0.05 and image[3] > 0, image
        # Both footnote references and both notes, with ids and a way back.
        assert page.eval_on_selector_all("sup.footnote-ref a", "es => es.map(e => e.getAttribute('href'))") == [
            "#fn-docs-gfm-1",
            "#fn-docs-gfm-long",
        ]
        assert page.eval_on_selector_all(".footnotes li", "es => es.map(e => e.id)") == ["fn-docs-gfm-1", "fn-docs-gfm-long"]
        assert page.eval_on_selector_all("h2[id]", "es => es.map(e => e.id)") == ["steps", "steps-1"]
        assert page.eval_on_selector_all("input[type=checkbox]", "es => es.map(e => [e.checked, e.disabled])") == [
            [True, True],
            [False, True],
        ]
        # The footnote link scrolls its note into view.
        page.click("sup.footnote-ref a >> nth=1")
        assert page.evaluate("location.hash") == "#fn-docs-gfm-long"
        assert page.eval_on_selector("#fn-docs-gfm-long", "e => e.getBoundingClientRect().top") < 844
        # Theme: code in the monospace stack, on its own background, with rounded corners.
        style = page.eval_on_selector(
            "pre", "e => [getComputedStyle(e).fontFamily, getComputedStyle(e).borderTopLeftRadius, getComputedStyle(e).paddingLeft]"
        )
        assert style[0].startswith("ui-monospace") and style[1] == "8px" and style[2] == "14px", style
        assert opened.problems == []
    finally:
        close_page(opened)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [320, 1280])
def test_axe_finds_nothing_on_a_gfm_page(gfm_site: Path, browser, width, scheme):
    context = browser.new_context(viewport={"width": width, "height": 844}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto((gfm_site / "docs/gfm.html").as_uri(), wait_until="load")
        violations = _axe.run(page, options={"resultTypes": ["violations"]}).response["violations"]
        assert violations == [], [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations]
    finally:
        context.close()
