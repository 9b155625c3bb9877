"""``tf.flags`` / ``tf.app.flags``: command-line flags as TF-1.x programs define and read them.

>>> DEFINE_integer("steps", 10, "training steps", flag_values=(fv := FlagValues()))  # doctest: +ELLIPSIS
<...>
>>> fv(["prog", "--steps=5", "data.csv"]), fv.steps
(['prog', 'data.csv'], 5)

Spellings: ``--name=value``, ``--name value``, ``-name=value``, ``--bool`` / ``--nobool`` /
``--bool=false``; ``--`` ends the flags. Reading ``FLAGS.x`` before any parse parses
``sys.argv`` first, as TF-1.x's ``tf.flags.FLAGS`` does. A failed parse changes no value.
"""
from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..tf1_api import missing_names as _missing_names

__all__ = [
    "FLAGS",
    "DEFINE_bool",
    "DEFINE_boolean",
    "DEFINE_enum",
    "DEFINE_float",
    "DEFINE_integer",
    "DEFINE_list",
    "DEFINE_string",
    "DuplicateFlagError",
    "Error",
    "FlagValues",
    "IllegalFlagValueError",
    "UnrecognizedFlagError",
    "mark_flag_as_required",
]


class Error(Exception):
    """Base of the flag errors."""


class IllegalFlagValueError(Error):
    """A flag's value (from the command line or its default) does not parse."""


class UnrecognizedFlagError(Error):
    """The command line names a flag that was never defined."""

    def __init__(self, flagname: str, flagvalue: str = "", suggestions: Sequence[str] | None = None) -> None:
        hint = f". Did you mean: {', '.join(suggestions)} ?" if suggestions else ""
        super().__init__(f"Unknown command line flag '{flagname}'{hint}")
        self.flagname, self.flagvalue = flagname, flagvalue


class DuplicateFlagError(Error):
    """A flag is defined twice."""


_TRUE, _FALSE = ("true", "t", "1"), ("false", "f", "0")


class _Flag:
    """One defined flag: ``convert`` turns its command-line text into the value."""

    def __init__(self, name: str, default: Any, help_text: str, kind: str,
                 convert: Callable[[str], Any], module: str) -> None:
        self.name, self.help, self.kind, self.module = name, help_text, kind, module
        self._convert = convert
        self.required = False
        self.default = self.parse(default)
        self.value = self.default

    def parse(self, argument: Any) -> Any:
        """The value for ``argument`` (text, or a default of the flag's type); IllegalFlagValueError."""
        if argument is None:
            return None
        try:
            return self._convert(argument)
        except (ValueError, TypeError) as e:
            raise IllegalFlagValueError(f"flag --{self.name}={argument}: {e}") from None


class _FlagHolder:
    """What ``DEFINE_*`` returns: ``holder.value`` reads the flag."""

    def __init__(self, flag_values: FlagValues, name: str) -> None:
        self._flag_values, self.name = flag_values, name

    @property
    def value(self) -> Any:
        return getattr(self._flag_values, self.name)


