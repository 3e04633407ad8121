#!/usr/bin/env python3
"""How much `content-visibility: auto` on deferred cards (docs/layout.md, "Long sections") saves
Chromium when it loads a long feed page.

Generates the feed of bench.py (N items from ../shared/corpus/hugodocs, each card showing its
title and whole rendered body), builds it twice — as feedgen emits it, and with the benchmark
switch FEEDGEN_NO_CONTENT_VISIBILITY=1 (same HTML without the `cl-cv` class and estimates) —
then loads each feed page in headless Chromium (Debian's /usr/bin/chromium via Playwright), a
fresh browser context per load, alternating the two variants, and prints the medians of:

- load: navigation start to the load event (PerformanceNavigationTiming.loadEventStart), ms;
- FCP: first contentful paint, ms;
- layout done: navigation start to the end of a forced layout run in the load handler
  (reading `scrollHeight`), ms;
- layout ms / style ms: Chromium's LayoutDuration and RecalcStyleDuration up to then
  (DevTools Performance.getMetrics), and its LayoutCount;
- heap MiB: JSHeapUsedSize; height: the document height at load, px.

Not part of the test suite. Usage:
  Benchmarks/browser_load.py [--items 10000] [--runs 5] [--feedgen PATH] [--width 390 --height 844]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the generator of Benchmarks/bench.py)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

MARK_LAYOUT = """
addEventListener('load', () => {
  const start = performance.now();
  window.__height = document.documentElement.scrollHeight;  // forces style and layout
  window.__layoutDone = performance.now();
  window.__forced = window.__layoutDone - start;
});
"""

READ = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {load: nav.loadEventStart, fcp: fcp ? fcp.startTime : null, layoutDone: window.__layoutDone,
          forced: window.__forced, height: window.__height,
          deferred: document.querySelectorAll('.cl-cv').length, cards: document.querySelectorAll('.cl-item').length};
}"""


def load_once(browser, url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(MARK_LAYOUT)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url, wait_until="load", timeout=300_000)
    page.wait_for_function("window.__layoutDone !== undefined")
    result = page.evaluate(READ)
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    result["layoutMs"] = metrics.get("LayoutDuration", 0) * 1000
    result["styleMs"] = metrics.get("RecalcStyleDuration", 0) * 1000
    result["layoutCount"] = metrics.get("LayoutCount", 0)
    result["heapMiB"] = metrics.get("JSHeapUsedSize", 0) / 2**20
    context.close()
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--feedgen", default=None, help="feedgen binary (default: swift build -c release)")
    ap.add_argument("--width", type=int, default=390)
    ap.add_argument("--height", type=int, default=844)
    args = ap.parse_args()
    if not bench.CORPUS.is_dir():
        print(f"skipped: {bench.CORPUS} not found", file=sys.stderr)
        return 0
    feedgen = args.feedgen
    if not feedgen:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "feedgen"], cwd=bench.REPO, check=True)
        feedgen = str(Path(subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=bench.REPO,
                                          capture_output=True, text=True, check=True).stdout.strip()) / "feedgen")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        # Playwright lives in the project's .venv (scripts/install-deps --test).
        venv = bench.REPO / ".venv" / "bin" / "python"
        if venv.exists() and Path(sys.executable).resolve() != venv.resolve():
            os.execv(str(venv), [str(venv), *sys.argv])
        sys.exit("Playwright is missing: run scripts/install-deps --test (it makes .venv/)")

    with tempfile.TemporaryDirectory(prefix="feedgen-browser-load-") as tmp:
        root = Path(tmp)
        bench.generate(args.items, root)
        site = root / "feedgen"
        outputs = {}
        for name, env in (("content-visibility", {}), ("without", {"FEEDGEN_NO_CONTENT_VISIBILITY": "1"})):
            out = root / f"public-{name}"
            subprocess.run([feedgen, "build", str(site), "--output", str(out), "--quiet"], check=True,
                           env={**os.environ, **env})
            outputs[name] = out / "index.html"
        sizes = {k: v.stat().st_size / 2**20 for k, v in outputs.items()}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
            print(f"{browser.version} headless, {os.cpu_count()} cores, {args.items} cards, "
                  f"viewport {args.width}x{args.height}, median of {args.runs} loads; "
                  f"page {sizes['content-visibility']:.1f} MiB with, {sizes['without']:.1f} MiB without")
            results = {k: [] for k in outputs}
            for _ in range(args.runs):
                for name, path in outputs.items():
                    results[name].append(load_once(browser, path.as_uri(), args.width, args.height))
            browser.close()
        keys = [("load", "load ms"), ("fcp", "FCP ms"), ("layoutDone", "layout done ms"), ("layoutMs", "layout ms"),
                ("styleMs", "style ms"), ("layoutCount", "layouts"), ("heapMiB", "heap MiB"), ("height", "height px")]
        med = {name: {k: statistics.median(r[k] for r in rs if r[k] is not None) for k, _ in keys} for name, rs in results.items()}
        print(f"{'':<20}" + "".join(f"{label:>16}" for _, label in keys))
        for name in outputs:
            deferred = results[name][0]["deferred"]
            print(f"{name:<20}" + "".join(f"{med[name][k]:>16.1f}" for k, _ in keys) + f"   ({deferred} deferred cards)")
        print(f"{'ratio with/without':<20}" + "".join(
            f"{(med['content-visibility'][k] / med['without'][k] if med['without'][k] else float('nan')):>16.2f}" for k, _ in keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())
