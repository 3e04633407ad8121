#!/usr/bin/env python3
"""feedgen's benchmark: the same Markdown built by feedgen (release), by Hugo, and run through
the `cmark` command, side by side on this machine.

For each N it generates a site of N items from ../shared/corpus/hugodocs (documents repeated
with unique ids and titles; Hugo shortcodes removed so both tools read the same bytes), then
builds it several times with each tool and prints median wall time, CPU time and peak RSS, and
the ratios feedgen/Hugo and feedgen/cmark.

A `cp -r` row gives the time this disk takes to create feedgen's output files with no work at
all (a copy of its output into a fresh folder), for context.

Usage: Benchmarks/bench.py [--sizes 1000,10000,100000] [--runs 3] [--skip-hugo]
"""
import argparse
import contextlib
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "hugodocs" / "en"

HUGO_CONFIG = """baseURL = "http://example.org/"
title = "Bench"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
uglyURLs = true
relativeURLs = true
[markup.goldmark.renderer]
unsafe = false
"""

HUGO_LIST = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>
<link rel="stylesheet" href="assets/theme.css"></head><body><main><h1>{{ .Site.Title }}</h1>
<section><h2>Cards</h2><div role="list">
{{ range .Site.RegularPages }}<div role="listitem"><article class="card"><div class="card-body">
<h3 class="card-title"><a href="{{ .RelPermalink }}">{{ .Title }}</a></h3>
<p class="card-description">{{ .Summary | plainify | truncate 300 }}</p>{{ .Content }}</div></article></div>
{{ end }}</div></section></main></body></html>
"""

HUGO_SINGLE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>
<link rel="stylesheet" href="../assets/theme.css"></head><body><main><nav><a href="../index.html">Home</a></nav>
<article><h1>{{ .Title }}</h1>{{ .Content }}</article></main></body></html>
"""

FEEDGEN_CARD = """<article class="card">
  <div class="card-body">
    <h3 class="card-title">{{#url}}<a href="{{url}}">{{title}}</a>{{/url}}{{^url}}{{title}}{{/url}}</h3>
{{#description}}
    <p class="card-description">{{description}}</p>
{{/description}}
{{{html}}}
  </div>
</article>
"""

SHORTCODE = re.compile(r"\{\{[<%].*?[>%]\}\}", re.S)
# Links between the corpus's files do not survive the renaming; point them at .html pages.
MD_LINK = re.compile(r"\]\(([^)\s]*?)\.md(#[^)\s]*)?\)")


def documents():
    docs = []
    for path in sorted(CORPUS.rglob("*.md")):
        if any(part.startswith(("_", ".")) for part in path.relative_to(CORPUS).parts):
            continue
        text = path.read_text(encoding="utf-8")
        body = text.split("\n---", 2)[-1] if text.startswith("---") else text
        body = body.split("\n", 1)[1] if "\n" in body else ""
        docs.append(MD_LINK.sub(lambda m: f"]({m.group(1)}.html{m.group(2) or ''})", SHORTCODE.sub("", body)))
    return docs


def generate(n: int, root: Path, paginate: int | None = None) -> Path:
    """Writes the feedgen site and the Hugo site for n items; returns the concatenated Markdown.
    With `paginate`, the feedgen section's own pages hold that many items; without it, the default
    page size (100) applies (content-format §4.1)."""
    docs = documents()
    fg, hg = root / "feedgen", root / "hugo"
    (fg / "content" / "docs").mkdir(parents=True)
    (fg / "Templates" / "cards").mkdir(parents=True)
    (fg / "Templates" / "cards" / "card.mustache").write_text(FEEDGEN_CARD)
    pages = f"paginate: {paginate}\n" if paginate else ""
    (fg / "content" / "docs" / "_section.md").write_text(f"---\ntitle: Cards\nlayout: list\n{pages}---\n")
    (hg / "content" / "docs").mkdir(parents=True)
    (hg / "layouts" / "_default").mkdir(parents=True)
    (hg / "config.toml").write_text(HUGO_CONFIG)
    (hg / "layouts" / "index.html").write_text(HUGO_LIST)
    (hg / "layouts" / "_default" / "single.html").write_text(HUGO_SINGLE)
    all_md = root / "all.md"
    with all_md.open("w", encoding="utf-8") as together:
        for i in range(n):
            body = docs[i % len(docs)]
            front = f"---\ntitle: Document {i:06d}\nweight: {i + 1}\n---\n"
            name = f"doc-{i:06d}.md"
            (fg / "content" / "docs" / name).write_text(front + body, encoding="utf-8")
            (hg / "content" / "docs" / name).write_text(front + body, encoding="utf-8")
            together.write(body + "\n\n")
    return all_md


