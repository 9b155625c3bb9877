"""TF-1.x's ``Dimension``: one size of a static shape, known (an int >= 0) or unknown (None).

Arithmetic with an unknown size gives an unknown Dimension; comparisons with one give None (not a bool),
as in TensorFlow 1.x: ``Dimension(None) + 1`` is ``Dimension(None)``, ``Dimension(3) == None`` is None.
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NoReturn

__all__ = ["Dimension", "as_dimension", "dimension_value", "index_value"]


def index_value(value: Any) -> int:
    """``value`` as an int through ``__index__`` (ints, NumPy ints, Dimensions); TypeError otherwise."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                        f"{value!r} with type {type(value)!r}") from None


def _arithmetic(fn: Callable[[int, int], int], reflected: bool = False) -> Callable[[Dimension, Any], Dimension]:
    """A binary operator method: ``fn`` of the two sizes, unknown if either is; NotImplemented for
    operands that are no dimension (floats, negative ints, text)."""
    def method(self: Dimension, other: Any) -> Dimension:
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        a, b = (other._value, self._value) if reflected else (self._value, other._value)
        return Dimension(None if a is None or b is None else fn(a, b))
    return method


class Dimension:
    """The size of one axis, or None when it is only known at run time.

    >>> Dimension(3) * 2
    Dimension(6)
    >>> Dimension(None).value is None
    True
    """

    __slots__ = ("_value",)
    _value: int | None

    def __init__(self, value: Any) -> None:
        if value is None or isinstance(value, Dimension):
            self._value = None if value is None else value._value
            return
        size = index_value(value)
        if size < 0:
            raise ValueError(f"Dimension {size} must be >= 0")
        self._value = size

    @property
    def value(self) -> int | None:
        """The size, or None if it is unknown."""
        return self._value

    def __repr__(self) -> str:
        return f"Dimension({self._value!r})"

    def __str__(self) -> str:
        return "?" if self._value is None else str(self._value)

    def __int__(self) -> int:
        return self.__index__()

    def __index__(self) -> int:
        if self._value is None:
            raise TypeError("Cannot convert an unknown Dimension to an int; it is only known at run time "
                            "(use tf.shape(x) for it)")
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    # unhashable, as TF's: equality with unknowns is not a bool. Python's way to say so; mypy reads it as
    # replacing object.__hash__ with a non-callable (typeshed's own list/dict ignore the same error)
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> Any:
        return _compare(self, other, operator.eq, equality=True)

    def __ne__(self, other: object) -> Any:
        return _compare(self, other, operator.ne, equality=True)

    def __lt__(self, other: Any) -> bool | None:
        return _compare(self, other, operator.lt)

    def __le__(self, other: Any) -> bool | None:
        return _compare(self, other, operator.le)

    def __gt__(self, other: Any) -> bool | None:
        return _compare(self, other, operator.gt)

    def __ge__(self, other: Any) -> bool | None:
        return _compare(self, other, operator.ge)

    def is_compatible_with(self, other: Any) -> bool:
        """True unless both sizes are known and differ."""
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {as_dimension(other)} are not compatible")

    def merge_with(self, other: Any) -> Dimension:
        """The known one of two compatible Dimensions; ValueError when both are known and differ."""
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(other._value if self._value is None else self._value)

    __add__, __radd__ = _arithmetic(operator.add), _arithmetic(operator.add, reflected=True)
    __sub__, __rsub__ = _arithmetic(operator.sub), _arithmetic(operator.sub, reflected=True)
    __mul__, __rmul__ = _arithmetic(operator.mul), _arithmetic(operator.mul, reflected=True)
    __floordiv__, __rfloordiv__ = _arithmetic(operator.floordiv), _arithmetic(operator.floordiv, reflected=True)
    __mod__, __rmod__ = _arithmetic(operator.mod), _arithmetic(operator.mod, reflected=True)

    def __truediv__(self, other: Any) -> NoReturn:
        raise TypeError(f"unsupported operand type(s) for /: 'Dimension' and '{type(other).__name__}', "
                        "please use // instead")

    def __rtruediv__(self, other: Any) -> NoReturn:
        raise TypeError(f"unsupported operand type(s) for /: '{type(other).__name__}' and 'Dimension', "
                        "please use // instead")

    def __reduce__(self) -> tuple[type[Dimension], tuple[int | None]]:
        return Dimension, (self._value,)


def _compare(dim: Dimension, other: Any, test: Callable[[int, int], bool], equality: bool = False) -> bool | None:
    """``test`` of two known sizes; None when either is unknown. An ``other`` that is no dimension makes
    ==/!= NotImplemented (so Python falls back to identity) and orderings raise."""
    try:
        other = as_dimension(other)
    except (TypeError, ValueError):
        if equality:
            return NotImplemented
        raise
    if dim._value is None or other._value is None:
        return None
    return test(dim._value, other._value)


def as_dimension(value: Any) -> Dimension:
    """``value`` itself if it is a Dimension, else ``Dimension(value)``."""
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension: Any) -> int | None:
    """The plain size of a Dimension (an int or None); other values are returned unchanged."""
    return dimension._value if isinstance(dimension, Dimension) else dimension
