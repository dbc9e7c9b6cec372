"""Checks the fleet job's table against the single-process command: runs
`smdx diff --live LIVE CONFIG...` on the same pairs and requires, for every
pair, the same status (unchanged, changed, conflict, error), the same
conflicts (path and owning manager), the same ownership moves (the fields
each manager gains and loses), an object diff exactly when the table counts
changed fields, and for a failed apply the same message.

    check.py --smdx build/smdx --pairs pairs.jsonl --results OUT [--force]

OUT is the job's JSON Lines output (a directory of part files, or a file).
Exits 0 when every pair agrees, 1 otherwise (the first disagreements are
printed).

How the command's output is split per pair: the pairs go to `smdx diff` in
batches, each a `kind: List` of the desired manifests and one of their live
objects. `smdx diff` prints nothing for an object that would not change, and
the ownership moves of an object whose fields stay the same without naming
it, so before each manifest the batch holds a marker: the create of an
empty ConfigMap in a namespace of its own, whose diff names it and which
moves no ownership. What lies between two markers is the pair's. Failures
go to standard error, each naming the object's position in the List.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

_MARKER_NS = "smdx-fleet-check"
_MARKER = re.compile(r"^--- live/v1/ConfigMap/" + _MARKER_NS +
                     r"/marker-(\d+)$")
_ERROR = re.compile(r"^error(?: \((?P<kind>[A-Za-z]+)\))?: .*?"
                    r"\((?P<src>[^()]*), object (?P<pos>\d+)\): (?P<msg>.*)$")
_CONFLICT = re.compile(r"^  (?P<path>.+)  owned by (?P<manager>.+)$")
_OWNERSHIP = re.compile(r"^  (?P<label>.+) (?P<verb>gains|loses) "
                        r"(?P<n>\d+) fields?:$")
_MOVED = re.compile(
    r"^    (?P<path>.+?)(?:  \((?:taken from|shared with) .*\))*$")


def marker(j):
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": f"marker-{j}", "namespace": _MARKER_NS}}


def _list(items):
    return '{"apiVersion":"v1","kind":"List","items":[' + ",".join(
        items) + "]}"


def run_batch(smdx, pairs, manager, force, schema_paths, workdir, n):
    """The command's view of each pair of `pairs` (id, desired, live): a
    list of dicts in the same order."""
    live_path = os.path.join(workdir, f"live-{n}.json")
    config_path = os.path.join(workdir, f"desired-{n}.json")
    with open(live_path, "w", encoding="utf-8") as f:
        f.write(_list(live for _, _, live in pairs if live))
    items = []
    for j, (_, desired, _) in enumerate(pairs):
        items += [json.dumps(marker(j)), desired]
    with open(config_path, "w", encoding="utf-8") as f:
        f.write(_list(items))
    # A batch is one document of many objects: the per-document limits
    # (for one object) are lifted.
    big = str(1 << 40)
    cmd = [smdx, "diff", "--color", "never", "--field-manager", manager,
           "--max-object-bytes", big, "--max-yaml-nodes", big,
           "--live", live_path, config_path]
    if force:
        cmd.append("--force-conflicts")
    for path in schema_paths:
        cmd += ["--schema", path]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode not in (0, 1, 2):
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: "
                           f"{p.stderr[-2000:]}")
    errors = parse_errors(p.stderr, config_path)
    views = parse_diff(p.stdout, len(pairs))
    for pos, (kind, msg) in errors.items():
        j, real = divmod(pos - 1, 2)
        if not real:
            raise RuntimeError(f"marker {j} failed: {msg}")
        if views[j]["status"] != "unchanged":
            raise RuntimeError(f"object {pos} printed a diff and an error")
        views[j] = {"status": "error", "error_kind": kind, "error": msg}
    return views


def parse_errors(stderr, source):
    """{position in the List: (kind or None, message)} of the errors on
    standard error. A message's further lines are kept with it."""
    errors, last = {}, None
    for line in stderr.splitlines():
        m = _ERROR.match(line)
        if m and m["src"] == source:
            last = int(m["pos"])
            errors[last] = (m["kind"], m["msg"])
        elif last is not None:
            kind, msg = errors[last]
            errors[last] = (kind, msg + "\n" + line)
        elif line.strip():
            raise RuntimeError(f"smdx diff: {line}")
    return errors


def parse_diff(stdout, count):
    """The view of each of `count` pairs from `smdx diff`'s standard output
    (markers before each pair)."""
    blocks = [None] * count
    lines = stdout.splitlines()
    i, j = 0, -1
    current = []
    while i < len(lines):
        m = _MARKER.match(lines[i])
        if m is None:
            if j < 0:
                raise RuntimeError(f"output before the first marker: "
                                   f"{lines[i]!r}")
            current.append(lines[i])
            i += 1
            continue
        if j >= 0:
            blocks[j] = current
        j, current = int(m[1]), []
        if j != sum(b is not None for b in blocks):
            raise RuntimeError(f"marker {j} out of order")
        # The marker's own diff, up to the blank line between objects: an
        # empty ConfigMap's create moves no ownership, so no "ownership
        # changes:" follows it.
        i += 1
        while i < len(lines) and lines[i]:
            i += 1
    if j >= 0:
        blocks[j] = current
    if any(b is None for b in blocks):
        raise RuntimeError("a marker is missing from the output")
    return [parse_block(b) for b in blocks]


