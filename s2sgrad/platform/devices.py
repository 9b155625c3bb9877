"""Device strings as TF-1.x spells them: ``tf.DeviceSpec``, and the per-thread device and
colocation scopes a Graph applies to each new op.

Placement is a no-op in s2sgrad: every op runs in the one NumPy process. Ops only *record*
the device string (``op.device``, normalised as TF does: ``"/cpu:0"`` -> ``"/device:CPU:0"``)
and their colocation groups (``op.colocation_groups()``), so programs that set them run and
can inspect them.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["DeviceSpec", "Placement"]

_DEVICE_TYPES = ("CPU", "GPU", "TPU")   # the types the short form ``/gpu:0`` may name


class DeviceSpec:
    """A (partial) device: job, replica, task, device type and index; unset parts are None.

    >>> DeviceSpec.from_string("/job:worker/gpu:1").to_string()
    '/job:worker/device:GPU:1'
    """

    __slots__ = ("device_index", "device_type", "job", "replica", "task")

    def __init__(self, job: str | None = None, replica: int | None = None, task: int | None = None,
                 device_type: str | None = None, device_index: int | None = None) -> None:
        self.job = job
        self.replica = None if replica is None else int(replica)
        self.task = None if task is None else int(task)
        self.device_type = device_type
        self.device_index = None if device_index is None else int(device_index)

    @classmethod
    def from_string(cls, spec: str | None) -> DeviceSpec:
        """Parse ``/job:j/replica:r/task:t/device:TYPE:i`` (any part may be missing; the short
        form ``/cpu:0``, ``gpu`` and the index ``*`` are accepted); ValueError names the bad part."""
        if spec is not None and not isinstance(spec, str):
            raise TypeError(f"A device spec must be a string, got {spec!r} of type {type(spec).__name__}")
        parts: dict[str, Any] = {}
        for piece in (spec or "").split("/"):
            fields = piece.split(":")
            key = fields[0]
            if len(fields) == 2 and key in ("job", "replica", "task"):
                parts[key] = fields[1] if key == "job" else _index(fields[1], spec)
            elif len(fields) <= 2 and key.upper() in _DEVICE_TYPES or len(fields) == 3 and key == "device":
                if "device_type" in parts:
                    raise ValueError(f"Multiple device types are not allowed while parsing the device spec: {spec}.")
                parts["device_type"] = key.upper() if key != "device" else fields[1]
                parts["device_index"] = _index(fields[-1], spec) if len(fields) > 1 else None
            elif key:
                raise ValueError(f"Unknown attribute '{key}' is encountered while parsing the device spec: '{spec}'.")
        return cls(**parts)

    def to_string(self) -> str:
        text = ""
        if self.job is not None:
            text += f"/job:{self.job}"
        if self.replica is not None:
            text += f"/replica:{self.replica}"
        if self.task is not None:
            text += f"/task:{self.task}"
        if self.device_type is not None:
            text += f"/device:{self.device_type}:{'*' if self.device_index is None else self.device_index}"
        return text

    def make_merged_spec(self, dev: DeviceSpec) -> DeviceSpec:
        """This spec with every part that ``dev`` sets replaced by ``dev``'s."""
        return DeviceSpec(*[theirs if theirs is not None else mine
                            for mine, theirs in zip(self._parts(), dev._parts(), strict=True)])

    def _parts(self) -> tuple:
        return (self.job, self.replica, self.task, self.device_type, self.device_index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeviceSpec) and self._parts() == other._parts()

    def __hash__(self) -> int:
        return hash(self._parts())

    def __repr__(self) -> str:
        return ("<DeviceSpec(job={}, replica={}, task={}, device_type={}, device_index={})>"
                .format(*self._parts()))


def _index(text: str, spec: str | None) -> int | None:
    if text == "*":
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"Invalid index {text!r} in the device spec {spec!r}: expected an integer or '*'") from None


DeviceFunction = Callable[[Any], str]
DeviceScope = DeviceSpec | DeviceFunction | None   # None: a scope that ignores the outer ones


class Placement:
    """One thread's device scopes (outermost first) and colocation targets for one Graph."""

    def __init__(self) -> None:
        self.devices: list[DeviceScope] = []
        self.colocation: list[Any] = []   # Operations

    @contextlib.contextmanager
    def device(self, device_name_or_function: Any) -> Iterator[None]:
        """Ops created inside record this device, merged with the outer scopes as TF-1.x does."""
        scope = device_name_or_function
        if isinstance(scope, str):
            scope = DeviceSpec.from_string(scope)
        elif isinstance(scope, DeviceSpec):
            scope = DeviceSpec(*scope._parts())
        elif scope is not None and not callable(scope):
            raise TypeError("tf.device takes a device string, a DeviceSpec, a function of the op or None; "
                            f"got {device_name_or_function!r}")
        self.devices.append(scope)
        try:
            yield
        finally:
            self.devices.pop()

    @contextlib.contextmanager
    def colocate_with(self, op: Any, ignore_existing: bool = False) -> Iterator[None]:
        """Ops created inside are colocated with ``op`` (an Operation; None clears, with
        ``ignore_existing``); device scopes from outside do not apply meanwhile, as in TF."""
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        saved = self.devices, self.colocation
        if ignore_existing:
            self.colocation = []
        if op is not None:
            self.colocation = [*self.colocation, op]
            self.devices = []
        try:
            yield
        finally:
            self.devices, self.colocation = saved

    def assign(self, op: Any) -> None:
        """Set ``op._device`` and ``op._colocation`` from the scopes active now."""
        device = ""
        for scope in reversed(self.devices):   # innermost first: it has the first say
            if scope is None:
                break
            if isinstance(scope, DeviceSpec):
                if scope._parts() != (None,) * 5:
                    device = scope.make_merged_spec(DeviceSpec.from_string(device)).to_string()
            else:
                op._device = device
                device = scope(op)
                if not isinstance(device, str):
                    raise TypeError(f"The device function {scope!r} returned {device!r} for op {op.name!r}: "
                                    "expected a device string")
        groups: list[bytes] = []
        for target in self.colocation:
            groups.extend(target.colocation_groups())
        placed = [target.device for target in reversed(self.colocation) if target.device]
        op._device = placed[0] if placed else device   # the innermost colocation with a device wins
        if groups:
            op._colocation = tuple(sorted(set(groups)))
