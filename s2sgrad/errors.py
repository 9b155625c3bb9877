"""TensorFlow's run-time error classes (``tf.errors``), raised by ``Session.run``."""
from __future__ import annotations

from typing import Any

from .tf1_api import UnsupportedTensorFlowName
from .tf1_api import missing_names as _missing_names

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

    def __init__(self, node_def: Any, op: Any, message: str, *args: Any) -> None:
        super().__init__(message, *args)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple:
        return type(self), (None, None, self.message)


def _error(name: str, code: int, doc: str) -> type:
    return type(name, (OpError,), {"error_code": code, "__doc__": doc, "__module__": __name__})


CancelledError = _error("CancelledError", 1, "The operation was cancelled.")
UnknownError = _error("UnknownError", 2, "An unknown error.")
InvalidArgumentError = _error("InvalidArgumentError", 3, "An op received an invalid argument.")
DeadlineExceededError = _error("DeadlineExceededError", 4, "A deadline expired.")
NotFoundError = _error("NotFoundError", 5, "A requested entity was not found.")
AlreadyExistsError = _error("AlreadyExistsError", 6, "An entity already exists.")
PermissionDeniedError = _error("PermissionDeniedError", 7, "Permission denied.")
ResourceExhaustedError = _error("ResourceExhaustedError", 8, "A resource was exhausted.")
FailedPreconditionError = _error(
    "FailedPreconditionError", 9, "The system is not in a state to run the op (e.g. an uninitialised variable).")
AbortedError = _error("AbortedError", 10, "The operation was aborted.")
OutOfRangeError = _error("OutOfRangeError", 11, "A value was out of range.")
UnimplementedError = _error("UnimplementedError", 12, "The operation is not implemented.")
InternalError = _error("InternalError", 13, "An internal invariant was broken.")
UnavailableError = _error("UnavailableError", 14, "The runtime is unavailable.")
DataLossError = _error("DataLossError", 15, "Unrecoverable data loss.")
UnauthenticatedError = _error("UnauthenticatedError", 16, "Missing credentials.")

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
