"""Shared fixtures for feedgen's browser tests.

The site under test is the sample site (`content/` at the repository root), built once per
run into pytest's temporary folder and shared by the xdist workers (browser_support.shared_folder). The feedgen binary is `$FEEDGEN` when set; otherwise the
package is built with `swift build` and the debug binary is used.

Chromium is Debian's (/usr/bin/chromium, override with $CHROMIUM), driven by Playwright. It runs
headless unless HEADED=1 is set and a display is available; with CI=true it is always headless.
Every Chromium renders with the fonts Tests/browser/fonts.conf selects (browser_support.chromium_env:
Noto Sans for the theme's system-ui / sans-serif stack).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from browser_support import chromium_env, shared_folder

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        pytest.fail(
            f"command failed ({result.returncode}): {' '.join(map(str, cmd))}\n"
            f"--- stdout ---\n{result.stdout}\n--- stderr ---\n{result.stderr}",
            pytrace=False,
        )
    return result


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "serial: timing-sensitive tests (wheel and touch gestures) that scripts/test runs alone, "
        "after the others have run on two workers (pytest-xdist)",
    )


# The modules that take longest, longest first (their share of a two-worker run, measured in
# scripts/test's log); the others follow in their usual order. scripts/test hands whole modules
# to its two workers in collection order (pytest-xdist `--dist loadfile --no-loadscope-reorder`),
# so a long module is not started last, leaving one worker to run it alone at the end.
SLOWEST_FIRST = [
    "test_cls", "test_layout_conformance", "test_accessibility", "test_responsive_images", "test_kill",
    "test_estimates", "test_look", "test_corpus_overflow", "test_carousel_controls", "test_previews",
]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the order
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(rank)))  # stable: tests keep their order


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def feedgen() -> Path:
    """Path of the feedgen binary: $FEEDGEN, or the debug build of this package."""
    env = os.environ.get("FEEDGEN")
    if env:
        path = Path(env).expanduser().resolve()
        if not path.is_file():
            pytest.fail(f"FEEDGEN={env} is not a file", pytrace=False)
        return path
    _run(["swift", "build"])
    bin_dir = _run(["swift", "build", "--show-bin-path"]).stdout.strip()
    path = Path(bin_dir) / "feedgen"
    if not path.is_file():
        pytest.fail(f"swift build did not produce {path}", pytrace=False)
    return path


@pytest.fixture(scope="session")
def site(feedgen: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample site, built once per run (shared_folder); returns the output folder (…/public)."""
    def make(folder: Path) -> None:
        _run([str(feedgen), "build", str(REPO_ROOT), "--output", str(folder / "public")])

    public = shared_folder(tmp_path_factory, "sample", make) / "public"
    assert (public / "index.html").is_file(), f"no index.html in {public}"
    return public


@pytest.fixture(scope="session")
def long_list_site(feedgen: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated feed of 2,000 cards in a list (long_feed.py), built once per run for
    test_cls and test_content_visibility; returns its output folder."""
    from long_feed import synthetic_texts, write_long_feed

    def make(folder: Path) -> None:
        root = write_long_feed(folder, 2000, synthetic_texts(2000), layout="list")
        _run([str(feedgen), "build", str(root), "--output", str(root / "public"), "--quiet"])

    return shared_folder(tmp_path_factory, "long-list", make) / "public"


def _headless() -> bool:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        return True
    if os.environ.get("HEADED") == "1" and (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    return True


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright_instance):
    """One Chromium per test module."""
    b = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=_headless(), env=chromium_env())
    yield b
    b.close()
