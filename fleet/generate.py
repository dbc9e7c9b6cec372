"""Makes a fleet of (desired manifest, live object) pairs for the fleet job
and its test, the same for the same seed: JSON Lines with the columns `id`,
`desired` and `live` (JSON text; null when the object does not exist yet)
and `scenario` (what the pair was made to exercise).

    generate.py --count 10000 --seed 1 --manager fleet --output pairs.jsonl

The objects are the project's real manifests (testdata/manifests,
testdata/manifests-v1.37, examples/deployment.yaml), renamed and spread
over namespaces; the custom resources of testdata/manifests (Widgets) only
with --schema testdata/manifests/crd-widgets.yaml, which types them. Live
objects are made with smdx as a cluster would hold them: applied by the
fleet's manager (or by another one), sometimes then written by a
controller, so they carry managedFields. The scenarios:

  unchanged  the manifest the live object was applied from
  changed    a value edited (testdata/manifests/changes.txt, or a label)
  removed    a label the fleet's manager applied before, left out
  conflict   a field a controller has since set to another value
  shared     the object another manager applied, the same values
  create     no live object
  invalid    a manifest that does not fit its schema, an unknown kind, or
             one carrying managedFields
"""

import argparse
import copy
import json
import os
import random
import re
import sys

import smdx

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SOURCES = ("testdata/manifests", "testdata/manifests-v1.37",
            "examples/deployment.yaml")
# The kinds that need a CustomResourceDefinition the embedded schema lacks.
_SKIP = ("widget-large.yaml", "widget-small.yaml")
# Weights of the scenarios.
_SCENARIOS = (("unchanged", 30), ("changed", 25), ("removed", 10),
              ("conflict", 12), ("shared", 8), ("create", 10),
              ("invalid", 5))
_CONTROLLERS = ("kube-controller-manager", "hpa-controller", "ops-oncall")
_NOW = "2026-01-01T00:00:00Z"


def templates(root=_ROOT, custom=False):
    """(file name, object, edit) of each source manifest (with the custom
    resources: `custom`); edit is the (path, value) of changes.txt, or
    None."""
    edits = {}
    with open(os.path.join(root, "testdata/manifests/changes.txt"),
              encoding="utf-8") as f:
        for line in f:
            name, path, value = line.rstrip("\n").split("\t")
            edits[name] = (path, smdx.load_all(value)[0])
    out = []
    for source in _SOURCES:
        path = os.path.join(root, source)
        files = ([os.path.join(path, n) for n in sorted(os.listdir(path))]
                 if os.path.isdir(path) else [path])
        for file in files:
            name = os.path.basename(file)
            if not name.endswith(".yaml") or (name in _SKIP and not custom):
                continue
            with open(file, encoding="utf-8") as f:
                for obj in smdx.load_all(f.read()):
                    out.append((name, obj, edits.get(name)))
    return out


_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def set_path(obj, path, value):
    """Sets `path` (".spec.containers[0].image": fields and list indexes)
    in obj."""
    steps = [int(i) if i else k for k, i in _STEP.findall(path)]
    node = obj
    for s in steps[:-1]:
        node = node[s]
    node[steps[-1]] = value


def get_path(obj, path):
    node = obj
    for k, i in _STEP.findall(path):
        node = node[int(i)] if i else node[k]
    return node


