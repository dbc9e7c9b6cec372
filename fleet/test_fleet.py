"""Tests of the fleet job, run by scripts/test-fleet: evaluate.py on pairs
made by hand, check.py's reading of `smdx diff`, and the Spark job in local
mode on 10,000 generated pairs, checked pair by pair against the smdx
command, on 2 CPUs (local[2]) and on 1 (local[1], the process pinned to one
CPU), printing both throughputs, and once more from Parquet to Parquet with
--force and a CRD schema.

The smdx command is $SMDX_CLI (default: build/smdx of the checkout).
"""

import argparse
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import check  # noqa: E402
import evaluate  # noqa: E402
import generate  # noqa: E402
import smdx  # noqa: E402

SMDX = os.environ.get("SMDX_CLI") or os.path.join(ROOT, "build", "smdx")
PAIRS = 10_000
MANAGER = "fleet"
WIDGETS = os.path.join(ROOT, "testdata", "manifests", "crd-widgets.yaml")

needs_cli = pytest.mark.skipif(not os.access(SMDX, os.X_OK),
                               reason=f"no smdx command at {SMDX}")


def _load(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return smdx.load_all(f.read())[0]


def _json(obj):
    return None if obj is None else json.dumps(obj)


@pytest.fixture(scope="module")
def deployment():
    return _load("testdata/manifests/deployment-web.yaml")


@pytest.fixture(scope="module")
def fm():
    return smdx.FieldManager("apps/v1", "Deployment")


def _evaluate(desired, live, force=False, schema=()):
    return evaluate.evaluator(schema).evaluate(
        "p", _json(desired) if not isinstance(desired, str) else desired,
        _json(live), MANAGER, force)


# ---- evaluate.py ------------------------------------------------------------


def test_reapplying_the_same_manifest_changes_nothing(deployment, fm):
    row = _evaluate(deployment, fm.apply(None, deployment, MANAGER))
    assert row["status"] == "unchanged"
    assert (row["changes"], row["gains"], row["losses"]) == (0, [], [])
    assert (row["kind"], row["namespace"], row["name"]) == (
        "Deployment", "shop", "web")


def test_an_edited_value_is_a_modified_field(deployment, fm):
    live = fm.apply(None, deployment, MANAGER)
    desired = json.loads(json.dumps(deployment))
    desired["spec"]["replicas"] = 5
    row = _evaluate(desired, live)
    assert row["status"] == "changed"
    # The registry counts the spec change in the generation.
    assert row["modified"] == [".metadata.generation", ".spec.replicas"]
    assert row["changes"] == 2 and not row["create"]


def test_a_field_another_manager_set_conflicts_unless_forced(deployment, fm):
    live = fm.apply(None, deployment, MANAGER)
    scaled = json.loads(json.dumps(live))
    scaled["spec"]["replicas"] = 9
    live = fm.update(live, scaled, "hpa-controller")
    row = _evaluate(deployment, live)
    assert row["status"] == "conflict"
    assert row["conflicts"] == [{"manager": '"hpa-controller" using apps/v1',
                                 "path": ".spec.replicas"}]
    row = _evaluate(deployment, live, force=True)
    assert row["status"] == "changed"
    assert {"manager": MANAGER, "path": ".spec.replicas"} in row["gains"]
    assert row["losses"] == [{"manager": "hpa-controller",
                              "path": ".spec.replicas"}]


def test_the_same_values_applied_by_another_manager_move_only_ownership():
    config = _load("testdata/manifests/configmap-web.yaml")
    live = smdx.FieldManager("v1", "ConfigMap").apply(None, config, "helm")
    row = _evaluate(config, live)
    assert row["status"] == "changed" and row["changes"] == 0
    assert row["gains"] and not row["losses"]


def test_a_pair_without_live_object_is_a_create(deployment):
    row = _evaluate(deployment, None)
    assert row["status"] == "changed" and row["create"]
    assert ".spec.replicas" in row["added"]


@pytest.mark.parametrize("desired, kind", [
    ("{not json", "parse"),
    ('["a list"]', "parse"),
    ('{"metadata": {"name": "x"}}', "invalid"),
    ('{"apiVersion": "example.com/v9", "kind": "Gizmo"}', "not-found"),
    ('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x",'
     ' "labels": [1]}}', "invalid"),
    ('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x",'
     ' "managedFields": [{"manager": "m"}]}}', "bad-request"),
])
def test_pairs_that_cannot_be_applied_are_error_rows(desired, kind):
    row = _evaluate(desired, None)
    assert row["status"] == "error" and row["error_kind"] == kind
    assert row["error"]


def test_each_process_reads_a_schema_once():
    assert evaluate.evaluator((WIDGETS,)) is evaluate.evaluator((WIDGETS,))
    assert evaluate.evaluator((WIDGETS,)) is not evaluate.evaluator(())
    widget = _load("testdata/manifests/widget-small.yaml")
    assert _evaluate(widget, None)["error_kind"] == "not-found"
    assert _evaluate(widget, None, schema=(WIDGETS,))["status"] == "changed"


# ---- check.py, on pairs made by hand ----------------------------------------


def _renamed(obj, name):
    if obj is None:
        return None
    obj = json.loads(json.dumps(obj))
    obj["metadata"]["name"] = name
    return obj


@needs_cli
def test_hand_made_pairs_agree_with_smdx_diff(deployment, fm):
    live = fm.apply(None, deployment, MANAGER)
    scaled = json.loads(json.dumps(live))
    scaled["spec"]["replicas"] = 9
    by_hpa = fm.update(live, scaled, "hpa-controller")
    # The applier's name also has an Update entry: labels name operations.
    by_update = fm.update(None, deployment, MANAGER)
    config = _load("testdata/manifests/configmap-web.yaml")
    pairs = [
        ("same", deployment, live),
        ("conflict", deployment, by_hpa),
        ("shared", config,
         smdx.FieldManager("v1", "ConfigMap").apply(None, config, "helm")),
        ("create", deployment, None),
        ("both-ops", deployment, by_update),
        ("invalid", {**deployment, "spec": 3}, live),
    ]
    # smdx diff pairs objects by name: each pair gets its own.
    pairs = [(i, _json(_renamed(d, i)), _json(_renamed(lv, i)))
             for i, d, lv in pairs]
    for force in (False, True):
        rows = {i: evaluate.evaluator().evaluate(i, d, lv, MANAGER, force)
                for i, d, lv in pairs}
        agree, bad, _ = check.check(SMDX, pairs, rows, MANAGER, force)
        assert bad == [] and agree == len(pairs)
    assert {g["manager"] for g in rows["both-ops"]["gains"]} == {
        "fleet (Apply)"}


@needs_cli
def test_the_check_finds_a_wrong_row(tmp_path):
    path = tmp_path / "pairs.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        generate.generate(300, 7, MANAGER, f)
    pairs = check.read_pairs(path)
    rows = {i: evaluate.evaluator().evaluate(i, d, lv, MANAGER)
            for i, d, lv in pairs}
    assert check.check(SMDX, pairs, rows, MANAGER)[1] == []

    def first(cond):
        return next(i for i in rows if cond(rows[i]))

    a = first(lambda r: len(r["gains"]) > 1)
    rows[a]["gains"].pop()
    b = first(lambda r: r["conflicts"])
    rows[b]["conflicts"][0]["manager"] = '"someone-else"'
    c = first(lambda r: r["status"] == "unchanged")
    rows[c]["status"] = "changed"
    d = first(lambda r: r["modified"] and not r["gains"])
    rows[d]["changes"] = 0
    e = first(lambda r: r["error_kind"] == "invalid")
    rows[e]["error"] += " (edited)"
    bad = dict(check.check(SMDX, pairs, rows, MANAGER)[1])
    assert sorted(bad) == sorted({a, b, c, d, e})


def test_ownership_without_an_object_diff_is_read_as_a_change():
    view = check.parse_block([
        "ownership changes:",
        "  fleet gains 2 fields:",
        "    .spec.replicas  (shared with helm)",
        '    .spec.template.spec.containers[name="web"].image',
    ])
    assert view["status"] == "changed" and view["diff_lines"] == 0
    assert view["gains"] == {
        ("fleet", ".spec.replicas"),
        ("fleet", '.spec.template.spec.containers[name="web"].image')}
    assert view["counts_ok"]


# ---- The Spark job ----------------------------------------------------------


def _clean_env():
    # Each job sets up its own Spark, as a user's run would.
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("SPARK_", "PYSPARK_"))}


