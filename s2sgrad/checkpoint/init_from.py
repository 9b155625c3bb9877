"""``tf.train.init_from_checkpoint``: variables whose initializers load values from a checkpoint.

``assignment_map`` maps checkpoint names to current ones, as in TF1:
``{"ckpt/var": "scope/var"}`` or ``{"ckpt/var": variable}`` (one variable), and
``{"ckpt_scope/": "scope/"}`` (every variable under ``scope/`` from the same relative name under
``ckpt_scope/``; ``"/"`` stands for the root on either side). Unlike TF, which reads the file
when the initializer runs, the values are read here and the initializers assign them as
constants; like TF, it must come before ``global_variables_initializer()`` is built. Names are
looked up among the graph's global variables (TF looks among ``tf.get_variable`` ones only).
"""
from __future__ import annotations

from typing import Any

from ..ops.convert import convert_to_tensor
from ..ops.variables import GLOBAL_VARIABLES, Variable, assign
from ..ssa.graph import get_default_graph
from .bundle import BundleReader
from .reader import checkpoint_prefix, value_for

__all__ = ["init_from_checkpoint"]


def init_from_checkpoint(ckpt_dir_or_file: str, assignment_map: dict[str, Any]) -> None:
    """Replace the initializers of the mapped variables by ones that assign the checkpoint's values.

    >>> # tf.train.init_from_checkpoint("/tmp/pretrained", {"encoder/": "model/encoder/"})
    """
    if not isinstance(assignment_map, dict):
        raise TypeError(f"assignment_map must be a dict, got {assignment_map!r}")
    prefix = checkpoint_prefix(ckpt_dir_or_file)
    bundle = BundleReader(prefix)
    current = {var.op.name: var for var in get_default_graph().get_collection(GLOBAL_VARIABLES)}
    for ckpt_name, target in sorted(assignment_map.items(), key=lambda item: str(item[0])):
        var = target if isinstance(target, Variable) else current.get(target) if isinstance(target, str) else None
        if var is not None and not isinstance(ckpt_name, str):
            raise TypeError(f"assignment_map keys must be checkpoint names, got {ckpt_name!r}")
        if var is not None:
            _initialize_from(bundle, ckpt_name, var, prefix)
            continue
        if not isinstance(target, str) or not isinstance(ckpt_name, str):
            raise TypeError(f"assignment_map must map names to variables or names, got {ckpt_name!r}: {target!r}")
        scope = target[:target.rindex("/")] if "/" in target else ""
        if not ckpt_name.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {scope} should map to scope only {ckpt_name}. "
                             "Should be 'scope/': 'other_scope/'.")
        for name in sorted(n for n in current if not scope or n.startswith(scope + "/")):
            relative = name[len(scope):] if target == "/" else name[len(scope) + 1:] if scope else name
            full = relative if ckpt_name == "/" else ckpt_name + relative
            _initialize_from(bundle, full.removesuffix("/"), current[name], prefix)


def _initialize_from(bundle: BundleReader, key: str, var: Variable, prefix: str) -> None:
    if key not in bundle.entries:
        raise ValueError(f"Tensor {key} is not found in {prefix} checkpoint {_shapes(bundle)}")
    if not var.shape.is_compatible_with(bundle.entries[key].shape):
        raise ValueError(f"Shape of variable {var.name} ({var.shape}) doesn't match with shape of tensor {key} "
                         f"({list(bundle.entries[key].shape)}) from checkpoint reader.")
    value = value_for(bundle, key, var)
    graph = var.graph
    with graph.as_default(), graph.name_scope(None):
        init = convert_to_tensor(value, dtype=var.dtype, name=var.op.name + "/checkpoint_initializer")
        var._initial_value = init
        var._initializer = assign(var, init, name=var.op.name + "/Assign_from_checkpoint").op


def _shapes(bundle: BundleReader) -> dict[str, list[int]]:
    return {name: list(e.shape) for name, e in bundle.entries.items()}
