"""Write the NumPy functions and ndarray methods that autograd differentiates, one name a line.

Reads autograd's own registries (needs ``pip install autograd``): every primitive with a
reverse-mode rule whose wrapped function is a public NumPy function, the public NumPy names
that ``autograd.numpy`` re-implements as compositions of primitives (``concatenate``,
``stack``, ``mean``...) and the ndarray methods autograd's boxes differentiate.

    python tools/autograd_functions.py > tests/data/autograd/numpy_functions.txt
"""
from __future__ import annotations

import sys
import types

import autograd.numpy.fft  # registers the fft rules
import autograd.numpy.linalg  # noqa: F401  # registers the linalg rules
import numpy as np
from autograd.core import primitive_vjps
from autograd.numpy import numpy_boxes, numpy_wrapper

NAMESPACES = ((np, "numpy."), (np.linalg, "numpy.linalg."), (np.fft, "numpy.fft."))


def numpy_names() -> dict[int, str]:
    """id(object) -> its public NumPy name (the first in sorted order for aliases)."""
    names: dict[int, str] = {}
    for module, prefix in NAMESPACES:
        for name in sorted(dir(module)):
            if not name.startswith("_"):
                names.setdefault(id(getattr(module, name)), prefix + name)
    return names


def differentiated() -> list[str]:
    names = numpy_names()
    found = {names[id(getattr(p, "fun", p))] for p in primitive_vjps if id(getattr(p, "fun", p)) in names}
    for name, value in vars(numpy_wrapper).items():  # compositions: concatenate, stack, mean, ...
        own = isinstance(value, types.FunctionType) and value.__module__ == numpy_wrapper.__name__
        if own and not name.startswith("_") and hasattr(np, name):
            found.add(f"numpy.{name}")
    found |= {f"ndarray.{m}" for m in numpy_boxes.diff_methods + ["flatten"]}
    return sorted(found)


if __name__ == "__main__":
    sys.stdout.write("".join(f"{name}\n" for name in differentiated()))
