"""The fleet job: checks desired manifests against live objects across a
fleet on Apache Spark. For each (desired, live) pair it runs smdx's
server-side apply, as `smdx diff LIVE CONFIG` does, and writes one row per
pair (the fields that would change, the conflicts, the ownership that would
move, or the error) plus a summary.

    spark-submit fleet/smdx_fleet.py --input pairs.jsonl --output out \\
        --format jsonl --manager fleet [--force] [--master local[2]]
    python fleet/smdx_fleet.py ...       (the same, with its own local Spark)

Input: JSON Lines or Parquet with the columns `desired` and `live` (JSON
text of the objects; `live` null or empty: the object does not exist yet)
and optionally `id`. The per-pair work is evaluate.py's, shipped to the
executors, where each Python worker reads the schema once (see README.md).
"""

import argparse
import atexit
import json
import os
import shutil
import signal
import sys
import tempfile
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)

import evaluate  # noqa: E402  (beside this file; shipped to executors)


def result_schema():
    """The result table's Spark schema: evaluate.COLUMNS with their types.
    (pyspark is imported where it is used: --help works without it.)"""
    from pyspark.sql import types as T

    s, a = T.StringType(), T.ArrayType
    move = a(T.StructType([T.StructField("manager", s),
                           T.StructField("path", s)]))
    types = {
        "create": T.BooleanType(), "changes": T.IntegerType(),
        "added": a(s), "removed": a(s), "modified": a(s),
        "conflicts": move, "gains": move, "losses": move,
    }
    return T.StructType([T.StructField(c, types.get(c, s))
                         for c in evaluate.COLUMNS])


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--input", required=True,
                   help="pairs: a JSON Lines or Parquet file or directory")
    p.add_argument("--input-format", choices=("auto", "jsonl", "parquet"),
                   default="auto",
                   help="auto: Parquet for *.parquet or a directory of "
                        "them, else JSON Lines")
    p.add_argument("--output", required=True, help="the result table")
    p.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl",
                   help="the result table's format (default jsonl)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing output")
    p.add_argument("--summary",
                   help="where to write the summary JSON (default: "
                        "OUTPUT/_summary.json for a local OUTPUT)")
    p.add_argument("--manager", default="kubectl",
                   help="the field manager that applies (default kubectl)")
    p.add_argument("--force", action="store_true",
                   help="take conflicting fields (--force-conflicts)")
    p.add_argument("--schema", action="append", default=[],
                   help="OpenAPI v2/v3 documents, SMD schemas or CRDs (files "
                        "or directories; repeat). Default: the embedded "
                        "Kubernetes schema. Each executor reads them once")
    p.add_argument("--partitions", type=int,
                   help="repartition the input into N partitions "
                        "(default: as Spark splits it, at least one a "
                        "core)")
    p.add_argument("--master",
                   help="Spark master, e.g. local[2] (default: "
                        "spark-submit's, else local[*])")
    p.add_argument("--log-level", default="WARN",
                   help="Spark's log level (default WARN)")
    return p.parse_args(argv)


def _is_local(path):
    return "://" not in path or path.startswith("file://")


def _input_format(args):
    if args.input_format != "auto":
        return args.input_format
    path = args.input.removeprefix("file://")
    if path.endswith(".parquet"):
        return "parquet"
    if _is_local(args.input) and os.path.isdir(path):
        if any(n.endswith(".parquet") for n in os.listdir(path)):
            return "parquet"
    return "jsonl"


