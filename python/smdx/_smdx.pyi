# Type stubs of the native module (python/module.cc). Docstrings there.
import datetime
import os
from typing import Any, Dict, List, Literal, Optional, Union

Object = Union[Dict[str, Any], str, bytes]
Output = Literal["dict", "json", "yaml"]

__version__: str

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
        live: Optional[Object],
        config: Object,
        manager: str,
        force: bool = False,
        *,
        output: Optional[Output] = None,
    ) -> Any: ...
    def update(
        self,
        live: Optional[Object],
        object: Object,
        manager: str,
        *,
        output: Optional[Output] = None,
    ) -> Any: ...
    @property
    def api_version(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def subresource(self) -> str: ...

def validate(
    object: Object, *, schema: Optional[Schema] = None, type_name: Optional[str] = None
) -> None: ...
def diff(
    lhs: Object,
    rhs: Object,
    *,
    schema: Optional[Schema] = None,
    type_name: Optional[str] = None,
) -> Dict[str, List[str]]: ...
def fieldset(
    object: Object, *, schema: Optional[Schema] = None, type_name: Optional[str] = None
) -> Dict[str, Any]: ...
def blame(object: Object) -> Dict[str, List[str]]: ...
def load_all(text: Union[str, bytes]) -> List[Dict[str, Any]]: ...
