"""Tests of the Python module: the scenarios of the command's tests (apply,
conflict, force, blame, a CRD with defaults, an immutable field) and the
module's own contracts (objects as dicts or text, errors, threads)."""

import copy
import datetime
import json
import pathlib
import subprocess
import sys
import threading

import pytest

import smdx

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
NOW = "2024-05-01T12:00:00Z"
WIDGETS_CRD = ROOT / "testdata" / "crds" / "widgets.yaml"


def deployment(replicas=2, image="nginx:1.25", name="web"):
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "app", "image": image}]},
            },
        },
    }


CRD = """
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, default: 3}
              region: {type: string, x-kubernetes-immutable: true}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
          status:
            type: object
            properties:
              ready: {type: boolean}
"""


def widget(**spec):
    return {"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "default"}, "spec": spec}


@pytest.fixture
def fm():
    return smdx.FieldManager("apps/v1", "Deployment", now=NOW)


def entries(obj):
    return obj["metadata"]["managedFields"]


# ---- apply, conflict, force, blame -------------------------------------------


def test_the_kubernetes_release_built_in_is_named():
    assert smdx.kubernetes_version == "v1.37.2"


def test_apply_creates_the_object_with_its_managed_fields(fm):
    stored = fm.apply(None, deployment(), "deployer")
    assert stored["spec"]["replicas"] == 2
    [entry] = entries(stored)
    assert entry["manager"] == "deployer"
    assert entry["operation"] == "Apply"
    assert entry["apiVersion"] == "apps/v1"
    assert entry["time"] == NOW
    assert entry["fieldsType"] == "FieldsV1"
    assert entry["fieldsV1"]["f:spec"]["f:replicas"] == {}


def test_built_in_kinds_get_the_apiservers_defaults():
    # A create by update owns what Kubernetes' defaulters set; with
    # builtin_defaults=False the merge is bare.
    on = smdx.FieldManager("apps/v1", "Deployment", now=NOW)
    created = on.update(None, deployment(), "kubectl-create")
    assert created["spec"]["revisionHistoryLimit"] == 10
    container = created["spec"]["template"]["spec"]["containers"][0]
    assert container["imagePullPolicy"] == "IfNotPresent"
    [entry] = entries(created)
    assert "f:revisionHistoryLimit" in entry["fieldsV1"]["f:spec"]
    off = smdx.FieldManager("apps/v1", "Deployment", now=NOW,
                            builtin_defaults=False)
    bare = off.update(None, deployment(), "kubectl-create")
    assert "revisionHistoryLimit" not in bare["spec"]
    assert "imagePullPolicy" not in bare["spec"]["template"]["spec"]["containers"][0]


def test_the_same_apply_again_changes_nothing(fm):
    stored = fm.apply(None, deployment(), "deployer")
    later = smdx.FieldManager("apps/v1", "Deployment", now="2030-01-01T00:00:00Z")
    assert later.apply(stored, deployment(), "deployer") == stored


def test_inputs_are_not_changed(fm):
    config = deployment()
    before = copy.deepcopy(config)
    fm.apply(None, config, "deployer")
    assert config == before


def test_empty_dicts_of_an_input_stay_apart(fm):
    # A call's empty dicts share one node (values are copy-on-write): what
    # the defaulters or the merge write into one must show in no other.
    created = deployment()
    created["spec"]["strategy"] = {}
    pod = created["spec"]["template"]["spec"]
    pod["containers"][0]["resources"] = {}
    pod["containers"][0]["securityContext"] = {}
    stored = fm.update(None, created, "creator")
    # The defaulters fill the strategy, and nothing else that was empty.
    assert stored["spec"]["strategy"]["type"] == "RollingUpdate"
    container = stored["spec"]["template"]["spec"]["containers"][0]
    assert container["resources"] == {}
    assert container["securityContext"] == {}
    config = copy.deepcopy(created)
    config["spec"]["template"]["spec"]["containers"][0]["resources"] = {
        "limits": {"cpu": "1"}}
    applied = fm.apply(stored, config, "deployer")
    container = applied["spec"]["template"]["spec"]["containers"][0]
    assert container["resources"] == {"limits": {"cpu": "1"}}
    assert container["securityContext"] == {}
    assert applied["spec"]["strategy"] == stored["spec"]["strategy"]


def test_strs_of_every_kind_cross_as_their_utf8(fm):
    # ASCII strs are read in place; the others (wider characters, str
    # subclasses, which CPython stores apart) through their UTF-8.
    class Name(str):
        pass

    values = ["plain", "", "caf\u00e9", "\u4e2d\u6587", "\U0001f600 x",
              Name("sub"), Name("s\u00fcb")]
    created = deployment()
    labels = created["metadata"].setdefault("labels", {})
    for i, v in enumerate(values):
        labels[Name(f"k{i}") if i % 2 else f"k{i}\u00e9" if i == 3 else
               f"k{i}"] = v
    stored = fm.apply(None, created, "deployer")
    got = stored["metadata"]["labels"]
    assert got == {str(k): str(v) for k, v in labels.items()}
    assert all(type(k) is str and type(v) is str for k, v in got.items())
    as_json = json.loads(fm.apply(None, json.dumps(created), "deployer"))
    assert as_json["metadata"]["labels"] == got


def test_every_python_kind_crosses(fm):
    # Each value is converted where it stays (lists all at once, then item
    # by item): tuples come back as lists, and every kind as itself.
    created = deployment(replicas=3)
    container = {"name": "app", "image": "nginx", "args": ("-a", "-b"),
                 "command": ["run"], "ports": ({"containerPort": 80},),
                 "securityContext": {"privileged": False}}
    created["spec"]["template"]["spec"]["containers"] = (container,)
    stored = fm.apply(None, created, "deployer")
    spec = stored["spec"]
    assert type(spec["replicas"]) is int and spec["replicas"] == 3
    got = spec["template"]["spec"]["containers"]
    assert type(got) is list and len(got) == 1
    assert got[0]["args"] == ["-a", "-b"] and got[0]["command"] == ["run"]
    assert got[0]["ports"][0]["containerPort"] == 80
    assert got[0]["securityContext"]["privileged"] is False
    assert json.loads(fm.apply(None, json.dumps(created), "deployer")) == stored


def test_conflict_names_manager_and_path(fm):
    stored = fm.apply(None, deployment(), "deployer")
    with pytest.raises(smdx.ConflictError) as info:
        fm.apply(stored, deployment(replicas=5), "autoscaler")
    e = info.value
    assert str(e) == ('Apply failed with 1 conflict: conflict with "deployer": '
                      ".spec.replicas")
    assert e.conflicts == [smdx.Conflict('"deployer"', "deployer", ".spec.replicas")]
    assert isinstance(e, smdx.Error)


def test_conflicts_list_every_field(fm):
    stored = fm.apply(None, deployment(), "deployer")
    with pytest.raises(smdx.ConflictError) as info:
        fm.apply(stored, deployment(replicas=5, image="nginx:2"), "other")
    assert sorted(c.path for c in info.value.conflicts) == [
        '.spec.replicas',
        '.spec.template.spec.containers[name="app"].image',
    ]
    assert str(info.value).startswith("Apply failed with 2 conflicts:")


HPA_TARGET = {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}


def hpa_applied_at_v2(utilization):
    """kubectl's apply of an autoscaling/v2 HPA on CPU utilization: the
    stored object, as read at v2."""
    v2 = smdx.FieldManager("autoscaling/v2", "HorizontalPodAutoscaler",
                           now="2026-01-01T00:00:00Z")
    return v2.apply(None, {
        "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"scaleTargetRef": HPA_TARGET, "maxReplicas": 5, "metrics": [
            {"type": "Resource", "resource": {"name": "cpu", "target": {
                "type": "Utilization",
                "averageUtilization": utilization}}}]}},
        "kubectl")


