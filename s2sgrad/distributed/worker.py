"""What runs on a Dask worker: compile a shipped step module from its source and run it on a shard.

This module uses NumPy and the standard library only: the step's code is what the driver
generated, never traced again on a worker. A step travels as a plain dict,
its *payload*: the generated module's source (the text ``sess.source`` and ``dump`` show), the
source of the runtime helpers it calls, its large constants, and how to build ``run``'s arguments.
Each worker compiles a payload once, keyed by its digest.
"""
import linecache

import numpy as np

_COMPILED: dict = {}  # payload digest -> the compiled run()


def compiled_run(payload):
    """The ``run`` function of ``payload``'s module, compiled on first use in this process."""
    run = _COMPILED.get(payload["digest"])
    if run is None:
        namespace = {"__name__": "s2sgrad.generated", "np": np, "_constants": dict(payload["constants"])}
        filename = f"<s2sgrad:worker-{payload['digest']}>"
        text = payload["runtime"] + "\n\n\n" + payload["source"]
        linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
        exec(compile(text, filename, "exec"), namespace)  # the module the driver generated and shipped
        run = _COMPILED[payload["digest"]] = namespace["run"]
    return run


def run_step(payload, shard, variables):
    """Run ``payload``'s module on one shard: ``shard`` maps feed names to arrays, ``variables``
    holds the variable values in the payload's order. Returns the fetched values (as arrays)."""
    args = [shard[key] if kind == "feed" else variables[key] for kind, key in payload["params"]]
    outs = compiled_run(payload)(*args)
    return [np.asarray(v) for v in outs[:payload["n_fetches"]]]


def load_shard(loader, index, dtypes):
    """Call the user's ``loader(index)`` on the worker: its arrays, keyed by tensor name
    (``"x"`` becomes ``"x:0"``) and converted to the fed tensors' ``dtypes``, stay there."""
    shard = loader(index)
    if not isinstance(shard, dict):
        raise TypeError(f"the shard loader must return a dict of placeholder name -> array, got "
                        f"{type(shard).__name__} for shard {index}")
    arrays = {}
    for key, value in shard.items():
        name = key if ":" in str(key) else f"{key}:0"
        if name not in dtypes:
            raise KeyError(f"shard {index} has {key!r}, which is not a fed placeholder; expected {sorted(dtypes)}")
        arrays[name] = np.asarray(value, dtype=dtypes[name])
    missing = sorted(set(dtypes) - set(arrays))
    if missing:
        raise KeyError(f"shard {index} lacks {missing}")
    sizes = {len(a) if a.ndim else None for a in arrays.values()}
    if len(sizes) != 1 or None in sizes or 0 in sizes:
        raise ValueError(f"shard {index}: every array needs the same, non-zero number of examples along axis 0, "
                         f"got shapes { {k: a.shape for k, a in arrays.items()} }")
    return arrays


def shard_specs(shard):
    """The dtype and shape of each array of a loaded shard (what the driver specializes a module to)."""
    return {k: (v.dtype.str, v.shape) for k, v in shard.items()}
