"""Watch mode: a page opened from file:// reloads itself within two seconds of saving a file."""
import subprocess
import time
from pathlib import Path

import pytest


def write(root: Path, files: dict) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def wait_for(path: Path, timeout: float = 30.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if path.exists():
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} was not written within {timeout} s")


def test_page_reloads_after_a_save(feedgen, browser, tmp_path):
    site = tmp_path / "site"
    write(site, {
        "content/news/_section.md": "---\ntitle: News\nlayout: list\n---\n",
        "content/news/first.md": "---\ntitle: Before the edit\nweight: 1\n---\nBody.\n",
    })
    out = tmp_path / "public"
    proc = subprocess.Popen(
        [str(feedgen), "build", str(site), "--output", str(out), "--watch"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(out / "_feedgen" / "build-id.js")
        page = browser.new_page()
        page.goto((out / "index.html").as_uri())
        assert page.inner_text("[data-item-id='news/first'] h3") == "Before the edit"
        time.sleep(0.3)
        saved = time.time()
        write(site, {"content/news/first.md": "---\ntitle: After the edit\nweight: 1\n---\nBody.\n"})
        page.wait_for_function(
            "() => document.querySelector(\"[data-item-id='news/first'] h3\")?.textContent === 'After the edit'",
            timeout=5000)
        elapsed = time.time() - saved
        page.close()
        print(f"watch mode: page showed the edit {elapsed:.2f} s after the save")
        assert elapsed < 2.0, f"reload took {elapsed:.2f} s"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "watching" in err
    assert "news/first.md changed; rebuilt in" in err
    # The site has no baseURL: its note is said by the first build, not again by the rebuild.
    assert err.count("no 'baseURL'") == 1, err


def test_normal_builds_have_no_reload_script(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    assert "live-reload" not in html
    assert not (site / "_feedgen").exists()