def test_managers_at_another_version_are_compared_there():
    # kubectl applies an autoscaling/v2 HPA; an old client's v1 CPU target is
    # v2's metrics, so its apply conflicts on both (as kube-apiserver 1.37
    # answers). An entry of a version no longer served goes with the write.
    v1 = smdx.FieldManager("autoscaling/v1", "HorizontalPodAutoscaler",
                           now="2026-01-01T00:01:00Z")
    ref = HPA_TARGET
    stored = hpa_applied_at_v2(70)
    # The object read at v1, with its entries.
    stored = {"apiVersion": "autoscaling/v1",
              "kind": "HorizontalPodAutoscaler",
              "metadata": stored["metadata"],
              "spec": {"scaleTargetRef": ref, "minReplicas": 1,
                       "maxReplicas": 5,
                       "targetCPUUtilizationPercentage": 70},
              "status": {"currentReplicas": 0, "desiredReplicas": 0}}
    stored["metadata"]["managedFields"].append({
        "manager": "retired", "operation": "Update",
        "apiVersion": "autoscaling/v2beta2", "time": "2020-01-01T00:00:00Z",
        "fieldsType": "FieldsV1",
        "fieldsV1": {"f:spec": {"f:minReplicas": {}}}})
    config = {"apiVersion": "autoscaling/v1",
              "kind": "HorizontalPodAutoscaler",
              "metadata": {"name": "web", "namespace": "default"},
              "spec": {"scaleTargetRef": ref, "maxReplicas": 6,
                       "targetCPUUtilizationPercentage": 50,
                       "minReplicas": 2}}
    with pytest.raises(smdx.ConflictError) as info:
        v1.apply(stored, config, "old-client")
    assert sorted(c.path for c in info.value.conflicts) == [
        ".spec.maxReplicas", ".spec.metrics"]
    forced = v1.apply(stored, config, "old-client", force=True)
    assert [e["manager"] for e in forced["metadata"]["managedFields"]] == [
        "kubectl", "old-client"]
    assert forced["spec"]["minReplicas"] == 2


def test_the_live_object_is_read_at_the_requests_version():
    # Stored as applied at autoscaling/v2 and passed as read there, the HPA
    # is read at v1 for a v1 status write, as kube-apiserver 1.37 reads it:
    # the v2 CPU metric is v1's target.
    status_v1 = smdx.FieldManager("autoscaling/v1", "HorizontalPodAutoscaler",
                                  "status", now="2026-01-01T00:00:01Z")
    ref = HPA_TARGET
    stored = hpa_applied_at_v2(50)
    written = status_v1.update(stored, {
        "apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {"scaleTargetRef": ref, "maxReplicas": 5,
                 "targetCPUUtilizationPercentage": 50},
        "status": {"currentReplicas": 1, "desiredReplicas": 2}}, "st")
    assert written["apiVersion"] == "autoscaling/v1"
    assert written["spec"]["targetCPUUtilizationPercentage"] == 50
    assert written["status"] == {"currentReplicas": 1, "desiredReplicas": 2}
    assert [(e["manager"], e["apiVersion"], e.get("subresource"))
            for e in written["metadata"]["managedFields"]] == [
        ("kubectl", "autoscaling/v2", None),
        ("st", "autoscaling/v1", "status")]


def test_a_live_object_read_at_another_version_converts_as_storage_does():
    # Stored with a list item twice (an update may write that), a Widget
    # read at v1 converts to v2 untyped, as storage reads it: an apply at v2
    # then meets the duplicates with the same error as over the object read
    # at v2, not with a failed conversion.
    crds = smdx.Schema.from_files(WIDGETS_CRD)
    v1 = smdx.FieldManager("example.com/v1", "Widget", schema=crds, now=NOW)
    v2 = smdx.FieldManager("example.com/v2", "Widget", schema=crds, now=NOW)
    widget = {"apiVersion": "example.com/v1", "kind": "Widget",
              "metadata": {"name": "w", "namespace": "ns"},
              "spec": {"env": [{"name": "A", "value": "1"}]}}
    stored = v1.apply(None, widget, "kubectl")
    twice = copy.deepcopy(stored)
    twice["spec"]["env"] = [{"name": "A", "value": "1"}] * 2
    stored = v1.update(stored, twice, "ctrl")
    config = {"apiVersion": "example.com/v2", "kind": "Widget",
              "metadata": {"name": "w", "namespace": "ns"},
              "spec": {"replicas": 3}}
    at_v2 = copy.deepcopy(stored)
    at_v2["apiVersion"] = "example.com/v2"
    messages = []
    for live in (stored, at_v2):
        with pytest.raises(smdx.Error) as info:
            v2.apply(live, config, "other")
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "duplicate entries" in messages[0]


