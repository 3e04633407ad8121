"""Generated long feeds for the content-visibility tests (test_cls.py, test_estimates.py): a
site whose home feed holds one long section (and a short one after it), with card texts of
varied length, deterministic."""

from __future__ import annotations

import re
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "hugodocs" / "en"

_WORDS = ("feed card layout section grid list carousel header footer image width height estimate "
          "render browser model screen scroll content visibility text line glyph font theme page").split()


def synthetic_texts(n: int) -> list[tuple[str, str]]:
    """(title, description) pairs of varied lengths, some Japanese, without the corpus."""
    out = []
    for i in range(n):
        title_words = 2 + (i * 7) % 9
        desc_words = (i * 13) % 61
        title = " ".join(_WORDS[(i + k * 3) % len(_WORDS)] for k in range(title_words)).capitalize()
        desc = " ".join(_WORDS[(i * 5 + k) % len(_WORDS)] for k in range(desc_words))
        if i % 17 == 0:
            desc = "日本語の説明文です。" * (1 + i % 5)
        out.append((f"{title} {i}", desc))
    return out


def corpus_texts() -> list[tuple[str, str]]:
    """(title, description) of every document of Hugo's documentation that has both."""
    out = []
    for path in sorted(CORPUS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        if not text.startswith("---"):
            continue
        front = text.split("\n---", 1)[0]
        title = re.search(r"^title:\s*(.+)$", front, re.M)
        desc = re.search(r"^description:\s*(.+)$", front, re.M)
        if title and desc:
            clean = lambda s: s.strip().strip("'\"").replace("\\", "")
            out.append((clean(title.group(1)), clean(desc.group(1))))
    return out


def _yaml(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_long_feed(root: Path, n: int, texts: list[tuple[str, str]], layout: str = "list") -> Path:
    """Writes a site at `root` with a section `long` of `n` cards (texts cycled) in `layout`,
    then a section `after` of 12 cards (taller than a screen); returns `root`."""
    content = root / "content"
    long = content / "long"
    after = content / "after"
    long.mkdir(parents=True)
    after.mkdir(parents=True)
    (root / "feedgen.yaml").write_text("title: Long feed\nlanguage: en\n", encoding="utf-8")
    (content / "_feed.md").write_text("---\ntitle: Long feed\n---\n", encoding="utf-8")
    # One long feed page, not paginated (content-format §4.1): these tests are about long pages.
    (long / "_section.md").write_text(
        f"---\ntitle: Long section\nweight: 1\nlayout: {layout}\npaginate: false\n---\n", encoding="utf-8")
    (after / "_section.md").write_text("---\ntitle: After the long section\nweight: 2\nlayout: list\n---\n", encoding="utf-8")
    for i in range(n):
        title, desc = texts[i % len(texts)]
        lines = ["---", f"title: {_yaml(title + f' ({i})')}", f"weight: {i + 1}"]
        if desc:
            lines.append(f"description: {_yaml(desc)}")
        lines.append("---")
        body = f"Card {i} of the long section.\n" if i % 3 == 0 else ""
        (long / f"c{i:05d}.md").write_text("\n".join(lines) + "\n" + body, encoding="utf-8")
    for i in range(12):
        (after / f"a{i}.md").write_text(f"---\ntitle: After {i}\nweight: {i + 1}\n---\nThe end, {i}.\n", encoding="utf-8")
    return root