class FlagValues:
    """The registry of defined flags and their values (``FLAGS``)."""

    def __init__(self) -> None:
        # under the key absl uses: old programs list the flags with ``FLAGS.__flags.items()``
        self.__dict__["__flags"] = {}
        object.__setattr__(self, "_parsed", False)

    @property
    def _flags(self) -> dict[str, _Flag]:
        return self.__dict__["__flags"]

    def __getattr__(self, name: str) -> Any:
        flags = self._flags
        if name not in flags:
            raise AttributeError(name)
        if not self._parsed:   # TF-1.x: the first read parses sys.argv
            self(sys.argv)
        return flags[name].value

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._flags:
            raise UnrecognizedFlagError(name, value)
        self._flags[name].value = value

    def __contains__(self, name: object) -> bool:
        return name in self._flags

    def __getitem__(self, name: str) -> _Flag:
        return self._flags[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._flags)

    def __len__(self) -> int:
        return len(self._flags)

    def is_parsed(self) -> bool:
        return self._parsed

    def mark_as_parsed(self) -> None:
        object.__setattr__(self, "_parsed", True)

    def unparse_flags(self) -> None:
        """Back to the defaults and to unparsed (the next read parses ``sys.argv`` again)."""
        for flag in self._flags.values():
            flag.value = flag.default
        object.__setattr__(self, "_parsed", False)

    def flag_values_dict(self) -> dict[str, Any]:
        return {name: flag.value for name, flag in self._flags.items()}

    def register(self, flag: _Flag) -> None:
        if not flag.name:
            raise Error("Flag name cannot be empty")
        first = self._flags.get(flag.name)
        if first is not None:
            raise DuplicateFlagError(f"The flag '{flag.name}' is defined twice. First from {first.module}, second "
                                     f"from {flag.module}. Description from first occurrence: {first.help}")
        self._flags[flag.name] = flag

    def __call__(self, argv: Sequence[str], known_only: bool = False) -> list[str]:
        """Parse ``argv`` (``argv[0]`` is the program); set the flags it names; return the program and
        the other arguments. With ``known_only``, undefined flags (and ``--``) are returned too."""
        if isinstance(argv, (str, bytes)) or not isinstance(argv, (list, tuple)):
            raise TypeError("argv should be a tuple/list of strings, not bytes or string.")
        if not argv:
            raise ValueError("argv cannot be an empty list, and must contain the program name as the first "
                             "element.")
        new_values, rest = self._parse(list(argv[1:]), known_only)
        for flag in self._flags.values():
            if flag.required and new_values.get(flag.name, flag.value) is None:
                raise IllegalFlagValueError(f"flag --{flag.name}=None: Flag --{flag.name} must have a value "
                                            "other than None.")
        for name, value in new_values.items():
            self._flags[name].value = value
        self.mark_as_parsed()
        return [argv[0], *rest]

    def _parse(self, args: list[str], known_only: bool) -> tuple[dict[str, Any], list[str]]:
        values: dict[str, Any] = {}
        rest: list[str] = []
        while args:
            arg = args.pop(0)
            if arg == "--":
                rest += [arg, *args] if known_only else args
                break
            if not arg.startswith("-") or arg == "-":
                rest.append(arg)
                continue
            name, has_value, text = arg.lstrip("-").partition("=")
            flag = self._flags.get(name)
            negated = self._flags.get(name[2:]) if name.startswith("no") else None
            if flag is not None and flag.kind == "bool":
                values[name] = flag.parse(text) if has_value else True
            elif flag is not None:
                if not has_value:
                    if not args:
                        raise Error(f"Missing value for flag {arg}")
                    text = args.pop(0)
                values[name] = flag.parse(text)
            elif negated is not None and negated.kind == "bool":
                if has_value:
                    raise ValueError(f"{arg} does not take an argument")
                values[negated.name] = False
            elif known_only:
                rest.append(arg)
            else:
                raise UnrecognizedFlagError(name, arg, difflib.get_close_matches(name, list(self._flags), n=1))
        return values, rest

    def usage(self, program: str) -> str:
        """The ``--help`` text: every flag with its help and default."""
        lines = [f"USAGE: {program} [flags]", "flags:"]
        for flag in sorted(self._flags.values(), key=lambda f: (f.module, f.name)):
            lines += [f"  --{flag.name}: {flag.help}", f"    (default: {_default_text(flag)!r})"]
        return "\n".join(lines) + "\n"


FLAGS = FlagValues()


def _default_text(flag: _Flag) -> str:
    if isinstance(flag.default, list):
        return ",".join(flag.default)
    return "true" if flag.default is True else "false" if flag.default is False else str(flag.default)


def _to_bool(argument: Any) -> bool:
    if isinstance(argument, bool):
        return argument
    if isinstance(argument, str) and argument.lower() in _TRUE + _FALSE:
        return argument.lower() in _TRUE
    raise ValueError(f"non-boolean argument {argument!r} to a boolean flag (use true/false, t/f or 1/0)")


def _to_int(argument: Any) -> int:
    if isinstance(argument, bool) or not isinstance(argument, (str, int)):
        raise TypeError(f"expected a string or int, found {type(argument).__name__}")
    if isinstance(argument, int):
        return argument
    text = argument.strip()
    base = 16 if text[:2].lower() == "0x" else 8 if text[:2].lower() == "0o" else 10
    return int(text, base)


def _to_float(argument: Any) -> float:
    if isinstance(argument, bool) or not isinstance(argument, (str, int, float)):
        raise TypeError(f"expected a string or number, found {type(argument).__name__}")
    return float(argument)


def _to_str(argument: Any) -> str:
    return argument if isinstance(argument, str) else str(argument)


