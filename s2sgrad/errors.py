"""TensorFlow's run-time error classes (``tf.errors``), raised by ``Session.run``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .tf1_api import UnsupportedTensorFlowName
from .tf1_api import missing_names as _missing_names

if TYPE_CHECKING:  # the type only: errors sit below the graph that raises them
    from .ssa.graph import Operation

__all__ = [
    "OpError", "CancelledError", "UnknownError", "InvalidArgumentError", "DeadlineExceededError",
    "NotFoundError", "AlreadyExistsError", "PermissionDeniedError", "UnauthenticatedError",
    "ResourceExhaustedError", "FailedPreconditionError", "AbortedError", "OutOfRangeError",
    "UnimplementedError", "InternalError", "UnavailableError", "DataLossError", "UnsupportedTensorFlowName",
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
    "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED", "exception_type_from_error_code",
    "error_code_from_exception_type",
]


class OpError(Exception):
    """An error while running a graph; ``op`` is the Operation that failed (or None)."""

    error_code = 2

    def __init__(self, node_def: Any, op: Operation | None, message: str, *args: Any) -> None:
        super().__init__(message, *args)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple:
        return type(self), (None, None, self.message)


class CancelledError(OpError):
    """The operation was cancelled."""

    error_code = 1


class UnknownError(OpError):
    """An unknown error."""

    error_code = 2


class InvalidArgumentError(OpError):
    """An op received an invalid argument."""

    error_code = 3


class DeadlineExceededError(OpError):
    """A deadline expired."""

    error_code = 4


class NotFoundError(OpError):
    """A requested entity was not found."""

    error_code = 5


class AlreadyExistsError(OpError):
    """An entity already exists."""

    error_code = 6


class PermissionDeniedError(OpError):
    """Permission denied."""

    error_code = 7


class ResourceExhaustedError(OpError):
    """A resource was exhausted."""

    error_code = 8


class FailedPreconditionError(OpError):
    """The system is not in a state to run the op (e.g. an uninitialised variable)."""

    error_code = 9


class AbortedError(OpError):
    """The operation was aborted."""

    error_code = 10


class OutOfRangeError(OpError):
    """A value was out of range."""

    error_code = 11


class UnimplementedError(OpError):
    """The operation is not implemented."""

    error_code = 12


class InternalError(OpError):
    """An internal invariant was broken."""

    error_code = 13


class UnavailableError(OpError):
    """The runtime is unavailable."""

    error_code = 14


class DataLossError(OpError):
    """Unrecoverable data loss."""

    error_code = 15


class UnauthenticatedError(OpError):
    """Missing credentials."""

    error_code = 16


# The error codes, named as TF's ``tf.errors.OK``...: ``UNKNOWN == UnknownError.error_code``.
OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS = range(7)
PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE = range(7, 12)
UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED = range(12, 17)
_BY_CODE = {cls.error_code: cls for cls in OpError.__subclasses__()}
_CODE_OF = {cls: code for code, cls in _BY_CODE.items()}


def exception_type_from_error_code(error_code: int) -> type[OpError]:
    """The OpError subclass for ``error_code`` (KeyError for an unknown code, as TF)."""
    return _BY_CODE[error_code]


def error_code_from_exception_type(cls: type) -> int:
    """The code of an OpError subclass (KeyError for any other class)."""
    if cls not in _CODE_OF:
        raise KeyError(f"{cls!r} is not an OpError subclass with a TensorFlow error code")
    return _CODE_OF[cls]


__getattr__ = _missing_names("errors", __name__)
