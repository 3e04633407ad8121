"""The same input gives byte-identical output across time zones, locales and working folders."""
import os
import subprocess
from pathlib import Path


def snapshot(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_builds_are_byte_identical_across_tz_locale_and_cwd(feedgen, repo_root, tmp_path):
    outputs = []
    for i, (tz, lang, cwd) in enumerate([
        ("Asia/Tokyo", "ja_JP.UTF-8", tmp_path),
        ("America/Los_Angeles", "C", repo_root),
        ("UTC", "de_DE.UTF-8", Path("/")),
    ]):
        out = tmp_path / f"out{i}" / "public"
        env = dict(os.environ, TZ=tz, LANG=lang, LC_ALL=lang)
        subprocess.run([str(feedgen), "build", str(repo_root), "--output", str(out), "--quiet"],
                       cwd=cwd, env=env, check=True, capture_output=True)
        outputs.append(snapshot(out))
    assert len(outputs[0]) > 20
    for other in outputs[1:]:
        assert sorted(other) == sorted(outputs[0])
        differing = [k for k in outputs[0] if outputs[0][k] != other[k]]
        assert differing == [], f"files differ: {differing}"