def measure(cmd, cwd=None, stdout=subprocess.DEVNULL):
    """Runs cmd; returns (wall s, cpu s, peak RSS MiB) of the child alone. A failed run stops the
    benchmark (a broken build must not be timed)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"bench: {' '.join(map(str, cmd))} failed: {proc.stderr.read().decode(errors='replace')[-2000:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def median_of(runs, make_cmd, cwd=None, after=None):
    """Medians of `runs` runs of make_cmd(i) (i = 0, 1, …); after(i), if given, runs after run i."""
    results = []
    for i in range(runs):
        results.append(measure(make_cmd(i), cwd=cwd))
        if after:
            after(i)
    return tuple(statistics.median(r[i] for r in results) for i in range(3))


def is_tmpfs(path: Path) -> bool:
    """Whether `path` is on tmpfs (in memory: deleting files there costs nothing later)."""
    kind = subprocess.run(["stat", "-f", "-c", "%T", str(path)], capture_output=True, text=True)
    return kind.stdout.strip() == "tmpfs"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-hugo", action="store_true")
    ap.add_argument("--feedgen", default=None)
    ap.add_argument("--paginate", type=int, default=None,
                    help="the feedgen section's page size (`paginate`; without it, the default: 100 items to a page)")
    ap.add_argument("--out-root", default=None,
                    help="folder for the tools' output (e.g. /dev/shm, to measure without the disk's file-creation cost)")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} not found", file=sys.stderr)
        return 0
    feedgen = args.feedgen
    if not feedgen:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "feedgen"], cwd=REPO, check=True)
        feedgen = str(Path(subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=REPO,
                                          capture_output=True, text=True, check=True).stdout.strip()) / "feedgen")
    cmark = shutil.which("cmark")
    hugo = shutil.which("hugo")
    print(f"machine: {os.cpu_count()} cores; feedgen release; {subprocess.run([hugo, 'version'], capture_output=True, text=True).stdout.split()[1] if hugo else 'no hugo'}; cmark {subprocess.run([cmark, '--version'], capture_output=True, text=True).stdout.split()[1] if cmark else 'missing'}; median of {args.runs} runs")
    print(f"output written to {args.out_root or 'the temporary folder (disk)'}")
    print(f"{'N':>7} {'tool':<8} {'wall s':>8} {'cpu s':>8} {'RSS MiB':>8}   ratios")
    keep = contextlib.ExitStack()
    walls = {}
    for n in [int(x) for x in args.sizes.split(",")]:
        # Kept until every size is done (see the note on deletions below).
        tmp = keep.enter_context(tempfile.TemporaryDirectory(prefix=f"feedgen-bench-{n}-"))
        root = Path(tmp)
        all_md = generate(n, root, args.paginate)
        out_root = Path(args.out_root) / f"feedgen-bench-out-{n}" if args.out_root else root
        if args.out_root:
            keep.callback(shutil.rmtree, out_root, True)
        out_root.mkdir(parents=True, exist_ok=True)
        # Every run writes a fresh output folder (and, for feedgen, a fresh build cache beside
        # it: a clean build), and nothing is deleted until all runs of this size are done.
        # Deleting thousands of files just before creating as many makes ext4 without a
        # journal (this machine's disk) skip each inode deleted in the last 5 minutes one by
        # one (`recently_deleted` in fs/ext4/ialloc.c), which then dominates any tool's time.
        # On tmpfs, deleting is free and outputs live in memory: every run's output but the
        # first (`cp -r` copies it) is deleted after the run, so that later runs do not build
        # with gigabytes of earlier outputs in RAM (3 runs at 100,000 items kept 7.5 GB).
        in_memory = is_tmpfs(out_root)

        def drop(name):
            return (lambda i: i > 0 and remove_output(out_root / f"{name}-{i}")) if in_memory else None

        fg = median_of(args.runs, lambda i: [feedgen, "build", str(root / "feedgen"), "--output", str(out_root / f"fg-public-{i}"), "--quiet"],
                       after=drop("fg-public"))
        rows = [("feedgen", fg)]
        largest = max((p.stat().st_size, p) for p in (out_root / "fg-public-0").rglob("*.html"))
        print(f"{n:>7} largest feedgen HTML page: {largest[0] / 1024:.0f} KiB ({largest[1].relative_to(out_root / 'fg-public-0')})", flush=True)
        # The disk's share: creating the same files with no work at all (`cp -r` of feedgen's
        # output into a fresh folder), printed for context, not in the ratios.
        rows.append(("cp -r", median_of(args.runs, lambda i: ["cp", "-r", str(out_root / "fg-public-0"), str(out_root / f"copy-{i}")],
                                        after=drop("copy"))))
        if cmark:
            cm = median_of(args.runs, lambda i: ["sh", "-c", f"{cmark} --smart {all_md} > /dev/null"])
            rows.append(("cmark", cm))
        if hugo and not args.skip_hugo:
            hg = median_of(args.runs, lambda i: [hugo, "--quiet", "-s", str(root / "hugo"), "-d", str(out_root / f"hugo-public-{i}")],
                           after=drop("hugo-public"))
            rows.append(("hugo", hg))
        base = dict(rows)
        walls[n] = base["feedgen"][0]
        for tool, (wall, cpu, rss) in rows:
            ratio = ""
            if tool == "feedgen":
                parts = []
                if "hugo" in base:
                    parts.append(f"wall {wall / base['hugo'][0]:.2f}x Hugo, RSS {rss / base['hugo'][2]:.2f}x Hugo")
                if "cmark" in base:
                    parts.append(f"wall {wall / base['cmark'][0]:.2f}x cmark")
                ratio = "; ".join(parts)
            print(f"{n:>7} {tool:<8} {wall:>8.2f} {cpu:>8.2f} {rss:>8.0f}   {ratio}", flush=True)
    # Linearity: feedgen's wall time from one size to the next, against linear growth ±20%.
    sizes = sorted(walls)
    for small, large in zip(sizes, sizes[1:]):
        growth, linear = walls[large] / walls[small], large / small
        verdict = "within" if growth <= linear * 1.2 else "outside"
        print(f"growth {small} -> {large}: feedgen wall {growth:.2f}x for {linear:.0f}x the items ({verdict} linear +20%: <= {linear * 1.2:.1f}x)")
    keep.close()
    return 0


def remove_output(folder: Path) -> None:
    """Deletes an output folder and feedgen's build cache beside it."""
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(folder.parent / f".{folder.name}.feedgen-cache", ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