def start_spark(args, workdir):
    """A SparkSession for the job, without the web UI. A local master
    listens on the loopback address only. When this process starts Spark
    itself (not under spark-submit, whose JVM runs already), Spark logs
    warnings and errors only (log4j2.properties) and keeps its scratch
    space in `workdir`."""
    submitted = bool(os.environ.get("PYSPARK_GATEWAY_PORT"))
    master = args.master or (None if submitted else "local[*]")
    # Python workers run the driver's Python, which has smdx (unless the
    # deployment names another).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    b = (SparkSession.builder.appName("smdx-fleet")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.shuffle.partitions", "8"))
    if master:
        b = b.master(master)
    if master and master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        b = (b.config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1"))
    if not submitted:
        os.environ.setdefault("SPARK_LOCAL_DIRS", workdir)
        b = b.config("spark.driver.extraJavaOptions", " ".join([
            f"-Djava.io.tmpdir={workdir}",
            "-Dlog4j2.configurationFile=file:"
            + os.path.join(_HERE, "log4j2.properties"),
            "-XX:-UsePerfData",  # no /tmp/hsperfdata_* files
        ]))
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel(args.log_level)
    return spark


def read_pairs(spark, args):
    """The input as a DataFrame of (id, desired, live) strings."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    if _input_format(args) == "parquet":
        df = spark.read.parquet(args.input)
        if "id" not in df.columns:
            df = df.withColumn("id", F.lit(None).cast("string"))
        if "live" not in df.columns:
            df = df.withColumn("live", F.lit(None).cast("string"))
    else:
        # Objects given as JSON objects rather than text read as their text.
        schema = T.StructType([T.StructField(c, T.StringType())
                               for c in ("id", "desired", "live")])
        df = spark.read.schema(schema).json(args.input)
    df = df.select(
        F.coalesce(F.col("id").cast("string"),
                   F.monotonically_increasing_id().cast("string")).alias("id"),
        F.col("desired").cast("string").alias("desired"),
        F.col("live").cast("string").alias("live"))
    if args.partitions:
        df = df.repartition(args.partitions)
    elif df.rdd.getNumPartitions() < spark.sparkContext.defaultParallelism:
        # Small inputs (and Parquet files of one row group) come in fewer
        # partitions than there are cores.
        df = df.repartition(spark.sparkContext.defaultParallelism)
    return df


def run(spark, args):
    """Runs the job; returns the summary (a dict)."""
    from pyspark.sql import functions as F

    sc = spark.sparkContext
    sc.addPyFile(evaluate.__file__)
    # The executors' working directory need not be the driver's.
    schema_paths = tuple(os.path.abspath(p) if os.path.exists(p) else p
                         for p in args.schema)
    manager, force = args.manager, args.force
    columns = evaluate.COLUMNS

    def apply_partition(rows):
        # evaluate is imported by name in the executors (addPyFile), so its
        # per-process cache of schemas outlives the task.
        return (tuple(r[c] for c in columns)
                for r in evaluate.evaluate_partition(
                    ((r[0], r[1], r[2]) for r in rows), schema_paths,
                    manager, force))

    pairs = read_pairs(spark, args)
    partitions = pairs.rdd.getNumPartitions()
    # evaluate.py makes rows of the schema's types: no need to verify each.
    table = spark.createDataFrame(pairs.rdd.mapPartitions(apply_partition),
                                  result_schema(), verifySchema=False)
    writer = table.write.mode("overwrite" if args.overwrite else
                              "errorifexists")
    start = time.perf_counter()
    if args.format == "parquet":
        writer.parquet(args.output)
    else:
        writer.json(args.output)
    seconds = time.perf_counter() - start

    out = (spark.read.schema(result_schema()).parquet(args.output)
           if args.format == "parquet"
           else spark.read.schema(result_schema()).json(args.output))
    totals = out.agg(
        F.count("*").alias("pairs"),
        F.sum(F.col("create").cast("int")).alias("creates"),
        F.sum("changes").alias("changed_fields"),
        F.sum(F.size(F.coalesce("conflicts", F.array())))
        .alias("conflicting_fields"),
        F.sum(F.size(F.coalesce("gains", F.array()))).alias("gained_fields"),
        F.sum(F.size(F.coalesce("losses", F.array()))).alias("lost_fields"),
    ).first().asDict()
    by_status = {r["status"]: r["count"]
                 for r in out.groupBy("status").count().collect()}
    n = totals.pop("pairs")
    return {
        "pairs": n,
        "status": {s: by_status.get(s, 0) for s in evaluate.STATUSES},
        **{k: v or 0 for k, v in totals.items()},
        "manager": manager,
        "force": force,
        "schema": list(schema_paths) or "embedded",
        "master": sc.master,
        "cores": sc.defaultParallelism,
        "partitions": partitions,
        "seconds": round(seconds, 3),
        "pairs_per_second": round(n / seconds, 1) if seconds > 0 else None,
        "output": args.output,
        "format": args.format,
    }


def main(argv=None):
    args = parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="smdx-fleet-")
    atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    # A terminated job still stops Spark and removes its scratch space.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.perf_counter()
    spark = start_spark(args, workdir)
    from pyspark.errors import AnalysisException

    try:
        startup = time.perf_counter() - started
        summary = run(spark, args)
        summary["startup_seconds"] = round(startup, 3)
    except AnalysisException as e:
        # Missing input, an output that exists: say so without a traceback.
        print(f"smdx_fleet: error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    finally:
        spark.stop()
    text = json.dumps(summary, indent=2, sort_keys=True)
    path = args.summary or (
        os.path.join(args.output.removeprefix("file://"), "_summary.json")
        if _is_local(args.output) else None)
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
