"""The Python side of the binding benchmark, run by the Python that has the
smdx module (bench/compare starts it): the pod
re-apply with one change through smdx.FieldManager("v1", "Pod").apply, as
smdx_bench's binding/pod_reapply_one_change does it on Values in C++.

    python_bench.py POD_YAML apply SECONDS     median ns per call, dicts in and
                                               out, and smdx.Object in and out;
                                               and the parts of the dict call:
                                               converting both inputs, building
                                               the result's dicts, and CPython's
                                               own marshal.dumps of both inputs
                                               and marshal.loads of that result
    python_bench.py POD_YAML loop N [FORM]     N calls and nothing else (for
                                               callgrind), FORM dicts (the
                                               default) or objects
    python_bench.py POD_YAML threads SECONDS N [SPIN_SO]
                                               applies/s of 1 and of N threads,
                                               dicts, JSON text and smdx.Object,
                                               one per call and BATCH per
                                               apply_many call;
                                               with SPIN_SO (bench/gil_floor.c
                                               built), calls/s of a native call
                                               as long as the Object apply that
                                               does no Python work

Prints one JSON object (nothing for `loop`).
"""

import copy
import ctypes
import json
import marshal
import statistics
import sys
import threading
import time
import timeit

import smdx


# Pairs per FieldManager.apply_many call in `threads`.
BATCH = 16


def fixture(path):
    """The field manager, the live pod (applied once) and the configuration
    with one leaf changed, as dicts."""
    with open(path, "rb") as f:
        pod = smdx.load_all(f.read())[0]
    fm = smdx.FieldManager("v1", "Pod")
    live = fm.apply(None, pod, "kubectl")
    changed = copy.deepcopy(pod)
    changed["spec"]["containers"][0]["image"] += "-changed"
    out = fm.apply(live, changed, "kubectl")
    if not out["spec"]["containers"][0]["image"].endswith("-changed"):
        sys.exit("python_bench: the re-apply did not change the image")
    return fm, live, changed


def time_call(call, seconds):
    """Median ns per call of `call`."""
    timer = timeit.Timer(call)
    n, took = timer.autorange()
    n = max(n, int(n * seconds / max(took, 1e-9)))
    return statistics.median(t / n * 1e9 for t in timer.repeat(3, n))


def rate(threads, calls, seconds):
    """Calls per second of `threads` threads, thread i calling calls[i] for
    `seconds`."""
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def work(i):
        call = calls[i]
        n = 0
        while time.perf_counter() < stop:
            call()
            n += 1
        counts[i] = n

    ts = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return sum(counts) / seconds


def floor(spin_so, live_obj, changed_obj, fm, many, seconds):
    """[calls/s of 1 thread, of `many`, ns per call] of smdx_bench_spin
    through ctypes (the GIL released around it), its rounds set so that one
    call takes as long as one apply of Objects: the gain CPython allows a
    call of that length, whatever it does."""
    spin = ctypes.CDLL(spin_so).smdx_bench_spin
    spin.argtypes = [ctypes.c_uint64]
    spin.restype = ctypes.c_uint64
    apply_ns = time_call(lambda: fm.apply(live_obj, changed_obj, "kubectl"),
                         0.2)
    probe = 1 << 20
    rounds = max(1, int(probe * apply_ns / time_call(lambda: spin(probe), 0.2)))
    calls = [lambda: spin(rounds)] * many
    return [rate(1, calls, seconds), rate(many, calls, seconds),
            time_call(lambda: spin(rounds), 0.2)]


def main():
    path, mode, arg = sys.argv[1], sys.argv[2], float(sys.argv[3])
    fm, live, changed = fixture(path)
    live_obj, changed_obj = smdx.Object(live), smdx.Object(changed)
    out = fm.apply(live_obj, changed_obj, "kubectl")
    if out.to_dict()["spec"]["containers"][0]["image"] != changed["spec"]["containers"][0]["image"]:
        sys.exit("python_bench: the re-apply of Objects did not change the image")
    if mode == "apply":
        result = fm.apply(live, changed, "kubectl")
        result_obj = smdx.Object(result)
        result_marshal = marshal.dumps(result)
        print(json.dumps({
            "ns": time_call(lambda: fm.apply(live, changed, "kubectl"), arg),
            "ns_objects": time_call(
                lambda: fm.apply(live_obj, changed_obj, "kubectl"), arg),
            # The dict call's conversions on their own: both inputs to
            # Values, and the result's Value to dicts; and the same two
            # jobs done by CPython's fastest C code for them, its
            # serializer of plain values: marshal.dumps walks both input
            # dicts, marshal.loads builds the result's dicts.
            "ns_inputs": time_call(
                lambda: (smdx.Object(live), smdx.Object(changed)), arg),
            "ns_result": time_call(result_obj.to_dict, arg),
            "ns_marshal_inputs": time_call(
                lambda: (marshal.dumps(live), marshal.dumps(changed)), arg),
            "ns_marshal_result": time_call(
                lambda: marshal.loads(result_marshal), arg),
        }))
    elif mode == "loop":
        form = sys.argv[4] if len(sys.argv) > 4 else "dicts"
        if form not in ("dicts", "objects"):
            sys.exit(f"python_bench: unknown form {form}")
        if form == "objects":
            live, changed = live_obj, changed_obj
        for _ in range(int(arg)):
            fm.apply(live, changed, "kubectl")
    elif mode == "threads":
        # Each thread applies objects of its own, as the C++ threads do.
        many = int(sys.argv[4])
        forms = {"dicts": lambda o: copy.deepcopy(o), "json": json.dumps,
                 "objects": smdx.Object}
        out = {}
        for name, make in forms.items():
            calls = []
            for _ in range(many):
                lv, ch = make(live), make(changed)
                calls.append(lambda lv=lv, ch=ch: fm.apply(lv, ch, "kubectl"))
            out[name] = [rate(1, calls, arg), rate(many, calls, arg)]
        # The same in batches: BATCH pairs per FieldManager.apply_many, the
        # GIL released once for all of them (applies/s counted).
        for name, make in (("dicts_many", copy.deepcopy),
                           ("objects_many", smdx.Object)):
            calls = []
            for _ in range(many):
                pairs = [(make(live), make(changed)) for _ in range(BATCH)]
                calls.append(lambda pairs=pairs: fm.apply_many(pairs, "kubectl"))
            out[name] = [BATCH * rate(1, calls, arg),
                         BATCH * rate(many, calls, arg)]
        if len(sys.argv) > 5:
            out["floor"] = floor(sys.argv[5], live_obj, changed_obj, fm,
                                 many, arg)
        print(json.dumps(out))
    else:
        sys.exit(f"python_bench: unknown mode {mode}")


if __name__ == "__main__":
    main()
