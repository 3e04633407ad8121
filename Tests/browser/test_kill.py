"""A build killed with SIGKILL at any point leaves the previous output exactly as it was, and the
next build succeeds."""
import random
import signal
import subprocess
import time
from pathlib import Path


# Cards of the sites killed mid-build. The kill moments are fractions of a measured build, so a
# smaller site is killed in the same phases; 1,000 cards keep a debug build over a second here.
CARDS = 1000


def snapshot(root: Path, skip=()) -> dict:
    """Every file below `root` (relative path → bytes), without the root entries named in `skip`."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] not in skip
    }


def make_site(root: Path, items: int, version: str) -> None:
    section = root / "content" / "cards"
    section.mkdir(parents=True, exist_ok=True)
    (section / "_section.md").write_text("---\ntitle: Cards\nlayout: grid\n---\n", encoding="utf-8")
    paragraph = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20
    for i in range(items):
        (section / f"card-{i:05d}.md").write_text(
            f"---\ntitle: Card {i} {version}\nweight: {i}\n---\n# Heading {i}\n\n{paragraph}\n\n- a\n- b\n\n{paragraph}\n",
            encoding="utf-8")


def kill_builds(feedgen, site: Path, out: Path, duration: float, fractions, previous: dict, reference: dict) -> list:
    """Starts a build per fraction and kills it after that fraction of `duration`; each time the
    output must be the previous build or the new one (`reference`). Returns the outcomes."""
    outcomes = []
    for fraction in fractions:
        proc = subprocess.Popen([str(feedgen), "build", str(site), "--output", str(out), "--quiet"])
        time.sleep(duration * fraction)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        now = snapshot(out)
        if now == previous:
            outcomes.append("previous")
        else:
            assert now == reference, f"killed at {fraction:.0%} of a build: the output is neither the previous build nor the new one"
            outcomes.append("new")
            previous = now
    return outcomes


def test_sigkill_never_damages_the_previous_output(feedgen, tmp_path):
    site = tmp_path / "site"
    out = tmp_path / "public"
    make_site(site, CARDS, "v1")
    subprocess.run([str(feedgen), "build", str(site), "--output", str(out), "--quiet"], check=True)
    previous = snapshot(out)
    assert len(previous) > CARDS

    make_site(site, CARDS, "v2")
    t0 = time.time()
    subprocess.run([str(feedgen), "build", str(site), "--output", str(tmp_path / "reference"), "--quiet"], check=True)
    full = time.time() - t0
    reference = snapshot(tmp_path / "reference")

    outcomes = kill_builds(feedgen, site, out, full, (0.05, 0.2, 0.4, 0.6, 0.8, 0.95), previous, reference)
    print(f"kill test: full build {full:.2f} s; outcomes {outcomes}")
    assert "previous" in outcomes

    subprocess.run([str(feedgen), "build", str(site), "--output", str(out), "--quiet"], check=True)
    assert snapshot(out) == reference
    leftovers = [p.name for p in tmp_path.iterdir() if "feedgen-tmp" in p.name or "feedgen-old" in p.name]
    assert leftovers == []


def edit_items(root: Path, indexes, version: str) -> None:
    section = root / "content" / "cards"
    for i in indexes:
        path = section / f"card-{i:05d}.md"
        path.write_text(path.read_text(encoding="utf-8").replace("# Heading", f"# Heading {version}"), encoding="utf-8")


def test_sigkill_during_incremental_builds(feedgen, tmp_path):
    """Kill points inside builds that use the build cache (the back buffer is being updated, its
    manifest written, the buffers exchanged): the output is always the previous or the new build,
    and the cache never leads a later build astray."""
    site = tmp_path / "site"
    out = tmp_path / "public"
    scratch = tmp_path / "scratch"
    make_site(site, CARDS, "v1")
    for target in (out, out, scratch, scratch):  # both buffers of both caches filled
        subprocess.run([str(feedgen), "build", str(site), "--output", str(target), "--quiet"], check=True)
    previous = snapshot(out)

    for round_, indexes in enumerate([range(0, CARDS, 97), range(5, CARDS, 3), [7]]):
        version = f"r{round_}"
        edit_items(site, indexes, version)
        t0 = time.time()
        subprocess.run([str(feedgen), "build", str(site), "--output", str(scratch), "--quiet"], check=True)
        incremental = time.time() - t0
        reference = snapshot(scratch)
        assert reference != previous
        outcomes = kill_builds(feedgen, site, out, incremental, (0.1, 0.3, 0.5, 0.7, 0.9, 1.1), previous, reference)
        print(f"kill test, incremental round {round_}: build {incremental:.2f} s; outcomes {outcomes}")
        subprocess.run([str(feedgen), "build", str(site), "--output", str(out), "--quiet"], check=True)
        assert snapshot(out) == reference
        previous = reference
    leftovers = [p.name for p in tmp_path.iterdir() if "feedgen-tmp" in p.name or "feedgen-old" in p.name]
    assert leftovers == []
    cache = tmp_path / ".public.feedgen-cache"
    # The site has no baseURL: the last build left a snapshot for a patch build (the body edits
    # here may be patched, kills included), and no temporary snapshot file.
    assert sorted(p.name for p in cache.iterdir()) == [
        "back", "cards.log", "cards.log.seal", "items.log", "items.log.seal", "lock", "snapshot", "sources", "state"]


def test_sigkill_keeps_a_deploy_repository(feedgen, tmp_path):
    """The output folder is a deploy repository (`.git/` and `CNAME`, the user's): 20 builds
    killed at seeded random moments each leave the previous or the new build, and the
    repository and `CNAME` byte for byte as they were (issue #22)."""
    site = tmp_path / "site"
    out = tmp_path / "public"
    user = (".git", "CNAME")
    references = {}
    for version in ("v2", "v1"):
        make_site(site, 600, version)
        subprocess.run([str(feedgen), "build", str(site), "--output", str(tmp_path / version), "--quiet"], check=True)
        references[version] = snapshot(tmp_path / version)
    subprocess.run([str(feedgen), "build", str(site), "--output", str(out), "--quiet"], check=True)
    git = ["git", "-C", str(out), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(["git", "init", "-q", str(out)], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "deploy"], check=True)
    (out / "CNAME").write_text("cards.example.org\n", encoding="utf-8")
    kept = {path: data for path, data in snapshot(out).items() if path.split("/")[0] in user}
    assert len(kept) > 10 and "CNAME" in kept
    # The kill moments are drawn over the time a build into this output takes (two timed
    # builds, v2 and back to v1, with the repository in place).
    durations = []
    for version in ("v2", "v1"):
        make_site(site, 600, version)
        t0 = time.time()
        subprocess.run([str(feedgen), "build", str(site), "--output", str(out), "--quiet"], check=True)
        durations.append(time.time() - t0)
        assert snapshot(out, skip=user) == references[version]

    rng = random.Random(20261202)
    duration = min(durations)
    holds, outcomes = "v1", []
    for kill in range(20):
        target = "v2" if holds == "v1" else "v1"
        make_site(site, 600, target)
        proc = subprocess.Popen([str(feedgen), "build", str(site), "--output", str(out), "--quiet"])
        time.sleep(rng.uniform(0.05, 1.5) * duration)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        now = snapshot(out, skip=user)
        if now == references[target]:
            holds = target
            outcomes.append("new")
        else:
            assert now == references[holds], f"kill {kill}: the output is neither the previous build nor the new one"
            outcomes.append("previous")
        assert {p: d for p, d in snapshot(out).items() if p.split("/")[0] in user} == kept, f"kill {kill}: .git/ or CNAME changed"
    print(f"kill test with a deploy repository: build {duration:.2f} s; outcomes {outcomes}")
    assert "previous" in outcomes
    subprocess.run([str(feedgen), "build", str(site), "--output", str(out), "--quiet"], check=True)
    assert snapshot(out, skip=user) == references[target]
    assert subprocess.run(git + ["fsck", "--no-progress"], capture_output=True).returncode == 0
