"""The two real corpora (../shared/corpus: Hugo's documentation, Jekyll's release posts) copied
into sites as Tests/FeedgenBuildTests/CorpusTests.swift builds them — unchanged, with only
_feed.md / _section.md added (and, for the feed tests, a feedgen.yaml) — and built."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def available() -> bool:
    return (SHARED / "hugodocs" / "en").is_dir() and (SHARED / "jekyll-posts").is_dir()


def build(feedgen: Path, root: Path) -> Path:
    out = root / "public"
    result = subprocess.run(
        [str(feedgen), "build", str(root), "--output", str(out), "--quiet"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return out


def build_corpora(feedgen: Path, tmp_path_factory, config: str | None = None) -> dict[str, Path]:
    """Both corpora built as sites (with `config` as feedgen.yaml when given): name → output folder."""
    hugo = tmp_path_factory.mktemp("hugodocs")
    shutil.copytree(SHARED / "hugodocs" / "en", hugo / "content" / "docs")
    (hugo / "content" / "docs" / "_section.md").write_text("---\ntitle: Hugo documentation\nlayout: list\n---\n")

    jekyll = tmp_path_factory.mktemp("jekyll-posts")
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
    if config is not None:
        for root in (hugo, jekyll):
            (root / "feedgen.yaml").write_text(config)
    return {"hugodocs": build(feedgen, hugo), "jekyll-posts": build(feedgen, jekyll)}