def test_force_takes_the_field_over(fm):
    stored = fm.apply(None, deployment(), "deployer")
    forced = fm.apply(stored, deployment(replicas=5), "autoscaler", force=True)
    assert forced["spec"]["replicas"] == 5
    owners = smdx.blame(forced)
    assert owners[".spec.replicas"] == ["autoscaler"]
    # The image is still shared: both applied the same value. Managers come
    # in the entries' order (the apiserver's: Apply entries by time, then
    # name).
    assert owners['.spec.template.spec.containers[name="app"].image'] == [
        "autoscaler", "deployer"]


def test_blame_of_a_real_object():
    text = (SHARED / "testdata/smd/k8s-deployment.yaml").read_text()
    fm = smdx.FieldManager("apps/v1", "Deployment", now=NOW)
    obj = smdx.load_all(text)[0]
    obj["apiVersion"] = "apps/v1"
    stored = fm.apply(None, obj, "kubectl")
    stored = fm.update(stored, dict(stored, metadata=dict(
        stored["metadata"], labels={"team": "a"})), "labeller")
    owners = smdx.blame(stored)
    assert owners[".metadata.labels.team"] == ["labeller"]
    assert all(m == ["kubectl"] for p, m in owners.items()
               if p.startswith(".spec."))


def test_blame_rejects_invalid_managed_fields():
    obj = deployment()
    obj["metadata"]["managedFields"] = [{"manager": "x", "operation": "Nope"}]
    with pytest.raises(smdx.InvalidError, match="operation"):
        smdx.blame(obj)


# ---- updates and subresources -----------------------------------------------


def test_update_records_an_update_entry(fm):
    stored = fm.apply(None, deployment(), "deployer")
    changed = copy.deepcopy(stored)
    changed["metadata"]["labels"] = {"team": "a"}
    updated = fm.update(stored, changed, "labeller")
    ops = {(e["manager"], e["operation"]) for e in entries(updated)}
    assert ops == {("deployer", "Apply"), ("labeller", "Update")}


def test_update_warns_about_invalid_managed_fields(fm):
    live = deployment()
    live["metadata"]["managedFields"] = [{"manager": "x", "operation": "Nope"}]
    with pytest.warns(smdx.ManagedFieldsWarning):
        fm.update(live, deployment(), "ctl")
    with pytest.raises(smdx.InvalidError):
        fm.apply(live, deployment(), "ctl")


def test_update_drops_repeated_owner_references_with_the_servers_warning(fm):
    ref = {"apiVersion": "v1", "kind": "ConfigMap", "name": "owner",
           "uid": "11111111-2222-3333-4444-555555555555"}
    obj = deployment()
    obj["metadata"]["ownerReferences"] = [ref, dict(ref)]
    with pytest.warns(smdx.ServerWarning, match="duplicate UID\\(s\\) observed: "
                      "11111111-2222-3333-4444-555555555555"):
        created = fm.update(None, obj, "ctl")
    assert created["metadata"]["ownerReferences"] == [ref]


def test_status_subresource_changes_status_alone():
    main = smdx.FieldManager("apps/v1", "Deployment", now=NOW)
    status = smdx.FieldManager("apps/v1", "Deployment", "status", now=NOW)
    assert status.subresource == "status"
    stored = main.apply(None, deployment(), "deployer")
    body = copy.deepcopy(stored)
    body["spec"]["replicas"] = 9
    body["status"] = {"replicas": 2}
    out = status.update(stored, body, "controller")
    assert out["spec"]["replicas"] == 2  # reset: /status changes .status only
    assert out["status"] == {"replicas": 2}
    [ctl] = [e for e in entries(out) if e["manager"] == "controller"]
    assert ctl["subresource"] == "status"


def test_a_subresource_the_kind_does_not_serve_is_refused():
    with pytest.raises(smdx.InvalidError, match='no subresource "resize"'):
        smdx.FieldManager("apps/v1", "Deployment", "resize")
    resize = smdx.FieldManager("v1", "Pod", "resize", now=NOW)
    live = smdx.FieldManager("v1", "Pod", now=NOW).apply(
        None,
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "p", "namespace": "default"},
         "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}},
        "kubectl")
    out = resize.apply(
        live,
        {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "p", "namespace": "default",
                      "labels": {"a": "b"}},
         "spec": {"containers": [
             {"name": "c", "resources": {"limits": {"cpu": "1"}}}]}},
        "vpa")
    assert "labels" not in out["metadata"]  # the strategy keeps the live ones
    assert out["spec"]["containers"][0]["resources"]["limits"] == {"cpu": "1"}
    [vpa] = [e for e in entries(out) if e["manager"] == "vpa"]
    assert vpa["subresource"] == "resize"
    assert "f:labels" in vpa["fieldsV1"]["f:metadata"]  # owned all the same


# ---- objects as text ----------------------------------------------------------


def test_text_in_gives_text_out(fm):
    yaml_text = fm.apply(None, "apiVersion: apps/v1\nkind: Deployment\n"
                         "metadata: {name: web}\nspec: {replicas: 1}\n", "m")
    assert isinstance(yaml_text, str) and "manager: m" in yaml_text
    json_text = fm.apply(None, json.dumps(deployment()), "m")
    assert json.loads(json_text)["spec"]["replicas"] == 2
    as_dict = fm.apply(yaml_text, b'{"apiVersion": "apps/v1", "kind": '
                       b'"Deployment", "metadata": {"name": "web"}}', "m",
                       output="dict")
    assert as_dict["metadata"]["name"] == "web"
    assert "manager: m" in fm.apply(None, deployment(), "m", output="yaml")
    with pytest.raises(ValueError, match="output"):
        fm.apply(None, deployment(), "m", output="xml")


def test_load_all_reads_streams():
    docs = smdx.load_all("a: 1\n---\n---\nb: [2]\n")
    assert docs == [{"a": 1}, {"b": [2]}]
    with pytest.raises(smdx.InvalidError):
        smdx.load_all("a: [")


# ---- objects held in C++ (smdx.Object) ------------------------------------------


def test_objects_hold_what_they_were_made_from():
    d = deployment()
    o = smdx.Object(d)
    assert o.to_dict() == d
    assert list(o.to_dict()["spec"]) == list(d["spec"])  # the keys' order
    assert smdx.Object(json.dumps(d)) == o
    assert smdx.Object(json.dumps(d).encode()) == o
    assert smdx.Object(o.to_yaml()) == o
    assert json.loads(o.to_json()) == d
    assert smdx.Object(o) == o
    assert o.to_dict() is not o.to_dict()
    assert repr(o) == ('<smdx.Object apiVersion="apps/v1" kind="Deployment" '
                       'namespace="default" name="web">')


