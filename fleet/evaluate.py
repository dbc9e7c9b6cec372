"""What a server-side apply of one (desired manifest, live object) pair
would do, as `smdx diff LIVE CONFIG` tells it: whether the object changes
(the fields added, removed and modified), the conflicts the apply meets,
the ownership that moves between managers, or why it fails.

This module runs inside Spark's Python workers (smdx_fleet.py ships it with
addPyFile) and needs nothing but smdx and the standard library, so it can be
used, and is tested, without Spark. Each worker process keeps one Evaluator
per schema in `_EVALUATORS`: the schema is read and its field managers are
made once per process, not once per task or pair.

    ev = evaluator(schema_paths=())          # the embedded Kubernetes schema
    row = ev.evaluate("id-1", desired_json, live_json_or_None, "fleet", False)
    row["status"]                            # "unchanged", "changed", ...
"""

import json
import os
import warnings

import smdx

# The statuses of a pair: nothing would change; the object or its ownership
# would change; the apply would fail on other managers' fields; the pair
# cannot be applied (invalid objects, unknown kinds, ...).
UNCHANGED, CHANGED, CONFLICT, ERROR = (
    "unchanged", "changed", "conflict", "error")
STATUSES = (UNCHANGED, CHANGED, CONFLICT, ERROR)

# The result table's columns, in order. `added`, `removed` and `modified`
# are field paths as smdx prints them ('.spec.containers[name="web"].image');
# `gains` and `losses` list (manager, path) pairs, the manager labelled as
# `smdx diff` labels it (the name, "/SUBRESOURCE" for a subresource's entry,
# and " (Apply)" or " (Update)" when the name has entries of both kinds).
COLUMNS = (
    "id", "api_version", "kind", "namespace", "name", "status", "create",
    "changes", "added", "removed", "modified", "conflicts", "gains", "losses",
    "error_kind", "error",
)

# The field manager's own bookkeeping, which `smdx diff` leaves out of the
# object diff (it shows ownership apart).
_MANAGED_FIELDS = ".metadata.managedFields"

_ERROR_KINDS = (
    (smdx.KindNotFoundError, "not-found"),
    (smdx.LimitError, "limit"),
    (smdx.ImmutableError, "immutable"),
    (smdx.BadRequestError, "bad-request"),
    (smdx.InvalidError, "invalid"),
    (smdx.Error, "internal"),
)


class Evaluator:
    """Applies pairs with one schema. Field managers are made on first use
    of an apiVersion and kind and kept. Not thread-safe (one per process)."""

    def __init__(self, schema_paths=()):
        self.schema_paths = tuple(schema_paths)
        self.schema = (smdx.Schema.from_files(*self.schema_paths)
                       if self.schema_paths else None)
        self._field_managers = {}

    def field_manager(self, api_version, kind):
        key = (api_version, kind)
        fm = self._field_managers.get(key)
        if fm is None:
            fm = smdx.FieldManager(api_version, kind, schema=self.schema)
            self._field_managers[key] = fm
        return fm

    def evaluate(self, pair_id, desired, live, manager, force=False):
        """The result row (a dict with COLUMNS) of applying `desired` (JSON
        text) by `manager` onto `live` (JSON text; None or "" when the object
        does not exist yet). Never raises for bad input: that is an error
        row."""
        row = dict.fromkeys(COLUMNS)
        row.update(id=pair_id, status=ERROR, create=not live, changes=0,
                   added=[], removed=[], modified=[], conflicts=[], gains=[],
                   losses=[])
        try:
            config = _parse(desired, "the desired manifest")
            stored = _parse(live, "the live object") if live else None
        except ValueError as e:
            row.update(error_kind="parse", error=str(e))
            return row
        # Like `smdx diff`: the resource is the live object's, else the
        # manifest's.
        target = stored if stored is not None else config
        meta = _metadata(config) or _metadata(target)
        row.update(api_version=_text(target.get("apiVersion")),
                   kind=_text(target.get("kind")),
                   namespace=_text(meta.get("namespace")),
                   name=_text(meta.get("name")))
        if not row["api_version"] or not row["kind"]:
            row.update(error_kind="invalid", error=(
                ("the live object" if stored is not None else "the object")
                + " has no apiVersion and kind"))
            return row
        # A create compares with an empty object of the resource's type.
        before = live if stored is not None else {
            "apiVersion": row["api_version"], "kind": row["kind"]}
        try:
            fm = self.field_manager(row["api_version"], row["kind"])
            result = fm.apply(live or None, desired, manager, force,
                              output="json")
            diff = smdx.diff(before, result, schema=self.schema)
        except smdx.ConflictError as e:
            row.update(status=CONFLICT, conflicts=[
                {"manager": c.manager, "path": c.path} for c in e.conflicts])
            return row
        except smdx.Error as e:
            row.update(error_kind=_error_kind(e), error=str(e))
            return row
        for k in ("added", "removed", "modified"):
            row[k] = [p for p in diff[k] if not p.startswith(_MANAGED_FIELDS)]
        row["changes"] = len(row["added"]) + len(row["removed"]) + len(
            row["modified"])
        applied = json.loads(result)
        row["gains"], row["losses"] = _ownership_moves(
            _managed_fields(stored), _managed_fields(applied))
        moved = row["gains"] or row["losses"]
        row["status"] = CHANGED if row["changes"] or moved else UNCHANGED
        return row


