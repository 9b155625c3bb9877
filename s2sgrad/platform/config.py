"""``tf.ConfigProto`` and the messages around ``Session``: accepted with TF-1.x's field names,
types and defaults. s2sgrad runs every graph in this process on the CPU, so most fields are
recorded only; what ``Session`` does with them is in ``session_config.py``."""
from __future__ import annotations

from .messages import Field, Message

__all__ = ["ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunMetadata", "RunOptions"]

_BOOL, _INT32, _INT64, _DOUBLE, _STRING = (Field(k) for k in ("bool", "int32", "int64", "double", "string"))
_JIT_LEVELS = {"DEFAULT": 0, "OFF": -1, "ON_1": 1, "ON_2": 2}
_OPT_LEVELS = {"L1": 0, "L0": -1}
_TRACE_LEVELS = {"NO_TRACE": 0, "SOFTWARE_TRACE": 1, "HARDWARE_TRACE": 2, "FULL_TRACE": 3}


class GPUOptions(Message):
    """Accepted and recorded; there is no GPU to apply them to."""

    FIELDS = {"per_process_gpu_memory_fraction": _DOUBLE, "allocator_type": _STRING,
              "deferred_deletion_bytes": _INT64, "allow_growth": _BOOL, "visible_device_list": _STRING,
              "polling_active_delay_usecs": _INT32, "polling_inactive_delay_msecs": _INT32,
              "force_gpu_compatible": _BOOL}


class OptimizerOptions(Message):
    """Graph optimisation levels, accepted; s2sgrad's own passes always run."""

    L1, L0 = 0, -1
    DEFAULT, OFF, ON_1, ON_2 = 0, -1, 1, 2
    FIELDS = {"do_common_subexpression_elimination": _BOOL, "do_constant_folding": _BOOL,
              "opt_level": Field("enum", labels=_OPT_LEVELS), "do_function_inlining": _BOOL,
              "global_jit_level": Field("enum", labels=_JIT_LEVELS), "max_folded_constant_in_bytes": _INT64,
              "cpu_global_jit": _BOOL}


class GraphOptions(Message):
    FIELDS = {"enable_recv_scheduling": _BOOL, "optimizer_options": Field("message", OptimizerOptions),
              "build_cost_model": _INT64, "infer_shapes": _BOOL, "place_pruned_graph": _BOOL,
              "enable_bfloat16_sendrecv": _BOOL, "timeline_step": _INT32, "build_cost_model_after": _INT64}


class ConfigProto(Message):
    """Session configuration. ``intra_op_parallelism_threads`` limits the BLAS thread pool (with the
    ``s2sgrad[threads]`` extra); ``device_count={'CPU': 0}`` is refused as TF refuses it; the rest
    (placement, GPU memory, inter-op threads, timeouts) is accepted and has no effect."""

    FIELDS = {"device_count": Field("map"), "intra_op_parallelism_threads": _INT32, "placement_period": _INT32,
              "device_filters": Field("repeated"), "inter_op_parallelism_threads": _INT32,
              "gpu_options": Field("message", GPUOptions), "allow_soft_placement": _BOOL,
              "log_device_placement": _BOOL, "use_per_session_threads": _BOOL,
              "graph_options": Field("message", GraphOptions), "operation_timeout_in_ms": _INT64,
              "isolate_session_state": _BOOL}


class RunOptions(Message):
    """Per-run options for ``Session.run(options=...)``: accepted; tracing records nothing."""

    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3
    FIELDS = {"trace_level": Field("enum", labels=_TRACE_LEVELS), "timeout_in_ms": _INT64,
              "inter_op_thread_pool": _INT32, "output_partition_graphs": _BOOL,
              "report_tensor_allocations_upon_oom": _BOOL}


class StepStats(Message):
    FIELDS = {"dev_stats": Field("repeated")}


class CostGraphDef(Message):
    FIELDS = {"node": Field("repeated")}


class RunMetadata(Message):
    """What ``Session.run(run_metadata=...)`` fills in TF; s2sgrad leaves it empty (no tracing)."""

    FIELDS = {"step_stats": Field("message", StepStats), "cost_graph": Field("message", CostGraphDef),
              "partition_graphs": Field("repeated")}