def test_objects_compare_as_smd_does():
    a = smdx.Object({"a": 1, "b": {"c": [1, "x"]}})
    assert a == smdx.Object({"b": {"c": [1.0, "x"]}, "a": 1.0})
    assert a != smdx.Object({"a": 1, "b": {"c": ["x", 1]}})
    assert a != {"a": 1, "b": {"c": [1, "x"]}}  # an Object is not a dict
    with pytest.raises(TypeError):
        hash(a)


def test_load_all_reads_streams_into_objects():
    text = smdx.Object(deployment()).to_yaml() + "---\n---\nkind: A\n"
    docs = smdx.load_all(text, output="object")
    assert docs == [smdx.Object(deployment()), smdx.Object({"kind": "A"})]
    assert [d.to_dict() for d in docs] == smdx.load_all(text)
    with pytest.raises(smdx.InvalidError, match="document 3 of the stream"):
        smdx.load_all("a: 1\n---\n---\n- b\n", output="object")
    with pytest.raises(ValueError, match='"object"'):
        smdx.load_all("a: 1", output="yaml")


def test_objects_pickle_as_their_json():
    import pickle
    o = smdx.Object(deployment())
    assert pickle.loads(pickle.dumps(o)) == o


def test_apply_on_objects_gives_what_dicts_give(fm):
    stored = fm.apply(None, deployment(), "deployer")
    stored_obj = fm.apply(None, smdx.Object(deployment()), "deployer")
    assert isinstance(stored_obj, smdx.Object)
    assert stored_obj.to_dict() == stored
    changed = deployment(replicas=5)
    out = fm.apply(stored, changed, "deployer")
    # Each input in either form; the output in the configuration's.
    assert fm.apply(stored_obj, changed, "deployer") == out
    assert fm.apply(stored, smdx.Object(changed), "deployer").to_dict() == out
    assert fm.apply(stored_obj, smdx.Object(changed), "deployer").to_dict() == out
    assert fm.apply(stored, changed, "deployer", output="object").to_dict() == out
    assert fm.apply(stored_obj, smdx.Object(changed), "deployer",
                    output="dict") == out
    assert json.loads(fm.apply(stored_obj, smdx.Object(changed), "deployer",
                               output="json")) == out
    assert (fm.update(stored_obj, smdx.Object(changed), "kubectl").to_dict()
            == fm.update(stored, changed, "kubectl"))


def test_objects_do_not_change(fm):
    live = fm.apply(None, smdx.Object(deployment()), "deployer")
    before = live.to_dict()
    config = smdx.Object(deployment(replicas=7, image="nginx:1.26"))
    out = fm.apply(live, config, "other", force=True)
    assert out.to_dict()["spec"]["replicas"] == 7
    assert live.to_dict() == before
    assert config.to_dict() == deployment(replicas=7, image="nginx:1.26")


def test_objects_fail_as_dicts_do(fm):
    live = fm.apply(None, smdx.Object(deployment()), "deployer")
    with pytest.raises(smdx.ConflictError) as e:
        fm.apply(live, smdx.Object(deployment(replicas=3)), "other")
    assert [c.path for c in e.value.conflicts] == [".spec.replicas"]
    with pytest.raises(smdx.InvalidError, match="expected an object"):
        smdx.Object([1, 2])
    with pytest.raises(smdx.InvalidError, match="the object"):
        smdx.Object("a: [b")
    with pytest.raises(TypeError):
        smdx.Object(None)
    with pytest.raises(ValueError, match='"object"'):
        fm.apply(live, deployment(), "deployer", output="objects")


def test_typed_helpers_take_objects(fm):
    live = fm.apply(None, smdx.Object(deployment()), "deployer")
    smdx.validate(live)
    assert smdx.blame(live) == smdx.blame(live.to_dict())
    assert smdx.fieldset(live) == smdx.fieldset(live.to_dict())
    later = smdx.Object(deployment(replicas=4))
    assert smdx.diff(live, later) == smdx.diff(live.to_dict(), later.to_dict())


def test_objects_shared_by_threads(fm):
    live = fm.apply(None, smdx.Object(deployment()), "deployer")
    configs = [smdx.Object(deployment(replicas=i)) for i in range(8)]
    expected = [fm.apply(live, c, "deployer") for c in configs]
    results = [None] * len(configs)

    def work(i):
        for _ in range(50):
            results[i] = fm.apply(live, configs[i], "deployer")

    assert not run_in_threads(len(configs), work)
    assert results == expected


# ---- CRDs: defaults and immutability -------------------------------------------


def test_crd_defaults_fill_the_result():
    schema = smdx.Schema.load(CRD)
    fm = smdx.FieldManager("example.com/v1", "Widget", schema=schema, now=NOW)
    stored = fm.apply(None, widget(region="eu", ports=[{"port": 80}]), "m")
    assert stored["spec"]["size"] == 3
    assert stored["spec"]["ports"] == [{"port": 80, "protocol": "TCP"}]
    # Defaulted fields belong to nobody.
    assert ".spec.size" not in smdx.blame(stored)


def test_crd_immutable_field():
    schema = smdx.Schema.load(CRD)
    fm = smdx.FieldManager("example.com/v1", "Widget", schema=schema, now=NOW)
    stored = fm.apply(None, widget(region="eu"), "m")
    with pytest.raises(smdx.ImmutableError) as info:
        fm.apply(stored, widget(region="us"), "m")
    assert info.value.paths == [".spec.region"]
    assert ".spec.region" in str(info.value)
    # Forcing does not help: immutability is not ownership.
    with pytest.raises(smdx.ImmutableError):
        fm.apply(stored, widget(region="us"), "other", force=True)


def test_crd_status_is_reset_on_the_main_resource():
    schema = smdx.Schema.load(CRD)
    fm = smdx.FieldManager("example.com/v1", "Widget", schema=schema, now=NOW)
    w = widget(region="eu")
    w["status"] = {"ready": True}
    assert "status" not in fm.apply(None, w, "m")


