"""The items of a basic-indexing spec (``x[1:, None, i]``) that are not Python values."""
from __future__ import annotations

import dataclasses

__all__ = ["TensorIndex"]


@dataclasses.dataclass(frozen=True, slots=True)
class TensorIndex:
    """In a StridedSlice index spec: "the value of input ``k``" (a scalar int tensor)."""

    k: int

    def __repr__(self) -> str:
        return f"<input {self.k}>"
