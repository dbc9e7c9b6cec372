#!/usr/bin/env python3
"""Checks a directory of manifests against the live objects, the way a CI
job guards a GitOps repository: would `kubectl apply --server-side` of each
manifest, by our field manager, conflict with another manager?

    check_manifests.py MANIFESTS LIVE [--manager NAME] [--schema FILE ...]

MANIFESTS and LIVE are directories of .yaml/.yml/.json files (multi-document
files and `kind: List` are read too). Live objects are what
`kubectl get -o yaml` prints, with their metadata.managedFields; a manifest
without a live object is a create. Prints one line per object and exits 1
when any apply would conflict (or fail), 0 when all would apply.
"""

import argparse
import os
import sys

import smdx


def read_objects(directory):
    """Every object of the directory's manifest files, with its file."""
    for root, _, files in sorted(os.walk(directory)):
        for name in sorted(files):
            if not name.endswith((".yaml", ".yml", ".json")):
                continue
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                docs = smdx.load_all(f.read())
            for doc in docs:
                if doc.get("kind", "").endswith("List") and "items" in doc:
                    for item in doc["items"]:
                        yield path, item
                else:
                    yield path, doc


def key(obj):
    """How objects pair: API group, kind, namespace, name."""
    group = obj.get("apiVersion", "").rpartition("/")[0]
    meta = obj.get("metadata") or {}
    return (group, obj.get("kind"), meta.get("namespace", ""), meta.get("name"))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("manifests")
    p.add_argument("live")
    p.add_argument("--manager", default="kubectl")
    p.add_argument("--schema", action="append", default=[],
                   help="OpenAPI or CRD files (default: built-in kinds)")
    args = p.parse_args(argv)

    schema = smdx.Schema.from_files(*args.schema) if args.schema else None
    live = {key(o): o for _, o in read_objects(args.live)}
    managers = {}
    failed = 0
    for path, manifest in read_objects(args.manifests):
        name = f"{manifest.get('kind')} {key(manifest)[3]} ({path})"
        current = live.get(key(manifest))
        target = current or manifest
        api = (target.get("apiVersion"), target.get("kind"))
        try:
            if api not in managers:
                managers[api] = smdx.FieldManager(*api, schema=schema)
            managers[api].apply(current, manifest, args.manager)
            print(f"ok        {name}")
        except smdx.ConflictError as e:
            failed += 1
            print(f"conflict  {name}")
            for c in e.conflicts:
                print(f"          {c.path} is owned by {c.manager}")
        except smdx.Error as e:
            failed += 1
            print(f"error     {name}: {e}")
    print(f"{failed} of the manifests would not apply" if failed
          else "every manifest would apply")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
