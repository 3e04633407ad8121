"""The two real corpora (../shared/corpus: Hugo's documentation, Jekyll's release posts) copied
into sites as Tests/FeedgenBuildTests/CorpusTests.swift builds them — unchanged, with only
_feed.md / _section.md and a feedgen.yaml added — and built."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from browser_support import shared_folder

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus"
# The corpora's baseURL (their Atom and JSON feeds need one).
BASE = "https://example.org/site/"


def available() -> bool:
    return (SHARED / "hugodocs" / "en").is_dir() and (SHARED / "jekyll-posts").is_dir()


def build(feedgen: Path, root: Path) -> Path:
    out = root / "public"
    result = subprocess.run(
        [str(feedgen), "build", str(root), "--output", str(out), "--quiet"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return out


def build_corpora(feedgen: Path, tmp_path_factory) -> dict[str, Path]:
    """Both corpora built as sites, once per run for test_corpus_overflow and test_corpus_feeds
    (browser_support.shared_folder), with a feedgen.yaml that sets a `baseURL` (BASE; the feeds
    need it, and it changes nothing in a page's layout): name → output folder."""
    folder = shared_folder(tmp_path_factory, "corpora", lambda folder: _build_corpora(feedgen, folder))
    return {"hugodocs": folder / "hugodocs" / "public", "jekyll-posts": folder / "jekyll-posts" / "public"}


def _build_corpora(feedgen: Path, folder: Path) -> None:
    config = f"title: Corpus\nbaseURL: {BASE}\n"
    hugo = folder / "hugodocs"
    shutil.copytree(SHARED / "hugodocs" / "en", hugo / "content" / "docs")
    (hugo / "content" / "docs" / "_section.md").write_text("---\ntitle: Hugo documentation\nlayout: list\n---\n")

    jekyll = folder / "jekyll-posts"
    posts = jekyll / "content" / "posts"
    posts.mkdir(parents=True)
    for source in sorted((SHARED / "jekyll-posts").iterdir()):
        if source.suffix in (".md", ".markdown"):
            shutil.copyfile(source, posts / source.name)
    # The one post whose date has a stray year (an error, asserted by CorpusTests), fixed here.
    stray = posts / "2023-01-29-jekyll-3-9-3-released.markdown"
    stray.write_text(stray.read_text(encoding="utf-8").replace("18:30:22 2023 -0800", "18:30:22 -0800"), encoding="utf-8")
    (jekyll / "content" / "_feed.md").write_text("---\ntitle: Jekyll releases\n---\n")
    (posts / "_section.md").write_text("---\ntitle: Posts\nlayout: list\n---\n")
    for root in (hugo, jekyll):
        (root / "feedgen.yaml").write_text(config)
        build(feedgen, root)
