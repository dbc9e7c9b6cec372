# Type stubs of the native module (python/module.cc). Docstrings there.
import datetime
import os
from typing import (Any, Dict, Iterable, List, Literal, Optional, Sequence, Union,
                    overload)

Output = Literal["dict", "json", "yaml", "object"]

__version__: str

class Object:
    def __init__(self, object: Union[Dict[str, Any], str, bytes, Object]) -> None: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def to_yaml(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

# What the functions take as an object.
ObjectLike = Union[Dict[str, Any], str, bytes, Object]

class Schema:
    @staticmethod
    def builtin() -> Schema: ...
    @staticmethod
    def load(*documents: Union[str, bytes]) -> Schema: ...
    @staticmethod
    def from_files(*paths: Union[str, os.PathLike[str]]) -> Schema: ...
    def type_name(self, api_version: str, kind: str) -> str: ...
    @property
    def builtin_only(self) -> bool: ...

class FieldManager:
    def __init__(
        self,
        api_version: str,
        kind: str,
        subresource: str = "",
        *,
        schema: Optional[Schema] = None,
        apply_defaults: bool = True,
        builtin_defaults: bool = True,
        reset_fields: bool = True,
        track_on_create: bool = True,
        max_update_managers: int = 10,
        now: Union[datetime.datetime, str, None] = None,
    ) -> None: ...
    def apply(
        self,
        live: Optional[ObjectLike],
        config: ObjectLike,
        manager: str,
        force: bool = False,
        *,
        output: Optional[Output] = None,
        as_kubectl: bool = False,
        client_side: bool = False,
    ) -> Any: ...
    def apply_many(
        self,
        pairs: Iterable[Sequence[Optional[ObjectLike]]],
        manager: str,
        force: bool = False,
        *,
        output: Optional[Output] = None,
        return_exceptions: bool = False,
        as_kubectl: bool = False,
        client_side: bool = False,
    ) -> List[Any]: ...
    def update(
        self,
        live: Optional[ObjectLike],
        object: ObjectLike,
        manager: str,
        *,
        output: Optional[Output] = None,
    ) -> Any: ...
    def patch(
        self,
        live: ObjectLike,
        patch: Union[Dict[str, Any], List[Any], str, bytes, Object],
        manager: str,
        *,
        type: Literal["strategic", "merge", "json"],
        output: Optional[Output] = None,
    ) -> Any: ...
    @property
    def api_version(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def subresource(self) -> str: ...

def validate(
    object: ObjectLike, *, schema: Optional[Schema] = None, type_name: Optional[str] = None
) -> None: ...
def diff(
    lhs: ObjectLike,
    rhs: ObjectLike,
    *,
    schema: Optional[Schema] = None,
    type_name: Optional[str] = None,
) -> Dict[str, List[str]]: ...
def fieldset(
    object: ObjectLike, *, schema: Optional[Schema] = None, type_name: Optional[str] = None
) -> Dict[str, Any]: ...
def blame(object: ObjectLike) -> Dict[str, List[str]]: ...
def upgrade_managed_fields(
    object: ObjectLike,
    csa_managers: Sequence[str],
    ssa_manager: str,
    subresource: str = "",
    *,
    output: Optional[Output] = None,
) -> Any: ...
@overload
def load_all(text: Union[str, bytes], *, output: Literal["dict"] = ...) -> List[Dict[str, Any]]: ...
@overload
def load_all(text: Union[str, bytes], *, output: Literal["object"]) -> List[Object]: ...
