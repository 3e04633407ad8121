#!/usr/bin/env python3
"""Incremental builds: full build time vs. the build after one small edit, on bench.py's site.

For N items (default 10,000) it generates bench.py's feedgen site, then measures:
- full: a clean build into a fresh output folder (no build cache); like bench.py, outputs are
  deleted only at the end, since deleting thousands of files just before creating as many slows
  this machine's ext4 (see bench.py);
- unchanged: a build with nothing changed;
- body / title / add / delete: a build after editing one item's body, one item's title (a card on
  the feed page changes), adding one item, deleting it again. The body edit is doc-000550's, a
  card in the middle of its section's page (page 6 of 100 cards, the section being paginated by
  default): like most cards of a long page, it renders lazily, so the patch build may replace
  it even though its height estimate grows (the bench card shows the whole body);
- body-top: the same edit of doc-000500, the first card of that page. It renders eagerly, and
  its estimate decides which cards below it are lazy: the patch build takes it while no card of
  the page changes between eager and lazy (else the build takes the usual path).
Each is run --runs times (each run makes a new edit); medians of wall time, CPU time
(user+system of the feedgen process) and peak RSS are printed, with the ratio to the full build.

Usage: Benchmarks/incremental.py --feedgen .build/release/feedgen [--items 10000] [--runs 5]
       [--out-root DIR]
"""
import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402


def run(feedgen: str, site: Path, out: Path, *extra: str) -> tuple[float, float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%M", feedgen, "build", str(site), "--output", str(out), "--quiet", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"feedgen failed:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = int(proc.stderr.strip().splitlines()[-1])
    return wall, cpu, rss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--feedgen", required=True)
    parser.add_argument("--items", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out-root", default=None, help="folder for the output and its cache")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="feedgen-incremental-"))
    try:
        bench.generate(args.items, work / "gen")
        site = work / "gen" / "feedgen"
        out_root = Path(args.out_root) if args.out_root else work
        out_root.mkdir(parents=True, exist_ok=True)
        out = out_root / "public"
        docs = site / "content" / "docs"
        results: dict[str, list[tuple[float, float, int]]] = {}

        def measure(name: str, before=None) -> None:
            for i in range(args.runs):
                if before:
                    before(i)
                results.setdefault(name, []).append(run(args.feedgen, site, out))

        for i in range(args.runs):
            results.setdefault("full", []).append(run(args.feedgen, site, out_root / f"full-{i}"))
        run(args.feedgen, site, out)
        run(args.feedgen, site, out)  # both buffers of the cache filled
        measure("unchanged")

        def body(i, name="doc-000550.md"):
            p = docs / name
            p.write_text(p.read_text(encoding="utf-8") + f"\nEdit {i}.\n", encoding="utf-8")

        def title(i):
            p = docs / "doc-000600.md"
            text = p.read_text(encoding="utf-8").split("\n")
            text[1] = f"title: Document 600 edit {i}"
            p.write_text("\n".join(text), encoding="utf-8")

        def add(i):
            (docs / "doc-added.md").write_text(f"---\ntitle: Added {i}\nweight: 5\n---\nAn added item {i}.\n", encoding="utf-8")

        def delete(i):
            (docs / "doc-added.md").unlink()

        measure("body", body)
        measure("body-top", lambda i: body(i, "doc-000500.md"))
        measure("title", title)
        for i in range(args.runs):
            add(i)
            results.setdefault("add", []).append(run(args.feedgen, site, out))
            delete(i)
            results.setdefault("delete", []).append(run(args.feedgen, site, out))

        full_wall = statistics.median(r[0] for r in results["full"])
        full_cpu = statistics.median(r[1] for r in results["full"])
        print(f"{args.items} items, {args.runs} runs each, output in {out_root}")
        print("| build | wall s (median) | CPU s (median) | peak RSS MiB | wall vs full | CPU vs full | wall s, all runs |")
        print("|---|---:|---:|---:|---:|---:|---|")
        for name, rows in results.items():
            wall = statistics.median(r[0] for r in rows)
            cpu = statistics.median(r[1] for r in rows)
            rss = statistics.median(r[2] for r in rows) / 1024
            every = ", ".join(f"{r[0]:.2f}" for r in rows)
            print(f"| {name} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {wall / full_wall:.1%} | {cpu / full_cpu:.1%} | {every} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if args.out_root:
            for name in ["public"] + [f"full-{i}" for i in range(args.runs)]:
                shutil.rmtree(Path(args.out_root) / name, ignore_errors=True)
                shutil.rmtree(Path(args.out_root) / f".{name}.feedgen-cache", ignore_errors=True)


if __name__ == "__main__":
    main()
