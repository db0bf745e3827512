"""Two source trees read the same benchmark sets: the committed reader against a candidate (a
worktree with another network in vision/learned/models/, its confidence table refitted), set by
set. A tool for deciding what to keep, not a test: run it, read it.

    git worktree add /tmp/cand HEAD
    cp NET.onnx NET.json /tmp/cand/vision/learned/models/          # under the stem it replaces
    (cd /tmp/cand && /work/main/.venv/bin/python bench/bench_vision.py --n 300 --kinds detrak \\
        --fit-seeds 1,2,3,4 --fit-confidence vision/confidence.json)
    .venv/bin/python bench/compare_trees.py /tmp/cand --kinds detrak --seeds 1,3 \\
        [--blender DIR...] [--jobs 2] [--out DIR]

Each tree runs bench/bench_vision.py (and bench/bench_photoreal.py on --blender) with its own
code and models, `--jobs` at a time; their counts are kept in --out, and a set already counted
there is not run again (a session cut short goes on where it stopped). The figures are the ones
the keep-or-not rules of docs/vision.md are written in: errors (the face F1's fp + fn: a flat die
not read right, a face reported wrong or where no die lies), cocked dice flagged, faces read at
0.9 or more that are wrong, and F1; where a set has an arena (Strike), the dice found whose in /
out of it is wrong (session 56: a rule on the arena is written in that). Sessions 16-29 ran
these by hand, each with its own scripts.
Beside them, scene against scene (counts written since session 40): how many scenes the candidate
reads with fewer errors and with more, and a sign test's p, the chance of a split that uneven if
neither tree read better: a total moved by a few errors is noise or not by that.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TREES = ("committed", "candidate")


def figures(c: dict) -> dict:
    """The rule figures of one kind's counts (scoring.Tally's)."""
    tp, fp, fn = c.get("tp", 0), c.get("fp", 0), c.get("fn", 0)
    return {
        "errors": fp + fn,
        "cocked": c.get("cocked_flagged", 0),
        "of_cocked": c.get("cocked", 0),
        "sure_wrong": c.get("sure_total", 0) - c.get("sure_right", 0),
        "f1": 2 * tp / max(2 * tp + fp + fn, 1),
        # dice found whose in / out of the arena is wrong, of those judged (Strike's scenes)
        "arena_wrong": c.get("arena_n", 0) - c.get("arena_ok", 0),
        "of_arena": c.get("arena_n", 0),
    }


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: the chance of a split this uneven or more between scenes read
    better and worse if neither reader were better (ties left out). A gate of 80 scenes holds
    some 25 errors, so a total moved by 2-3 says nothing alone (docs/vision-history.md, Session
    39); this says how often it would."""
    n = wins + losses
    tail = sum(math.comb(n, k) for k in range(min(wins, losses) + 1))
    return min(1.0, 2 * tail / 2**n) if n else 1.0


def paired(committed: list[dict], candidate: list[dict]) -> dict[str, tuple[int, int, float]]:
    """Per figure, the scenes the candidate reads better, worse, and the sign test's p: the two
    trees' per-scene counts of one set (scoring.Tally.each), scene for scene."""
    if len(committed) != len(candidate):
        raise ValueError(f"the trees read {len(committed)} and {len(candidate)} scenes: not a pair")
    gains = {
        "errors": lambda c: -(c["fp"] + c["fn"]),
        "cocked": lambda c: c["cocked_flagged"],
        "sure_wrong": lambda c: c["sure_right"] - c["sure_total"],
    }
    out = {}
    for name, gain in gains.items():
        diffs = [gain(b) - gain(a) for a, b in zip(committed, candidate, strict=True)]
        wins, losses = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
        out[name] = (wins, losses, sign_test(wins, losses))
    return out


def summed(counts: list[dict]) -> dict:
    total: Counter = Counter()
    for c in counts:
        total.update(c)
    return dict(total)


def set_name(a, seed: int) -> str:
    """A seed's set, how far it was moved and whether it was read hinted with the dice's size:
    the counts of a moved or hinted set are another set's."""
    return f"seed{seed}" + (f"-moved{a.moved}" if a.moved else "") + ("-hinted" if a.hinted else "")


def jobs(trees: dict[str, Path], a, out: Path) -> list[tuple[list[str], Path, Path]]:
    """(command, tree to run it in, the counts file it writes), for every tree and set."""
    todo = []
    for label, tree in trees.items():
        for seed in a.seeds:
            path = out / f"{label}-{set_name(a, seed)}.json"
            cmd = ["bench/bench_vision.py", "--n", str(a.n), "--seed", str(seed), "--no-speed"]
            cmd += ["--moved", str(a.moved)] if a.moved else []
            cmd += ["--hinted"] if a.hinted else []
            todo.append(([*cmd, "--kinds", ",".join(a.kinds), "--json", str(path)], tree, path))
        if a.blender:
            path = out / f"{label}-blender.json"
            dirs = [str(d.resolve()) for d in a.blender]
            todo.append((["bench/bench_photoreal.py", *dirs, "--json", str(path)], tree, path))
    return todo


