"""The exceptions smdx raises, and the data they carry."""

from typing import List, NamedTuple


class Conflict(NamedTuple):
    """A field an apply would take from another manager."""

    #: The manager as the apiserver names it: '"kubectl"', or
    #: '"kubelet" with subresource "status" using v1'.
    manager: str
    #: The manager's bare name ("kubectl").
    name: str
    #: The field's path as SMD prints it (".spec.replicas").
    path: str


class Error(Exception):
    """Base class of every smdx error."""


class ConflictError(Error):
    """An apply would take fields that other managers own with other values
    (the apiserver's 409 Conflict). ``str()`` is the apiserver's message,
    which kubectl prints; ``conflicts`` lists every field and its owner.
    Apply with force=True to take them over. With ``conflicts`` empty, the
    apiserver's other 409: the request's resourceVersion or uid is not the
    live object's (it changed since the request's was read); force does not
    help, reading the object again does."""

    def __init__(self, message: str, conflicts: List[Conflict]):
        super().__init__(message)
        self.conflicts = list(conflicts)


class ImmutableError(Error):
    """The change touches immutable fields (x-kubernetes-immutable and the
    other immutability markers); ``paths`` lists every violating path."""

    def __init__(self, message: str, paths: List[str]):
        super().__init__(message)
        self.paths = list(paths)


class InvalidError(Error, ValueError):
    """The input is invalid: an object that does not fit its schema, text
    that is not JSON or YAML, invalid managedFields, a bad manager name (the
    apiserver's 422 Invalid)."""


class BadRequestError(Error, ValueError):
    """The request is malformed: an apiVersion or kind other than the
    resource's, managedFields in an applied configuration (400)."""


class LimitError(InvalidError):
    """An input is over a limit (bytes, nesting depth, YAML nodes, list
    items, managedFields entries)."""


class SchemaError(Error, ValueError):
    """A schema document is invalid; the message names the node."""


class KindNotFoundError(Error, LookupError):
    """The schema has no such kind or type."""


class ServerWarning(UserWarning):
    """A warning the apiserver sends with its answer, word for word (an
    update whose owner references repeat one, which it drops)."""


class DeletedWarning(UserWarning):
    """The apiserver deletes the object instead of storing it: the write
    left an object being deleted (a deletionTimestamp, no grace period
    left) without finalizers. The object returned is the apiserver's
    answer, which it no longer holds."""


class ManagedFieldsWarning(UserWarning):
    """An update passed over invalid managedFields, as the apiserver does."""
