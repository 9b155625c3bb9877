"""A small stand-in for protocol-buffer messages: typed fields settable by constructor keyword and
by attribute, unknown names refused as protobuf refuses them, text format as ``str()``.

Only what TF-1.x programs do with ``ConfigProto`` and friends is here (see ``config.py``):
no serialisation, no extensions.
"""
from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["Field", "Message"]

_INT_RANGES = {"int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1)}


class Field:
    """One field: ``kind`` is bool, int32, int64, double, string, enum, message, map or repeated."""

    def __init__(self, kind: str, message: type | None = None, labels: dict[str, int] | None = None) -> None:
        self.kind = kind
        self.message = message      # the class of a message field
        self.labels = labels or {}  # enum label -> number

    def message_class(self) -> type:
        """The class of a message field."""
        if self.message is None:
            raise TypeError(f"a {self.kind} field has no message class")
        return self.message

    def default(self) -> Any:
        if self.kind == "message":
            return self.message_class()()
        return {"bool": False, "double": 0.0, "string": "", "map": None, "repeated": None}.get(self.kind, 0)

    def check(self, owner: str, name: str, value: Any) -> Any:
        """``value`` converted to this field's type, or the TypeError/ValueError protobuf raises."""
        where = f"Field tensorflow.{owner}.{name}"
        kind = self.kind
        if kind in ("int32", "int64") or kind == "enum" and not isinstance(value, str):
            if isinstance(value, bool):
                raise TypeError(f"{where}: Expected an int, got a boolean.")
            if not isinstance(value, int):
                raise TypeError(f"{where}: expected an int, got {value!r} of type {type(value).__name__}")
            low, high = _INT_RANGES.get(kind, _INT_RANGES["int32"])
            if not low <= value <= high:
                raise ValueError(f"{where}: Value out of range: {value}")
            return int(value)
        if kind == "enum":
            if value not in self.labels:
                raise ValueError(f'{where}: unknown enum label "{value}" (one of {", ".join(self.labels)})')
            return self.labels[value]
        if kind == "bool":
            if not isinstance(value, int):
                raise TypeError(f"{where}: expected a bool, got {value!r} of type {type(value).__name__}")
            return bool(value)
        if kind == "double":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{where}: expected a number, got {value!r} of type {type(value).__name__}")
            return float(value)
        if not isinstance(value, str):
            raise TypeError(f"{where}: expected a str, got {value!r} of type {type(value).__name__}")
        return value


class Message:
    """Base of the config messages; subclasses list their ``FIELDS`` in field-number order."""

    FIELDS: ClassVar[dict[str, Field]] = {}

    def __init__(self, **fields: Any) -> None:
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_present", set())
        object.__setattr__(self, "_parent", None)
        for name, value in fields.items():
            field = self._field(name, ValueError)
            if value is None:
                continue
            if field.kind == "message":
                self._init_message(name, field, value)
            elif field.kind == "map":
                getattr(self, name).update_checked(value)
            elif field.kind == "repeated":
                if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
                    raise TypeError(f"Field tensorflow.{type(self).__name__}.{name}: expected a list, got {value!r}")
                getattr(self, name).extend(value)
            else:
                setattr(self, name, value)

    def _field(self, name: str, error: type) -> Field:
        field = type(self).FIELDS.get(name)
        if field is None:
            raise error(f'Protocol message {type(self).__name__} has no "{name}" field.')
        return field

    def _init_message(self, name: str, field: Field, value: Any) -> None:
        if isinstance(value, dict):
            value = field.message_class()(**value)
        expected = field.message_class()
        if type(value) is not expected:
            raise TypeError("Parameter to initialize message field must be dict or instance of same class: "
                            f"expected {expected.__name__} got {type(value).__name__}.")
        getattr(self, name).CopyFrom(value)

    def _map_key(self, name: str, key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(f"Field tensorflow.{type(self).__name__}.{name}: keys are strings (device types "
                            f"such as 'CPU', 'GPU'), got {key!r}")
        return key

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        field = self._field(name, AttributeError)
        values = self._values
        if name not in values:   # message, map and repeated fields are made on first access
            value = field.default()
            if field.kind == "message":
                object.__setattr__(value, "_parent", (self, name))
            elif field.kind == "map":
                value = _Counts(self, name)
            elif field.kind == "repeated":
                value = []
            values[name] = value
        return values[name]

    def __setattr__(self, name: str, value: Any) -> None:
        field = self._field(name, AttributeError)
        if field.kind == "message":
            raise AttributeError(f'Assignment not allowed to message field "{name}" in protocol message object.')
        if field.kind in ("map", "repeated"):
            raise AttributeError(f'Assignment not allowed to map, or repeated field "{name}" in protocol '
                                 "message object.")
        self._values[name] = field.check(type(self).__name__, name, value)
        self._mark_present(name)

    def _mark_present(self, name: str) -> None:
        self._present.add(name)
        if self._parent is not None:
            parent, field_name = self._parent
            parent._mark_present(field_name)

    def HasField(self, name: str) -> bool:
        field = self._field(name, ValueError)
        if field.kind != "message":
            raise ValueError(f'Protocol message has no singular "{name}" field.')
        return name in self._present

    def CopyFrom(self, other: Message) -> None:
        """Make this message equal to ``other`` (a message of the same class)."""
        if type(other) is not type(self):
            raise TypeError(f"Parameter to CopyFrom() must be instance of same class: expected "
                            f"{type(self).__name__} got {type(other).__name__}.")
        self._values.clear()
        self._present.clear()
        for name in other._present | set(other._values):
            field = type(self).FIELDS[name]
            if field.kind == "message":
                getattr(self, name).CopyFrom(getattr(other, name))
            elif field.kind == "map":
                getattr(self, name).update(getattr(other, name))
            elif field.kind == "repeated":
                getattr(self, name).extend(getattr(other, name))
            else:
                self._values[name] = other._values[name]
        if other._present:
            self._mark_present(next(iter(other._present)))
        self._present.update(other._present)

    def _lines(self, indent: str) -> list[str]:
        lines = []
        for name, field in type(self).FIELDS.items():
            value = self._values.get(name)
            if field.kind == "message":
                if name in self._present:
                    lines += [f"{indent}{name} {{", *value._lines(indent + "  "), f"{indent}}}"]
            elif field.kind == "map":
                for key, count in sorted((value or {}).items()):
                    lines += [f"{indent}{name} {{", f'{indent}  key: "{key}"', f"{indent}  value: {count}",
                              f"{indent}}}"]
            elif field.kind == "repeated":
                lines += [f"{indent}{name}: {_text(item, field)}" for item in value or ()]
            elif value is not None and value != field.default():
                lines.append(f"{indent}{name}: {_text(value, field)}")
        return lines

    def __str__(self) -> str:
        return "".join(line + "\n" for line in self._lines(""))

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and str(other) == str(self)

    # mutable, as protobuf messages are: unhashable. Python's way to say so; mypy reads it as replacing
    # object.__hash__ with a non-callable (typeshed's own list/dict ignore the same error)
    __hash__ = None  # type: ignore[assignment]


class _Counts(dict):
    """A ``map<string, int32>`` field (``device_count``): setting an entry marks the field present."""

    def __init__(self, owner: Message, name: str) -> None:
        super().__init__()
        self._owner, self._name = owner, name

    def __setitem__(self, key: Any, value: Any) -> None:
        owner = self._owner
        super().__setitem__(owner._map_key(self._name, key), Field("int32").check(type(owner).__name__,
                                                                                 self._name, value))
        owner._mark_present(self._name)

    def update_checked(self, entries: Any) -> None:
        if not isinstance(entries, dict):
            raise TypeError(f"Field tensorflow.{type(self._owner).__name__}.{self._name}: expected a dict such "
                            f"as {{'GPU': 0}}, got {entries!r}")
        for key, value in entries.items():
            self[key] = value

    def __missing__(self, key: str) -> int:
        return 0


def _text(value: Any, field: Field) -> str:
    if field.kind == "bool":
        return "true" if value else "false"
    if field.kind == "enum":
        return next((label for label, number in field.labels.items() if number == value), str(value))
    if field.kind == "double":
        return str(int(value)) if value == int(value) else repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)