def run(cmd: list[str], tree: Path, path: Path, python: str) -> None:
    if _counted(path, cmd):
        return
    done = subprocess.run([python, *cmd], cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} in {tree} failed:\n{done.stderr[-2000:]}")


def _counted(path: Path, cmd: list[str]) -> bool:
    """Whether the set is already counted there, with as many scenes (one --out per comparison:
    a file names its tree and set, not which candidate was in the tree)."""
    if not path.exists():
        return False
    n = json.loads(path.read_text()).get("n")
    return n is None or "--n" not in cmd or str(n) == cmd[cmd.index("--n") + 1]


def _sets(a) -> list[str]:
    """The sets compared, in the order of their rows."""
    return [set_name(a, s) for s in a.seeds] + (["blender"] if a.blender else [])


def table(out: Path, a) -> list[str]:
    """A markdown table: a row per set and kind (and the seeds' sum), the two trees side by side."""
    sets = _sets(a)
    head = "| set | kind | " + " | ".join(f"{t}: errors, cocked, wrong >= 0.9, F1" for t in TREES)
    lines = [head + " |", "|---|---|---|---|"]
    for kind in a.kinds:
        rows = {}
        for name in sets:
            rows[name] = [_counts(out / f"{t}-{name}.json", kind) for t in TREES]
        if len(a.seeds) > 1:
            rows["seeds"] = [summed([rows[set_name(a, s)][j] for s in a.seeds]) for j in range(2)]
        for name, pair in rows.items():
            if all(pair):
                cells = " | ".join(_cell(figures(c)) for c in pair)
                lines.append(f"| {name} | {kind} | {cells} |")
    return lines


def paired_table(out: Path, a) -> list[str]:
    """Scene against scene: a row per set and kind whose counts files hold each scene's counts
    (those written before session 40 do not)."""
    sets = _sets(a)
    lines = [
        "| set | kind | scenes: fewer errors / more (p) | more cocked flagged / fewer (p) "
        "| fewer wrong >= 0.9 / more (p) |",
        "|---|---|---|---|---|",
    ]
    for kind in a.kinds:
        rows = {name: [_each(out / f"{t}-{name}.json", kind) for t in TREES] for name in sets}
        if len(a.seeds) > 1 and all(all(rows[set_name(a, s)]) for s in a.seeds):
            rows["seeds"] = [sum((rows[set_name(a, s)][j] for s in a.seeds), []) for j in range(2)]
        for name, pair in rows.items():
            if all(pair):
                cells = " | ".join(f"{w} / {lo} ({p:.2f})" for w, lo, p in paired(*pair).values())
                lines.append(f"| {name} | {kind} | {cells} |")
    return lines if len(lines) > 2 else []


def _each(path: Path, kind: str) -> list[dict]:
    return json.loads(path.read_text()).get("scenes", {}).get(kind, []) if path.exists() else []


def _counts(path: Path, kind: str) -> dict:
    return json.loads(path.read_text())["kinds"].get(kind, {}) if path.exists() else {}


def _cell(f: dict) -> str:
    """The rule figures; and in / out of the arena wrong where the set has an arena."""
    cell = f"{f['errors']}, {f['cocked']}/{f['of_cocked']}, {f['sure_wrong']}, {f['f1']:.4f}"
    return cell + (f"; in/out wrong {f['arena_wrong']}/{f['of_arena']}" if f["of_arena"] else "")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("candidate", type=Path, help="the candidate's source tree (a git worktree)")
    p.add_argument("--committed", type=Path, default=HERE, help="the tree to compare it with")
    p.add_argument("--kinds", type=lambda s: s.split(","), default=["pips", "strike", "detrak"])
    p.add_argument(
        "--seeds",
        type=lambda s: [int(v) for v in s.split(",") if v],
        default=[1, 3],
        help='comma-separated synthetic seeds; "" for none (the renders of --blender alone)',
    )
    p.add_argument("--n", type=int, default=150, help="scenes per kind and seed")
    p.add_argument("--blender", type=Path, nargs="*", default=[], help="rendered scene dirs")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--moved", type=int, default=0, metavar="PX", help="every scene moved by PX px")
    p.add_argument(
        "--hinted",
        action="store_true",
        help="every scene read knowing its dice's size (bench_vision --hinted: the watcher's)",
    )
    p.add_argument("--out", type=Path, default=None, help="keep the counts here (resumable)")
    p.add_argument("--python", default=sys.executable, help="the interpreter of both trees")
    a = p.parse_args(argv)
    if not (a.candidate / "bench" / "bench_vision.py").is_file():
        p.error(f"{a.candidate}: expected a source tree of this project (bench/bench_vision.py)")
    out = a.out or Path(tempfile.mkdtemp(prefix="arbitre-compare-"))
    out.mkdir(parents=True, exist_ok=True)
    trees = dict(zip(TREES, (a.committed.resolve(), a.candidate.resolve()), strict=True))
    with ThreadPoolExecutor(a.jobs) as pool:
        for f in [pool.submit(run, *job, a.python) for job in jobs(trees, a, out)]:
            f.result()
    print("\n".join(table(out, a)))
    print("\n".join(paired_table(out, a)))
    print(f"(counts in {out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