def parse_block(lines):
    """One object's part of `smdx diff`'s output, as a view."""
    while lines and not lines[0]:
        lines = lines[1:]
    while lines and not lines[-1]:
        lines = lines[:-1]
    view = {"status": "changed" if lines else "unchanged", "diff_lines": 0,
            "conflicts": set(), "gains": set(), "losses": set(),
            "counts_ok": True}
    if not lines:
        return view
    if lines[0].startswith("conflicts"):
        view["status"] = "conflict"
        for line in lines[1:]:
            m = _CONFLICT.match(line)
            if m is None:
                raise RuntimeError(f"unexpected conflict line {line!r}")
            view["conflicts"].add((m["path"], m["manager"]))
        return view
    try:
        own = lines.index("ownership changes:")
    except ValueError:
        own = len(lines)
    diff = lines[:own]
    if diff and not diff[0].startswith("--- live/"):
        raise RuntimeError(f"unexpected output {diff[0]!r}")
    view["diff_lines"] = sum(
        1 for line in diff[2:] if line[:1] in "+-")
    # "  LABEL gains|loses N fields:", then N lines of paths.
    listed = []  # [label, verb, N, paths seen]
    for line in lines[own + 1:]:
        m = _OWNERSHIP.match(line)
        if m:
            listed.append([m["label"], m["verb"], int(m["n"]), 0])
            continue
        m = _MOVED.match(line)
        if m is None or not listed:
            raise RuntimeError(f"unexpected ownership line {line!r}")
        label, verb = listed[-1][:2]
        view[verb.replace("loses", "losses")].add((label, m["path"]))
        listed[-1][3] += 1
    view["counts_ok"] = all(n == seen for _, _, n, seen in listed)
    return view


def read_results(path):
    """{id: row} of the job's JSON Lines output."""
    files = ([os.path.join(path, n) for n in sorted(os.listdir(path))
              if n.endswith(".json") and not n.startswith((".", "_"))]
             if os.path.isdir(path) else [path])
    rows = {}
    for file in files:
        with open(file, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                rows[row["id"]] = row
    return rows


def disagreement(row, view):
    """Why the table's row and the command's view differ, or None."""
    if row is None:
        return "no row in the table"
    if row["status"] != view["status"]:
        return f"status {row['status']} in the table, {view['status']} " \
               f"from smdx diff"
    if view["status"] == "error":
        # Messages of the field manager compare as they are; the command
        # words its own checks (kinds, apiVersion) otherwise.
        if view["error_kind"] and row.get("error") != view["error"]:
            return f"error {row.get('error')!r} in the table, " \
                   f"{view['error']!r} from smdx diff"
        return None
    conflicts = {(c["path"], c["manager"]) for c in row.get("conflicts", [])}
    if conflicts != view["conflicts"]:
        return f"conflicts {sorted(conflicts)} in the table, " \
               f"{sorted(view['conflicts'])} from smdx diff"
    for k in ("gains", "losses"):
        moves = {(g["manager"], g["path"]) for g in row.get(k, [])}
        if moves != view[k]:
            return f"{k}: only in the table {sorted(moves - view[k])}, only " \
                   f"from smdx diff {sorted(view[k] - moves)}"
    if (row.get("changes", 0) > 0) != (view["diff_lines"] > 0):
        return f"{row.get('changes')} changed fields in the table, " \
               f"{view['diff_lines']} changed lines from smdx diff"
    if not view["counts_ok"]:
        return "smdx diff's ownership counts do not match its lists"
    return None


def check(smdx, pairs, results, manager, force=False, schema_paths=(),
          jobs=2):
    """(agreeing count, [(id, why)] of the others, counts by status)."""
    size = -(-len(pairs) // jobs) if pairs else 1
    batches = [pairs[k:k + size] for k in range(0, len(pairs), size)]
    with tempfile.TemporaryDirectory(prefix="smdx-fleet-check-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        views = [v for batch in pool.map(
            lambda nb: run_batch(smdx, nb[1], manager, force, schema_paths,
                                 tmp, nb[0]),
            enumerate(batches)) for v in batch]
    agree, bad, statuses = 0, [], {}
    for (pair_id, _, _), view in zip(pairs, views):
        why = disagreement(results.get(pair_id), view)
        if why is None:
            agree += 1
            statuses[view["status"]] = statuses.get(view["status"], 0) + 1
        else:
            bad.append((pair_id, why))
    return agree, bad, statuses


def read_pairs(path):
    pairs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            pairs.append((r["id"], r["desired"], r.get("live") or None))
    return pairs


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--smdx", required=True, help="the smdx command")
    p.add_argument("--pairs", required=True, help="the job's input (.jsonl)")
    p.add_argument("--results", required=True,
                   help="the job's output (JSON Lines)")
    p.add_argument("--manager", default="fleet")
    p.add_argument("--force", action="store_true")
    p.add_argument("--schema", action="append", default=[],
                   help="schema files, as the job had them (repeat)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="smdx processes at once")
    args = p.parse_args(argv)
    pairs = read_pairs(args.pairs)
    results = read_results(args.results)
    agree, bad, statuses = check(args.smdx, pairs, results, args.manager,
                                 args.force, args.schema, args.jobs)
    print(json.dumps({"pairs": len(pairs), "agree": agree,
                      "disagree": len(bad), "status": statuses},
                     sort_keys=True))
    for pair_id, why in bad[:20]:
        print(f"{pair_id}: {why}", file=sys.stderr)
    return 0 if not bad and len(results) == len(pairs) else 1


if __name__ == "__main__":
    sys.exit(main())