# ---- schemas -------------------------------------------------------------------


def test_schemas_from_files_and_directories(tmp_path):
    smd = SHARED / "testdata/smd/k8s-schema.yaml"
    schema = smdx.Schema.from_files(smd)
    assert not schema.builtin_only
    assert schema.type_name("v1", "Pod") == "io.k8s.api.core.v1.Pod"
    (tmp_path / "crd.yaml").write_text(CRD)
    both = smdx.Schema.from_files(smd, tmp_path)
    assert both.type_name("example.com/v1", "Widget") == "com.example.v1.Widget"
    assert smdx.Schema.builtin().builtin_only
    (tmp_path / "nothing").mkdir()
    with pytest.raises(smdx.SchemaError, match="no .json or .yaml"):
        smdx.Schema.from_files(tmp_path / "nothing")


def test_schema_errors():
    with pytest.raises(smdx.SchemaError, match="missing"):
        smdx.Schema.load("types:\n- name: a\n  map:\n    fields:\n"
                         "    - name: b\n      type: {namedType: missing}\n")
    with pytest.raises(smdx.SchemaError, match="document 2"):
        smdx.Schema.load(CRD, "definitions: {a: {type: array, "
                         "x-kubernetes-list-type: map, items: {type: object}}}")
    with pytest.raises(TypeError):
        smdx.Schema.load(42)
    with pytest.raises(smdx.KindNotFoundError):
        smdx.FieldManager("example.com/v1", "Nothing")
    with pytest.raises(smdx.KindNotFoundError):
        smdx.Schema.builtin().type_name("v1", "Nothing")


# ---- bad input -------------------------------------------------------------------


def test_invalid_objects_name_the_path(fm):
    bad = deployment()
    bad["spec"]["replicas"] = "two"
    with pytest.raises(smdx.InvalidError, match=r"\.spec\.replicas"):
        fm.apply(None, bad, "m")
    with pytest.raises(smdx.InvalidError, match="fieldManager"):
        fm.apply(None, deployment(), "")
    with pytest.raises(smdx.InvalidError, match="configuration"):
        fm.apply(None, "{not: [json", "m")
    with pytest.raises(smdx.InvalidError, match="an object"):
        fm.apply(None, "[1, 2]", "m")



def test_text_inputs_fail_in_order_and_change_nothing(fm):
    # Text inputs are parsed together, after both were taken: the errors
    # still name the first bad input, as if they were read one by one.
    stored = fm.apply(None, json.dumps(deployment()), "m", output="dict")
    live_text = json.dumps(stored)
    with pytest.raises(smdx.InvalidError, match="the live object"):
        fm.apply("{not: [json", "{also: [bad", "m")
    with pytest.raises(smdx.InvalidError, match="the live object: expected an object"):
        fm.apply("[1]", json.dumps(deployment()), "m")
    with pytest.raises(smdx.InvalidError, match="the configuration"):
        fm.apply(live_text, "{not: [json", "m")
    with pytest.raises(smdx.InvalidError, match="the object: expected an object"):
        fm.update(live_text, "7", "m")
    with pytest.raises(TypeError, match="None"):
        fm.apply(live_text, None, "m")
    # Text live, dict configuration: the live object is read first.
    with pytest.raises(smdx.InvalidError, match="the live object"):
        fm.apply("{not: [json", {"spec": {"replicas": float("nan")}}, "m")
    with pytest.raises(smdx.LimitError):
        fm.apply("a: " + "x" * (4 << 20), json.dumps(deployment()), "m")
    # A failed call leaves its inputs as they were, and the next works.
    assert json.loads(live_text) == stored
    out = fm.apply(live_text, json.dumps(deployment()), "m", output="yaml")
    assert smdx.load_all(out)[0]["spec"] == stored["spec"]

def test_bad_requests(fm):
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}
    with pytest.raises(smdx.BadRequestError):
        fm.apply(None, pod, "m")
    stored = fm.apply(None, deployment(), "m")
    with pytest.raises(smdx.BadRequestError, match="managedFields"):
        fm.apply(None, stored, "m")


def test_python_values_that_have_no_json_form(fm):
    with pytest.raises(TypeError, match=r"\.spec\.x"):
        fm.apply(None, dict(deployment(), spec={"x": {1, 2}}), "m")
    with pytest.raises(TypeError, match="keys must be strings"):
        fm.apply(None, dict(deployment(), spec={1: "a"}), "m")
    with pytest.raises(smdx.InvalidError, match="64-bit"):
        fm.apply(None, dict(deployment(), spec={"replicas": 2**70}), "m")
    with pytest.raises(smdx.InvalidError, match="NaN"):
        fm.apply(None, dict(deployment(), spec={"replicas": float("nan")}), "m")
    with pytest.raises(TypeError):
        fm.apply(None, None, "m")


def test_limits(fm):
    deep = {}
    node = deep
    for _ in range(5000):
        node["a"] = {}
        node = node["a"]
    with pytest.raises(smdx.LimitError, match="max_depth"):
        fm.apply(None, dict(deployment(), spec=deep), "m")
    big = "a: " + "x" * (4 << 20)
    with pytest.raises(smdx.LimitError):
        fm.apply(None, big, "m")


def test_now_takes_aware_datetimes():
    t = datetime.datetime(2024, 5, 1, 14, 0, tzinfo=datetime.timezone(
        datetime.timedelta(hours=2)))
    fm = smdx.FieldManager("apps/v1", "Deployment", now=t)
    assert entries(fm.apply(None, deployment(), "m"))[0]["time"] == NOW
    with pytest.raises(ValueError, match="aware"):
        smdx.FieldManager("apps/v1", "Deployment", now=datetime.datetime(2024, 1, 1))
    with pytest.raises(ValueError):
        smdx.FieldManager("apps/v1", "Deployment", now="yesterday")
    with pytest.raises(ValueError):
        smdx.FieldManager("apps/v1", "Deployment", max_update_managers=-1)


# ---- typed helpers ---------------------------------------------------------------