def _other_value(v, rng):
    """A value of the same type as v that differs from it."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + rng.randint(1, 9)
    return f"{v}-{rng.randint(1, 99)}"


class Generator:
    def __init__(self, manager, seed, schema_paths=(), root=_ROOT):
        self.manager = manager
        self.rng = random.Random(seed)
        self.schema = (smdx.Schema.from_files(*schema_paths)
                       if schema_paths else None)
        self.templates = templates(root, custom=bool(schema_paths))
        self._fms = {}

    def fm(self, obj):
        key = (obj["apiVersion"], obj["kind"])
        if key not in self._fms:
            self._fms[key] = smdx.FieldManager(*key, schema=self.schema,
                                               now=_NOW)
        return self._fms[key]

    def base(self, i):
        """The i-th manifest: a template renamed into a namespace, with a
        label that varies."""
        name, tmpl, edit = self.templates[i % len(self.templates)]
        obj = copy.deepcopy(tmpl)
        meta = obj.setdefault("metadata", {})
        meta["name"] = f"{meta.get('name', 'obj')}-{i:06d}"
        if "namespace" in meta:
            meta["namespace"] = f"team-{self.rng.randrange(40):02d}"
        labels = meta.setdefault("labels", {})
        labels["fleet.example.com/cell"] = f"cell-{self.rng.randrange(8)}"
        return name, obj, edit

    def pair(self, i):
        """(scenario, desired, live) of pair i."""
        scenarios, weights = zip(*_SCENARIOS)
        scenario = self.rng.choices(scenarios, weights)[0]
        _, desired, edit = self.base(i)
        fm, m = self.fm(desired), self.manager
        label = ("metadata", "labels", "fleet.example.com/cell")
        if scenario == "unchanged":
            return scenario, desired, fm.apply(None, desired, m)
        if scenario == "changed":
            live = fm.apply(None, desired, m)
            if edit is not None and self.rng.random() < 0.7:
                set_path(desired, *edit)
            else:
                desired["metadata"]["labels"][label[2]] = "cell-moved"
            return scenario, desired, live
        if scenario == "removed":
            applied = copy.deepcopy(desired)
            applied["metadata"]["labels"]["fleet.example.com/canary"] = "true"
            return scenario, desired, fm.apply(None, applied, m)
        if scenario == "conflict":
            live = fm.apply(None, desired, m)
            written = copy.deepcopy(live)
            try:
                if edit is None or self.rng.random() >= 0.7:
                    raise KeyError(edit)
                path = edit[0]
                set_path(written, path,
                         _other_value(get_path(written, path), self.rng))
            except (KeyError, IndexError):
                written["metadata"]["labels"][label[2]] = "cell-drained"
            owner = self.rng.choice(_CONTROLLERS)
            return scenario, desired, fm.update(live, written, owner)
        if scenario == "shared":
            owner = self.rng.choice(("helm", "argocd-controller"))
            return scenario, desired, fm.apply(None, desired, owner)
        if scenario == "create":
            return scenario, desired, None
        # invalid
        live = fm.apply(None, desired, m)
        how = self.rng.randrange(3)
        if how == 0:
            desired["metadata"]["labels"] = ["not", "a", "map"]
        elif how == 1:
            desired["metadata"]["managedFields"] = live["metadata"][
                "managedFields"]
        else:
            desired["apiVersion"], desired["kind"] = "example.com/v9", "Gizmo"
            live = None
        return scenario, desired, live


def generate(count, seed, manager, out, schema_paths=()):
    """Writes `count` pairs as JSON Lines to the file object `out`; returns
    the count of each scenario."""
    g = Generator(manager, seed, schema_paths)
    counts = {}
    for i in range(count):
        scenario, desired, live = g.pair(i)
        counts[scenario] = counts.get(scenario, 0) + 1
        out.write(json.dumps({
            "id": f"pair-{i:06d}",
            "scenario": scenario,
            "desired": json.dumps(desired, separators=(",", ":")),
            "live": None if live is None else json.dumps(
                live, separators=(",", ":")),
        }, separators=(",", ":")) + "\n")
    return counts


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=10000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--manager", default="fleet",
                   help="the fleet's field manager (default: fleet)")
    p.add_argument("--schema", action="append", default=[],
                   help="schema files for custom resources (repeat)")
    p.add_argument("--output", required=True, help="a .jsonl file")
    args = p.parse_args(argv)
    with open(args.output, "w", encoding="utf-8") as f:
        counts = generate(args.count, args.seed, args.manager, f,
                          args.schema)
    print(json.dumps({"pairs": args.count, "scenarios": counts},
                     sort_keys=True))


if __name__ == "__main__":
    sys.exit(main())
