#!/usr/bin/env python3
"""Watch mode's reaction time on bench.py's site: from a save to the rebuild's start and end.

It generates bench.py's feedgen site of N items (default 10,000), starts `feedgen build SITE
--watch` with FEEDGEN_TIMING=1, waits for its first build, then --runs times saves one item
(an edit of its body, or a new item in a new folder, or its delete, in turn) and reads stderr
until the rebuild's line. Per save it prints:
- reaction: from the end of the save (the file closed) to the rebuild's start, seen as the
  rebuild opening content/docs/ to list it (an inotify IN_OPEN of this script's own; the
  watcher itself never lists that folder for these saves);
- done: from the end of the save to the rebuild's line on stderr (after its warnings);
- build: the rebuild's own time (the sum of its FEEDGEN_TIMING stages).

Usage: Benchmarks/watch.py --feedgen .build/release/feedgen [--items 10000] [--runs 9]
"""
import argparse
import ctypes
import os
import re
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402

STAGE = re.compile(r"(\d+) ms \(cpu")
IN_OPEN, IN_NONBLOCK = 0x20, 0o4000


class FolderOpens:
    """Linux inotify on one folder: when it was last opened (listed) by anyone."""

    def __init__(self, folder: Path):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(IN_NONBLOCK)
        if self.fd < 0 or self.libc.inotify_add_watch(self.fd, str(folder).encode(), IN_OPEN) < 0:
            raise SystemExit("inotify is unavailable")

    def drain(self) -> None:
        while True:
            try:
                if not os.read(self.fd, 65536):
                    return
            except BlockingIOError:
                return

    def wait_for_open(self, limit: float = 60) -> float:
        """The time of the next opening of the folder itself (an event without a name)."""
        deadline = time.monotonic() + limit
        sel = selectors.DefaultSelector()
        sel.register(self.fd, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not sel.select(timeout=max(0, deadline - time.monotonic())):
                break
            now = time.monotonic()
            data = os.read(self.fd, 65536)
            offset = 0
            while offset + 16 <= len(data):
                length = int.from_bytes(data[offset + 12:offset + 16], "little")
                if length == 0:
                    return now
                offset += 16 + length
        raise SystemExit(f"the folder was not opened within {limit} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--feedgen", required=True)
    parser.add_argument("--items", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="feedgen-watch-"))
    proc = None
    try:
        bench.generate(args.items, work / "gen")
        site = work / "gen" / "feedgen"
        docs = site / "content" / "docs"
        env = dict(os.environ, FEEDGEN_TIMING="1")
        proc = subprocess.Popen(
            [args.feedgen, "build", str(site), "--output", str(work / "public"), "--watch"],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env)
        lines = selectors.DefaultSelector()
        lines.register(proc.stderr, selectors.EVENT_READ)
        pending = b""

        def read_until(marker: str, limit: float = 120) -> list[str]:
            """The stderr lines up to and with the first containing `marker`."""
            nonlocal pending
            seen: list[str] = []
            deadline = time.monotonic() + limit
            while time.monotonic() < deadline:
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    text = line.decode("utf-8", "replace")
                    seen.append(text)
                    if marker in text:
                        return seen
                if lines.select(timeout=max(0, deadline - time.monotonic())):
                    chunk = os.read(proc.stderr.fileno(), 65536)
                    if not chunk:
                        raise SystemExit("feedgen ended:\n" + "\n".join(seen))
                    pending += chunk
            raise SystemExit(f"no '{marker}' within {limit} s:\n" + "\n".join(seen))

        read_until("watching")
        opens = FolderOpens(docs)
        rows = []
        for i in range(args.runs):
            kind = ["edit", "add", "delete"][i % 3]
            time.sleep(0.5)  # the previous rebuild's events are over
            opens.drain()
            if kind == "edit":
                path = docs / "doc-000500.md"
                text = path.read_text(encoding="utf-8") + f"\nEdit {i}.\n"
                start = time.monotonic()
                path.write_text(text, encoding="utf-8")
            elif kind == "add":
                start = time.monotonic()
                (docs / "new" / "er").mkdir(parents=True)
                (docs / "new" / "er" / "added.md").write_text(f"---\ntitle: Added {i}\n---\nBody.\n", encoding="utf-8")
            else:
                start = time.monotonic()
                shutil.rmtree(docs / "new")
            saved = time.monotonic()
            started = opens.wait_for_open()
            seen = read_until("changed; ")
            done = time.monotonic()
            timing = [line for line in seen if line.startswith("timing: ") and " ms (cpu " in line]
            build = sum(int(ms) for ms in STAGE.findall(timing[-1])) if timing else 0
            rows.append((kind, (started - saved) * 1000, (done - saved) * 1000, build))
            print(f"{kind}: reaction {rows[-1][1]:.0f} ms, done {rows[-1][2]:.0f} ms, build {build} ms | {seen[-1]}",
                  flush=True)
        print(f"{args.items} items, {args.runs} saves: reaction (save → rebuild start) median "
              f"{statistics.median(r[1] for r in rows):.0f} ms, max {max(r[1] for r in rows):.0f} ms; "
              f"save → rebuild done median {statistics.median(r[2] for r in rows):.0f} ms")
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