def test_validate():
    smdx.validate(deployment())
    smdx.validate({"spec": {"containers": []}}, type_name="io.k8s.api.core.v1.Pod")
    with pytest.raises(smdx.InvalidError, match=r"\.spec\.containers"):
        smdx.validate({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": 7}})
    with pytest.raises(smdx.InvalidError, match="apiVersion"):
        smdx.validate({"spec": {}})
    schema = smdx.Schema.load(CRD)
    with pytest.raises(smdx.InvalidError):
        smdx.validate(widget(size="big"), schema=schema)


def test_diff():
    lhs = {"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1", "b": "2"}}
    rhs = {"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "9", "c": "3"}}
    assert smdx.diff(lhs, rhs) == {"added": [".data.c"], "removed": [".data.b"],
                                   "modified": [".data.a"]}
    assert smdx.diff(lhs, lhs) == {"added": [], "removed": [], "modified": []}


def test_fieldset():
    fs = smdx.fieldset(deployment())
    assert fs["f:spec"]["f:replicas"] == {}
    assert 'k:{"name":"app"}' in fs["f:spec"]["f:template"]["f:spec"]["f:containers"]


# ---- threads -----------------------------------------------------------------------


def run_in_threads(count, body):
    """Runs body(i) for i in range(count), each in a thread, all at once;
    returns the exceptions they raised."""
    errors = []

    def work(i):
        try:
            body(i)
        except Exception as e:  # noqa: BLE001 - returned to the test
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_one_field_manager_shared_by_threads(fm):
    configs = [deployment(name=f"web-{i}", replicas=i) for i in range(32)]
    expected = [fm.apply(None, c, "m") for c in configs]
    results = [None] * len(configs)

    def work(lo):
        for i in range(lo, len(configs), 8):
            for _ in range(20):
                results[i] = fm.apply(None, configs[i], "m")

    assert not run_in_threads(8, work)
    assert results == expected


# ---- apply_many ---------------------------------------------------------------


def test_apply_many_gives_what_apply_gives_pair_by_pair(fm):
    stored = fm.apply(None, deployment(), "deployer")
    pairs = [
        (None, deployment(name="new")),
        (stored, deployment(replicas=4)),
        (smdx.Object(stored), smdx.Object(deployment(image="nginx:2"))),
        (json.dumps(stored), json.dumps(deployment(replicas=1))),
    ]
    got = fm.apply_many(pairs, "deployer")
    want = [fm.apply(live, config, "deployer") for live, config in pairs]
    assert got == want
    assert [type(g) for g in got] == [dict, dict, smdx.Object, str]
    assert got[1]["spec"]["replicas"] == 4
    # Each result is an object of its own, and the inputs stay as they were.
    assert got[0] is not got[1]
    assert stored == fm.apply(None, deployment(), "deployer")
    assert fm.apply_many(pairs, "deployer", output="yaml") == [
        fm.apply(live, config, "deployer", output="yaml") for live, config in pairs]
    assert fm.apply_many([], "deployer") == []
    assert fm.apply_many(iter([[None, deployment()]]), "deployer") == [
        fm.apply(None, deployment(), "deployer")]


def test_apply_many_raises_the_first_failure_naming_the_pair(fm):
    stored = fm.apply(None, deployment(), "deployer")
    pairs = [(stored, deployment()), (stored, deployment(replicas=5)),
             (stored, deployment(image="nginx:2"))]
    with pytest.raises(smdx.ConflictError) as info:
        fm.apply_many(pairs, "autoscaler")
    assert [c.path for c in info.value.conflicts] == [".spec.replicas"]
    if sys.version_info >= (3, 11):
        assert info.value.__notes__ == ["in pairs[1]"]
    # Forced, every pair applies.
    forced = fm.apply_many(pairs, "autoscaler", force=True)
    assert [f["spec"]["replicas"] for f in forced] == [2, 5, 2]
    # Inputs are read before anything is applied: a pair that cannot be read
    # raises before the conflict of an earlier one.
    with pytest.raises(TypeError, match="expected a [(]live, config[)] pair, got int"):
        fm.apply_many([pairs[1], 7], "autoscaler")
    with pytest.raises(TypeError, match="expected a [(]live, config[)] pair, got tuple"):
        fm.apply_many([(stored,)], "autoscaler")
    with pytest.raises(smdx.InvalidError, match="the configuration: expected an object"):
        fm.apply_many([(stored, [1])], "autoscaler")
    with pytest.raises(TypeError):
        fm.apply_many(5, "autoscaler")


def test_apply_many_can_return_the_exceptions_in_place(fm):
    stored = fm.apply(None, deployment(), "deployer")
    got = fm.apply_many(
        [(stored, deployment(replicas=5)), (stored, {"kind": "Nope"}),
         (stored, deployment()), (stored, 3)],
        "autoscaler", return_exceptions=True)
    assert isinstance(got[0], smdx.ConflictError)
    assert isinstance(got[1], smdx.BadRequestError)
    assert got[2] == fm.apply(stored, deployment(), "autoscaler")
    assert isinstance(got[3], smdx.InvalidError)
    if sys.version_info >= (3, 11):
        assert [e.__notes__ for e in (got[0], got[1], got[3])] == [
            ["in pairs[0]"], ["in pairs[1]"], ["in pairs[3]"]]


def test_python_threads_run_beside_applying_threads(fm):
    # Threads that take the GIL back after each apply spin for it a little
    # while another such thread holds it: a thread that only runs Python
    # still gets its turns, and each apply its right result.
    configs = [deployment(name=f"spin-{i}", replicas=i) for i in range(3)]
    expected = [fm.apply(None, c, "m") for c in configs]
    stop = threading.Event()
    counted = [0]

    def count():
        while not stop.is_set():
            counted[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    results = [None] * len(configs)

    def work(i):
        for _ in range(300):
            results[i] = fm.apply(None, configs[i], "m")

    try:
        errors = run_in_threads(len(configs), work)
    finally:
        stop.set()
        counter.join()
    assert not errors
    assert results == expected
    assert counted[0] > 1000


def test_apply_many_from_threads(fm):
    configs = [deployment(name=f"web-{i}", replicas=i) for i in range(32)]
    expected = [fm.apply(None, c, "m") for c in configs]
    results = [None] * 4

    def work(t):
        for _ in range(10):
            results[t] = fm.apply_many(
                [(None, smdx.Object(c)) for c in configs[t::4]], "m",
                output="dict")

    assert not run_in_threads(4, work)
    assert [r for t in range(4) for r in results[t]] == [
        e for t in range(4) for e in expected[t::4]]


def test_results_with_more_keys_than_a_field_manager_keeps():
    # A FieldManager keeps the strs of 4,096 keys between calls; keys beyond
    # get strs of their own, in this call and later ones.
    cms = smdx.FieldManager("v1", "ConfigMap", now=NOW)
    for n in range(2):
        data = {f"key-{n}-{k}": str(k) for k in range(5000)}
        config = {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": "many", "namespace": "default"},
            "data": data,
        }
        out = cms.apply(None, config, "m")
        assert out["data"] == data
        assert list(out["data"]) == list(data)


def test_dicts_made_from_objects_keep_keys_between_calls():
    # to_dict, load_all, fieldset and blame share one store of 4,096 key
    # strs for the whole process: keys past it, keys that are not ASCII
    # and keys that differ in one byte all come out as they went in.
    for n in range(2):
        data = {f"key-{n}-{k}": k for k in range(5000)}
        data.update({"ключ": "a", "clé": "b", "key-0-1x": "c", "": "d"})
        o = smdx.Object({"data": data})
        for _ in range(2):
            out = o.to_dict()
            assert out == {"data": data}
            assert list(out["data"]) == list(data)
    assert smdx.load_all(b"a: 1\n---\nkey-0-7: 2\n") == [{"a": 1}, {"key-0-7": 2}]


def test_big_objects_from_threads():
    # Merged without the GIL, from four threads at once: each thread gets
    # its own right result.
    cms = smdx.FieldManager("v1", "ConfigMap", now=NOW)
    configs = [
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": f"big-{i}", "namespace": "default"},
            "data": {f"key-{k}": f"value-{i}-{k}" for k in range(3000)},
        }
        for i in range(4)
    ]
    expected = [cms.apply(None, c, "m") for c in configs]
    changed = [dict(c, data=dict(c["data"], extra="x")) for c in configs]
    expected_again = [cms.apply(e, c, "m") for e, c in zip(expected, changed)]
    results = [None] * len(configs)

    def work(i):
        for _ in range(3):
            live = cms.apply(None, configs[i], "m")
            results[i] = cms.apply(live, changed[i], "m")

    assert not run_in_threads(len(configs), work)
    assert results == expected_again
    assert results[0]["data"]["key-2999"] == "value-0-2999"
    assert results[3]["data"]["extra"] == "x"


# ---- the example ---------------------------------------------------------------------


def test_check_manifests_example(tmp_path):
    script = ROOT / "examples/python/check_manifests.py"
    manifests = tmp_path / "manifests"
    live = tmp_path / "live"
    manifests.mkdir()
    live.mkdir()
    (manifests / "web.yaml").write_text(json.dumps(deployment()))
    fm = smdx.FieldManager("apps/v1", "Deployment", now=NOW)
    # The live object: applied by us, then scaled by an autoscaler.
    stored = fm.apply(None, deployment(), "ci")
    stored = fm.apply(stored, deployment(replicas=4), "autoscaler", force=True)
    (live / "web.yaml").write_text(smdx.FieldManager(
        "apps/v1", "Deployment").update(stored, stored, "ci", output="yaml"))

    def run(*args):
        return subprocess.run([sys.executable, str(script), *map(str, args)],
                              capture_output=True, text=True)

    r = run(manifests, live, "--manager", "ci")
    assert r.returncode == 1, r.stderr
    assert "conflict  Deployment web" in r.stdout
    assert ".spec.replicas is owned by \"autoscaler\"" in r.stdout
    # Without replicas in the manifest, it applies.
    m = deployment()
    del m["spec"]["replicas"]
    (manifests / "web.yaml").write_text(json.dumps(m))
    (manifests / "new.yaml").write_text(json.dumps(deployment(name="new")))
    r = run(manifests, live, "--manager", "ci")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "every manifest would apply" in r.stdout


def test_bench_script_measures_the_reapply():
    """bench/python_bench.py, which bench/compare runs: its fixture checks
    the re-apply changes the image, and each mode reports what it says."""
    script = ROOT / "bench" / "python_bench.py"
    pod = SHARED / "testdata/smd/pod.yaml"

    def run(*args):
        p = subprocess.run([sys.executable, str(script), str(pod), *args],
                           capture_output=True, text=True, check=True)
        return json.loads(p.stdout) if p.stdout.strip() else None

    times = run("apply", "0.01")
    assert times["ns"] > 0 and times["ns_objects"] > 0
    assert run("loop", "3") is None
    assert run("loop", "3", "objects") is None
    threads = run("threads", "0.05", "2")
    for form in ("dicts", "json", "objects"):
        one, many = threads[form]
        assert one > 0 and many > 0


def _client_side_applied(fm, config):
    """What client-side `kubectl apply` of config stores: the configuration
    with its annotation, written by kubectl-client-side-apply."""
    body = copy.deepcopy(config)
    body["metadata"]["annotations"] = {
        "kubectl.kubernetes.io/last-applied-configuration": json.dumps(config)}
    return fm.update(None, body, "kubectl-client-side-apply")


def _configmaps_ab_and_a():
    """A ConfigMap's configuration with data a and b, and with a alone."""
    both = {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c", "namespace": "ns"},
            "data": {"a": "1", "b": "2"}}
    only_a = copy.deepcopy(both)
    del only_a["data"]["b"]
    return both, only_a


def test_apply_as_kubectl_moves_client_side_fields():
    fm = smdx.FieldManager("v1", "ConfigMap", now="2026-12-07T10:00:00Z")
    both, only_a = _configmaps_ab_and_a()
    live = _client_side_applied(fm, both)
    # The apply alone leaves b to the client-side applier.
    assert fm.apply(live, only_a, "kubectl")["data"] == {"a": "1", "b": "2"}
    out = fm.apply(live, only_a, "kubectl", as_kubectl=True)
    assert out["data"] == {"a": "1"}
    assert [(e["manager"], e["operation"]) for e in out["metadata"]["managedFields"]] == [
        ("kubectl-last-applied", "Apply"), ("kubectl", "Apply")]
    [many] = fm.apply_many([(live, only_a)], "kubectl", as_kubectl=True)
    assert many == out


def test_apply_client_side_as_kubectl_sends_it():
    fm = smdx.FieldManager("v1", "ConfigMap", now="2026-12-07T10:00:00Z")
    both, only_a = _configmaps_ab_and_a()
    csa = "kubectl-client-side-apply"
    live = fm.apply(None, both, csa, client_side=True)
    annotation = live["metadata"]["annotations"][
        "kubectl.kubernetes.io/last-applied-configuration"]
    assert annotation.endswith("}\n")
    assert json.loads(annotation)["metadata"]["annotations"] == {}
    out = fm.apply(live, only_a, csa, client_side=True)
    assert out["data"] == {"a": "1"}
    assert [(e["manager"], e["operation"]) for e in out["metadata"]["managedFields"]] == [
        (csa, "Update")]
    with pytest.warns(smdx.ManagedFieldsWarning, match="no request"):
        assert fm.apply(out, only_a, csa, client_side=True) == out
    with pytest.raises(ValueError):
        fm.apply(out, only_a, csa, force=True, client_side=True)
    assert fm.apply_many([(live, only_a)], csa, client_side=True) == [out]


def test_a_stale_resource_version_is_a_conflict_without_conflicts():
    fm = smdx.FieldManager("v1", "ConfigMap")
    live = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {
        "name": "a", "namespace": "default", "uid": "u",
        "resourceVersion": "215"}, "data": {"x": "1"}}
    stale = copy.deepcopy(live)
    stale["metadata"]["resourceVersion"] = "214"
    stale["data"] = {"x": "2"}
    with pytest.raises(smdx.ConflictError) as e:
        fm.update(live, stale, "ctrl")
    assert e.value.conflicts == []
    assert str(e.value) == (
        'Operation cannot be fulfilled on configmaps "a": the object has been '
        "modified; please apply your changes to the latest version and try "
        "again")
    stale["metadata"]["resourceVersion"] = "215"
    assert fm.update(live, stale, "ctrl")["data"] == {"x": "2"}


def test_a_write_leaving_no_finalizers_deletes_an_object_being_deleted():
    fm = smdx.FieldManager("v1", "ConfigMap")
    live = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {
        "name": "a", "namespace": "default", "uid": "u",
        "resourceVersion": "215", "deletionTimestamp": "2026-01-01T00:00:00Z",
        "deletionGracePeriodSeconds": 0, "finalizers": ["a.io/x"]}}
    with pytest.warns(smdx.DeletedWarning, match="deletes the object"):
        answer = fm.patch(live, {"metadata": {"finalizers": None}}, "ctrl",
                          type="merge")
    assert "finalizers" not in answer["metadata"]
    with pytest.raises(smdx.InvalidError, match="no new finalizers"):
        fm.patch(live, {"metadata": {"finalizers": ["a.io/x", "b.io/y"]}},
                 "ctrl", type="merge")