def _one_cpu():
    # The whole job (the JVM, its compiler and collector threads, the Python
    # workers) on one CPU: local[1] alone runs one task at a time but lets
    # the JVM's share of each pair run beside it on another CPU.
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def run_job(tmp, *args, one_cpu=False):
    """Runs smdx_fleet.py as a user does, with the temporary folder `tmp`,
    which it must leave empty; returns its summary."""
    os.makedirs(tmp)
    p = subprocess.run(
        [sys.executable, os.path.join(HERE, "smdx_fleet.py"),
         "--manager", MANAGER, *map(str, args)],
        capture_output=True, text=True, env={**_clean_env(), "TMPDIR": tmp},
        timeout=900, check=False, preexec_fn=_one_cpu if one_cpu else None)
    assert p.returncode == 0, p.stderr[-5000:]
    assert os.listdir(tmp) == []
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def pairs_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("fleet") / "pairs.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        generate.generate(PAIRS, 1, MANAGER, f)
    return path


@pytest.fixture(scope="module")
def two_cores(pairs_file, tmp_path_factory):
    base = tmp_path_factory.mktemp("fleet")
    out = base / "two-cores"
    summary = run_job(base / "tmp", "--input", pairs_file, "--output", out,
                      "--format", "jsonl", "--master", "local[2]")
    return out, summary


