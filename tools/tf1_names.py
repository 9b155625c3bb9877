"""Write the list of TensorFlow 1.x's public names that s2sgrad checks itself against.

Run once, with TensorFlow installed (TensorFlow is never a dependency of s2sgrad):

    /tmp/tfvenv/bin/python tools/tf1_names.py

It walks ``tf.compat.v1`` recursively and writes two files:

- ``s2sgrad/data/tf1_names.txt``: one name per line, relative to ``tf`` (``nn.relu``), a
  namespace ending in ``.`` (``nn.``). Package data: s2sgrad reads it to tell a missing
  TensorFlow name from a typo (``s2sgrad.tf1_api``), and ``tools/coverage_table.py`` counts it.
- ``tests/data/tf1_signatures.txt``: ``name<TAB>parameters`` for every function and class,
  each parameter as ``name=default`` (``repr`` of simple defaults, ``...`` for other objects)
  or a bare name when required; the tests compare s2sgrad's signatures with these.

``tf.compat.v1`` no longer holds the TF 0.x/1.0 spellings that old programs use (``tf.mul``,
``tf.scalar_summary``...) nor ``tf.contrib``; ``LEGACY`` adds the ones that real programs
still call, and the common ``tf.layers`` and ``tf.nn.rnn_cell`` names (Keras-based: with TF 2's
Keras 3 they do not load), so that they, too, get the "not supported yet" answer rather than a typo's.
"""
from __future__ import annotations

import inspect
import os
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES_FILE = os.path.join(ROOT, "s2sgrad", "data", "tf1_names.txt")
SIGNATURES_FILE = os.path.join(ROOT, "tests", "data", "tf1_signatures.txt")
# Namespaces left out: the ~1900 generated raw op wrappers, which TF-1.x programs do not call.
SKIPPED = {"raw_ops."}
# Namespaces listed but not walked: v1 is ``tf`` itself, v2 is TensorFlow 2's API, and TensorFlow
# 2.x's ``keras`` is Keras 3, not TF-1.x's tf.keras.
NOT_WALKED = {"compat.v1.", "compat.v2.", "keras."}
# TF 0.x/1.0 names removed before tf.compat.v1 existed, tf.contrib names common in TF-1.x programs, and
# the common names of the two Keras-based namespaces that TensorFlow 2.x cannot load without tf_keras.
LEGACY = """
mul sub neg select concat_v2 all_variables initialize_variables initialize_local_variables
scalar_summary histogram_summary image_summary audio_summary merge_summary merge_all_summaries
train.SummaryWriter pack unpack batch_matmul listdiff
contrib. contrib.layers. contrib.layers.xavier_initializer contrib.layers.xavier_initializer_conv2d
contrib.layers.variance_scaling_initializer contrib.layers.l2_regularizer contrib.layers.l1_regularizer
contrib.layers.fully_connected contrib.layers.conv2d contrib.layers.max_pool2d contrib.layers.flatten
contrib.layers.batch_norm contrib.layers.dropout contrib.layers.embed_sequence contrib.layers.linear
contrib.layers.optimize_loss contrib.layers.summarize_tensor
contrib.rnn. contrib.rnn.BasicLSTMCell contrib.rnn.LSTMCell contrib.rnn.GRUCell contrib.rnn.BasicRNNCell
contrib.rnn.MultiRNNCell contrib.rnn.DropoutWrapper contrib.rnn.static_rnn contrib.rnn.LSTMStateTuple
contrib.framework. contrib.framework.get_or_create_global_step contrib.framework.get_global_step
contrib.framework.get_variables contrib.framework.get_variables_to_restore contrib.framework.arg_scope
contrib.framework.model_variable contrib.framework.get_model_variables
contrib.learn. contrib.slim. contrib.seq2seq. contrib.distributions. contrib.metrics. contrib.losses.
layers.dense layers.conv1d layers.conv2d layers.conv2d_transpose layers.max_pooling1d layers.max_pooling2d
layers.average_pooling2d layers.dropout layers.flatten layers.batch_normalization layers.Dense layers.Conv2D
layers.MaxPooling2D layers.Dropout layers.Flatten layers.BatchNormalization layers.Layer
nn.rnn_cell.RNNCell nn.rnn_cell.BasicRNNCell nn.rnn_cell.BasicLSTMCell nn.rnn_cell.LSTMCell nn.rnn_cell.GRUCell
nn.rnn_cell.MultiRNNCell nn.rnn_cell.DropoutWrapper nn.rnn_cell.LSTMStateTuple nn.rnn_cell.ResidualWrapper
""".split()


def walk(module: types.ModuleType, prefix: str, stack: tuple = ()) -> dict[str, object]:
    """Every public name under ``module``: {"nn.relu": <function>, "nn.": <module>, ...}."""
    found: dict[str, object] = {}
    try:
        names = sorted(dir(module))
    except Exception as e:  # a Keras-based namespace that does not load with Keras 3
        print(f"left out the contents of {prefix}: {type(e).__name__}: {e}", file=sys.stderr)
        return found
    for name in names:
        if name.startswith("_") or prefix + name + "." in SKIPPED:
            continue
        try:
            value = getattr(module, name)
        except Exception as e:  # a lazily loaded namespace that fails to load is left out
            print(f"left out {prefix}{name}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        if isinstance(value, types.ModuleType):
            if id(value) in stack or not _module_name(value).startswith(("tensorflow", "tf_keras", "keras", "?")):
                continue
            found[prefix + name + "."] = value
            if prefix + name + "." in NOT_WALKED or _module_name(value) == "?":
                continue
            found.update(walk(value, prefix + name + ".", stack + (id(value),)))
        else:
            found[prefix + name] = value
    return found


def _module_name(module: types.ModuleType) -> str:
    try:
        return module.__name__
    except Exception:  # Keras 3's lazy stand-in for TF-1.x's Keras-based namespaces (tf.layers)
        return "?"


def parameters(value: object) -> str | None:
    """``a, b=None, name='x'``: the parameters of a function or class, or None if it has none to read."""
    if not callable(value):
        return None
    try:
        sig = inspect.signature(value)
    except (TypeError, ValueError):
        return None
    out = []
    for p in sig.parameters.values():
        star = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
        if p.default is p.empty:
            out.append(star + p.name)
        elif p.default is None or isinstance(p.default, (bool, int, float, str)):
            out.append(f"{p.name}={p.default!r}")
        else:
            out.append(f"{p.name}=...")
    return ", ".join(out)


def main() -> None:
    import tensorflow as tf  # only this offline script needs TensorFlow

    names = walk(tf.compat.v1, "")
    header = f"# TensorFlow {tf.__version__} tf.compat.v1 public names, written by tools/tf1_names.py\n"
    os.makedirs(os.path.dirname(NAMES_FILE), exist_ok=True)
    with open(NAMES_FILE, "w", encoding="utf-8") as f:
        f.write(header + "".join(n + "\n" for n in sorted(set(names) | set(LEGACY))))
    with open(SIGNATURES_FILE, "w", encoding="utf-8") as f:
        f.write(header)
        for name, value in sorted(names.items()):
            params = None if name.endswith(".") else parameters(value)
            if params is not None:
                f.write(f"{name}\t{params}\n")
    print(f"{len(names) + len(set(LEGACY) - set(names))} names -> {NAMES_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
