"""smdx: Kubernetes server-side apply without a cluster.

The apiserver's field manager (managedFields, conflicts, forced applies,
updates, defaults, immutability) on objects given as dicts or JSON/YAML text,
exactly as sigs.k8s.io/structured-merge-diff and the apiserver compute it.

    import smdx
    fm = smdx.FieldManager("apps/v1", "Deployment")
    stored = fm.apply(None, manifest, "my-controller")
    try:
        stored = fm.apply(stored, other_manifest, "someone-else")
    except smdx.ConflictError as e:
        for c in e.conflicts:
            print(c.name, "owns", c.path)

Schemas: ``Schema.builtin()`` (the default: the built-in kinds of Kubernetes
``smdx.kubernetes_version``, v1.37, and of older releases),
``Schema.load(text, ...)`` and ``Schema.from_files(path, ...)`` for a
cluster's OpenAPI v2/v3 documents, SMD schemas and CRDs.
"""

import os as _os
from typing import Union as _Union

from smdx._errors import (
    BadRequestError,
    Conflict,
    ConflictError,
    DeletedWarning,
    Error,
    ImmutableError,
    InvalidError,
    KindNotFoundError,
    LimitError,
    ManagedFieldsWarning,
    SchemaError,
    ServerWarning,
)
from smdx._smdx import (
    FieldManager,
    Object,
    Schema,
    __version__,
    blame,
    kubernetes_version,
    diff,
    fieldset,
    load_all,
    upgrade_managed_fields,
    validate,
)


def _schema_files(path: str):
    if not _os.path.isdir(path):
        return [path]
    names = sorted(n for n in _os.listdir(path)
                   if n.endswith((".json", ".yaml", ".yml")))
    if not names:
        raise SchemaError(f"{path}: the directory holds no .json or .yaml files")
    return [_os.path.join(path, n) for n in names]


def _from_files(*paths: _Union[str, "_os.PathLike[str]"]) -> Schema:
    """Schema documents read from files, or from directories of .json,
    .yaml and .yml files (a cluster's /openapi/v3 documents), in order."""
    texts = []
    for p in paths:
        for f in _schema_files(_os.fspath(p)):
            with open(f, "rb") as fh:
                texts.append(fh.read())
    return Schema.load(*texts)


Schema.from_files = staticmethod(_from_files)

__all__ = [
    "BadRequestError",
    "Conflict",
    "ConflictError",
    "DeletedWarning",
    "Error",
    "FieldManager",
    "ImmutableError",
    "InvalidError",
    "KindNotFoundError",
    "LimitError",
    "ManagedFieldsWarning",
    "Object",
    "Schema",
    "SchemaError",
    "ServerWarning",
    "blame",
    "diff",
    "fieldset",
    "kubernetes_version",
    "load_all",
    "upgrade_managed_fields",
    "validate",
    "__version__",
]