def test_upgrade_managed_fields_as_client_go():
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {
        "name": "c",
        "managedFields": [
            {"manager": "kubectl-client-side-apply", "operation": "Update",
             "apiVersion": "v1", "time": "2026-01-01T00:00:01Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}},
            {"manager": "kubectl", "operation": "Apply", "apiVersion": "v1",
             "time": "2026-01-01T00:00:02Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:data": {"f:b": {}}}}]}}
    up = smdx.upgrade_managed_fields(obj, ["kubectl-client-side-apply"], "kubectl")
    assert up["metadata"]["managedFields"] == [
        {"manager": "kubectl", "operation": "Apply", "apiVersion": "v1",
         "time": "2026-01-01T00:00:02Z", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:data": {"f:a": {}, "f:b": {}}}}]
    assert obj["metadata"]["managedFields"][0]["manager"] == "kubectl-client-side-apply"
    assert isinstance(smdx.upgrade_managed_fields(
        json.dumps(obj), ["kubectl-client-side-apply"], "kubectl"), str)
    bad = copy.deepcopy(obj)
    bad["metadata"]["managedFields"][0]["operation"] = "Patch"
    with pytest.raises(smdx.InvalidError, match=r"managedFields\[0\]"):
        smdx.upgrade_managed_fields(bad, ["kubectl-client-side-apply"], "kubectl")


def test_patch_merge_and_json():
    fm = smdx.FieldManager("v1", "ConfigMap", now="2026-12-07T10:00:00Z")
    live = fm.apply(None, {"apiVersion": "v1", "kind": "ConfigMap",
                           "metadata": {"name": "c", "namespace": "ns"},
                           "data": {"a": "1", "b": "2"}}, "kubectl")
    merged = fm.patch(live, {"data": {"b": None, "c": "3"}}, "ctl", type="merge")
    assert merged["data"] == {"a": "1", "c": "3"}
    assert [(e["manager"], e["operation"]) for e in merged["metadata"]["managedFields"]] == [
        ("kubectl", "Apply"), ("ctl", "Update")]
    patched = fm.patch(live, '[{"op": "replace", "path": "/data/a", "value": "9"}]',
                       "ctl", type="json")
    assert patched["data"] == {"a": "9", "b": "2"}
    with pytest.raises(smdx.InvalidError, match=r"operation 0 \(remove\)"):
        fm.patch(live, [{"op": "remove", "path": "/data/zz"}], "ctl", type="json")
    with pytest.raises(smdx.BadRequestError, match="does not match the name"):
        fm.patch(live, {"metadata": {"name": "other"}}, "ctl", type="merge")
    with pytest.raises(ValueError, match="strategic"):
        fm.patch(live, {}, "ctl", type="smp")


def test_patch_strategic():
    fm = smdx.FieldManager("apps/v1", "Deployment", now="2026-12-07T10:00:00Z")
    live = fm.apply(None, {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "ns", "finalizers": ["a"]},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": {"containers": [
                                  {"name": "app", "image": "nginx:1"},
                                  {"name": "side", "image": "busybox"}]}}}},
        "kubectl")
    patched = fm.patch(live, {
        "metadata": {"$deleteFromPrimitiveList/finalizers": ["a"]},
        "spec": {"template": {"spec": {"containers": [
            {"name": "side", "$patch": "delete"},
            {"name": "app", "image": "nginx:2"}]}}}}, "ctl", type="strategic")
    assert "finalizers" not in patched["metadata"]
    assert [(c["name"], c["image"]) for c in
            patched["spec"]["template"]["spec"]["containers"]] == [("app", "nginx:2")]
    with pytest.raises(smdx.Error, match="declared merge key"):
        fm.patch(live, {"spec": {"template": {"spec": {"containers": [{"image": "x"}]}}}},
                 "ctl", type="strategic")