# The Evaluators of this process, by schema files.
_EVALUATORS = {}


def evaluator(schema_paths=()):
    """This process's Evaluator for the schema files (none: the embedded
    Kubernetes schema), made on first use."""
    key = tuple(schema_paths)
    ev = _EVALUATORS.get(key)
    if ev is None:
        # smdx warns (once per call site) about invalid managedFields that an
        # apply passes over; the table has no place for warnings.
        warnings.simplefilter("ignore", smdx.ManagedFieldsWarning)
        ev = Evaluator(key)
        _EVALUATORS[key] = ev
    return ev


def evaluate_partition(rows, schema_paths, manager, force):
    """The result rows of an iterator of (id, desired, live) rows: the body
    of the Spark job's mapPartitions."""
    ev = evaluator(schema_paths)
    for pair_id, desired, live in rows:
        yield ev.evaluate(pair_id, desired, live, manager, force)


def _parse(text, what):
    if text is None or text == "":
        raise ValueError(f"{what} is missing")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ValueError(f"{what}: invalid JSON: {e}") from None
    if not isinstance(obj, dict):
        raise ValueError(f"{what}: expected an object, got "
                         f"{type(obj).__name__}")
    return obj


def _metadata(obj):
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}


def _text(v):
    return v if isinstance(v, str) else None


def _error_kind(e):
    for cls, name in _ERROR_KINDS:
        if isinstance(e, cls):
            return name
    return "internal"


def _managed_fields(obj):
    if obj is None:
        return []
    entries = _metadata(obj).get("managedFields")
    return entries if isinstance(entries, list) else []


def _entry_key(e):
    # How the apiserver tells entries apart: an Update entry per apiVersion.
    op = e.get("operation", "")
    return (e.get("manager", ""), op, e.get("subresource", ""),
            e.get("apiVersion", "") if op == "Update" else "")


def _entry_paths(e):
    # blame() reads nothing but metadata.managedFields: one entry alone
    # gives that entry's set.
    return set(smdx.blame({"metadata": {"managedFields": [e]}}))


def _ownership_moves(before, after):
    """(gains, losses): [{"manager", "path"}] per entry whose set grows or
    shrinks from `before` to `after` (managedFields lists)."""
    was = {_entry_key(e): _entry_paths(e) for e in before
           if isinstance(e, dict)}
    now = {_entry_key(e): _entry_paths(e) for e in after
           if isinstance(e, dict)}
    ops = {}
    for key in list(was) + list(now):
        ops.setdefault(key[0], set()).add(key[1])
    gains, losses = [], []
    for key in dict.fromkeys(list(now) + list(was)):
        label = key[0] + (f"/{key[2]}" if key[2] else "")
        if len(ops[key[0]]) > 1:
            label += f" ({key[1]})"
        a, b = was.get(key, set()), now.get(key, set())
        gains += [{"manager": label, "path": p} for p in sorted(b - a)]
        losses += [{"manager": label, "path": p} for p in sorted(a - b)]
    return gains, losses


if __name__ == "__main__":
    # `python evaluate.py DESIRED [LIVE] [MANAGER]`: one pair's row, from
    # JSON or YAML files.
    import sys

    def _read(path):
        with open(path, encoding="utf-8") as f:
            return json.dumps(smdx.load_all(f.read())[0])

    args = sys.argv[1:]
    if not 1 <= len(args) <= 3:
        sys.exit("usage: evaluate.py DESIRED [LIVE] [MANAGER]")
    print(json.dumps(evaluator().evaluate(
        os.path.basename(args[0]), _read(args[0]),
        _read(args[1]) if len(args) > 1 else None,
        args[2] if len(args) > 2 else "kubectl"), indent=2))