def _to_list(argument: Any) -> list[str]:
    if isinstance(argument, (list, tuple)):
        return [str(item) for item in argument]
    if not isinstance(argument, str):
        raise TypeError(f"expected a comma-separated string or a list, found {type(argument).__name__}")
    return [item.strip() for item in argument.split(",")] if argument else []


def _bounded(convert: Callable[[Any], Any], kind: str, lower: Any, upper: Any) -> Callable[[Any], Any]:
    """``convert`` followed by the check ``lower <= value <= upper`` (either bound may be None)."""
    if lower is None and upper is None:
        return convert
    wanted = (f"a non-negative {kind}" if lower == 0 and upper is None else
              f"a positive {kind}" if lower == 1 and upper is None and kind == "integer" else
              f"{kind} in the range [{'-inf' if lower is None else lower}, {'inf' if upper is None else upper}]")

    def checked(argument: Any) -> Any:
        value = convert(argument)
        if lower is not None and value < lower or upper is not None and value > upper:
            raise ValueError(f"{value} is not {wanted}")
        return value
    return checked


def _one_of(values: Sequence[str]) -> Callable[[Any], str]:
    if not values or not all(isinstance(v, str) for v in values):
        raise ValueError(f"enum_values must be a non-empty list of strings, got {values!r}")

    def convert(argument: Any) -> str:
        if argument not in values:
            raise ValueError(f"value should be one of <{'|'.join(values)}>")
        return argument
    return convert


def _define(kind: str, convert: Callable[[Any], Any], name: Any, default: Any, help_text: Any,
            flag_values: FlagValues, module_name: str | None, required: bool) -> _FlagHolder:
    """Register a flag (named after the calling module unless ``module_name`` is given)."""
    if not isinstance(name, str):
        raise TypeError(f"A flag name must be a string, got {name!r}")
    module = module_name or os.path.basename(sys._getframe(2).f_code.co_filename)
    flag = _Flag(name, default, help_text or "(no help available)", kind, convert, module)
    flag_values.register(flag)
    flag.required = bool(required)
    return _FlagHolder(flag_values, name)


def DEFINE_string(name: str, default: str | None, help: str | None, flag_values: FlagValues = FLAGS,
                  required: bool = False) -> _FlagHolder:
    return _define("string", _to_str, name, default, help, flag_values, None, required)


def DEFINE_integer(name: str, default: int | str | None, help: str | None,
                   lower_bound: int | None = None, upper_bound: int | None = None, flag_values: FlagValues = FLAGS,
                   required: bool = False) -> _FlagHolder:
    convert = _bounded(_to_int, "integer", lower_bound, upper_bound)
    return _define("integer", convert, name, default, help, flag_values, None, required)


def DEFINE_float(name: str, default: float | str | None, help: str | None,
                 lower_bound: float | None = None, upper_bound: float | None = None, flag_values: FlagValues = FLAGS,
                 required: bool = False) -> _FlagHolder:
    convert = _bounded(_to_float, "float", lower_bound, upper_bound)
    return _define("float", convert, name, default, help, flag_values, None, required)


def DEFINE_boolean(name: str, default: bool | str | None, help: str | None,
                   flag_values: FlagValues = FLAGS, module_name: str | None = None,
                   required: bool = False) -> _FlagHolder:
    return _define("bool", _to_bool, name, default, help, flag_values, module_name, required)


DEFINE_bool = DEFINE_boolean


def DEFINE_list(name: str, default: Sequence[str] | str | None, help: str | None,
                flag_values: FlagValues = FLAGS, required: bool = False) -> _FlagHolder:
    return _define("list", _to_list, name, default, help, flag_values, None, required)


def DEFINE_enum(name: str, default: str | None, enum_values: Sequence[str], help: str | None,
                flag_values: FlagValues = FLAGS, module_name: str | None = None,
                required: bool = False) -> _FlagHolder:
    return _define("enum", _one_of(list(enum_values)), name, default, help, flag_values, module_name, required)


def mark_flag_as_required(flag_name: str, flag_values: FlagValues | None = None) -> None:
    """Parsing fails unless the flag ends up with a value other than None."""
    flag_values = FLAGS if flag_values is None else flag_values
    if flag_name not in flag_values:
        raise KeyError(f"mark_flag_as_required: no flag named {flag_name!r} is defined")
    flag_values[flag_name].required = True

__getattr__ = _missing_names("flags", __name__)  # TF names s2sgrad lacks say so