@needs_cli
def test_the_job_agrees_with_smdx_diff_on_every_pair(pairs_file, two_cores):
    out, summary = two_cores
    pairs = check.read_pairs(pairs_file)
    rows = check.read_results(out)
    assert len(pairs) == PAIRS and len(rows) == PAIRS
    agree, bad, statuses = check.check(SMDX, pairs, rows, MANAGER)
    assert bad == [], bad[:10]
    assert agree == PAIRS
    assert summary["pairs"] == PAIRS
    assert summary["status"] == statuses
    assert all(statuses[s] > 0 for s in evaluate.STATUSES), statuses
    assert summary["cores"] == 2 and summary["partitions"] >= 2
    with open(os.path.join(out, "_summary.json"), encoding="utf-8") as f:
        assert json.load(f) == summary


def test_one_cpu_makes_the_same_table(pairs_file, two_cores, tmp_path,
                                      capsys):
    out2, summary2 = two_cores
    out1 = tmp_path / "one-core"
    summary1 = run_job(tmp_path / "tmp", "--input", pairs_file, "--output",
                       out1, "--master", "local[1]", one_cpu=True)
    assert summary1["cores"] == 1
    assert check.read_results(out1) == check.read_results(out2)
    with capsys.disabled():
        print(f"\nfleet job on {PAIRS} pairs, Spark local mode: 1 CPU "
              f"{summary1['pairs_per_second']:.0f} pairs/s "
              f"({summary1['seconds']:.1f} s), 2 CPUs "
              f"{summary2['pairs_per_second']:.0f} pairs/s "
              f"({summary2['seconds']:.1f} s)")


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    import smdx_fleet

    args = argparse.Namespace(master="local[2]", log_level="ERROR")
    workdir = tmp_path_factory.mktemp("spark")
    env = dict(os.environ)
    session = smdx_fleet.start_spark(args, str(workdir))
    yield session
    session.stop()
    os.environ.clear()
    os.environ.update(env)


@needs_cli
def test_parquet_in_and_out_with_force_and_a_crd_schema(spark, tmp_path):
    jsonl = tmp_path / "pairs.jsonl"
    with open(jsonl, "w", encoding="utf-8") as f:
        generate.generate(3000, 2, MANAGER, f, (WIDGETS,))
    parquet = tmp_path / "pairs.parquet"
    spark.read.json(str(jsonl)).write.parquet(str(parquet))
    out = tmp_path / "out"
    summary = run_job(tmp_path / "tmp", "--input", parquet, "--output", out,
                      "--format", "parquet", "--force", "--schema", WIDGETS,
                      "--master", "local[2]")
    assert summary["force"] and summary["status"]["conflict"] == 0
    as_json = tmp_path / "out-json"
    spark.read.parquet(str(out)).write.json(str(as_json))
    pairs = check.read_pairs(jsonl)
    rows = check.read_results(as_json)
    assert any(r["kind"] == "Widget" and r["status"] == "changed"
               for r in rows.values())
    agree, bad, _ = check.check(SMDX, pairs, rows, MANAGER, force=True,
                                schema_paths=(WIDGETS,))
    assert bad == [] and agree == len(pairs)
