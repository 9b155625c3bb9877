"""ConfigProto and friends, and what tf.Session does with target/config/options/run_metadata.

Expected texts and messages were recorded from TensorFlow 2.21's ``tf.compat.v1`` (protobuf
messages); where s2sgrad words an error its own way the test says so.
"""
import os
import subprocess
import sys
import types
import warnings

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.platform import session_config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_fields_by_keyword_and_by_attribute_print_as_protobuf_text():
    config = tf.ConfigProto(log_device_placement=True, allow_soft_placement=True, device_count={"GPU": 0},
                            inter_op_parallelism_threads=2, intra_op_parallelism_threads=3)
    config.gpu_options.allow_growth = True
    config.gpu_options.per_process_gpu_memory_fraction = 0.4
    config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
    assert str(config) == (
        'device_count {\n  key: "GPU"\n  value: 0\n}\nintra_op_parallelism_threads: 3\n'
        "inter_op_parallelism_threads: 2\ngpu_options {\n  per_process_gpu_memory_fraction: 0.4\n"
        "  allow_growth: true\n}\nallow_soft_placement: true\nlog_device_placement: true\n"
        "graph_options {\n  optimizer_options {\n    global_jit_level: ON_1\n  }\n}\n")
    assert config.gpu_options.allow_growth is True
    assert config.intra_op_parallelism_threads == 3
    assert config.graph_options.optimizer_options.global_jit_level == 1
    assert dict(config.device_count) == {"GPU": 0}
    assert config.HasField("gpu_options") and not tf.ConfigProto().HasField("gpu_options")


def test_defaults_are_protobuf_defaults():
    config = tf.ConfigProto()
    assert str(config) == ""
    assert config.gpu_options.per_process_gpu_memory_fraction == 0.0
    assert config.intra_op_parallelism_threads == 0
    assert config.allow_soft_placement is False
    assert config.device_count["CPU"] == 0
    assert tf.GraphOptions().optimizer_options.do_function_inlining is False
    assert not config.HasField("gpu_options")   # reading a sub-message does not set it


def test_constants_are_tfs():
    assert (tf.RunOptions.NO_TRACE, tf.RunOptions.SOFTWARE_TRACE, tf.RunOptions.HARDWARE_TRACE,
            tf.RunOptions.FULL_TRACE) == (0, 1, 2, 3)
    assert (tf.OptimizerOptions.ON_1, tf.OptimizerOptions.ON_2, tf.OptimizerOptions.OFF,
            tf.OptimizerOptions.DEFAULT, tf.OptimizerOptions.L0, tf.OptimizerOptions.L1) == (1, 2, -1, 0, -1, 0)


@pytest.mark.parametrize("make, text", [
    (lambda: tf.ConfigProto(gpu_options={"allow_growth": True}), "gpu_options {\n  allow_growth: true\n}\n"),
    (lambda: tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True)), "gpu_options {\n  allow_growth: true\n}\n"),
    (lambda: tf.ConfigProto(log_device_placement=1), "log_device_placement: true\n"),
    (lambda: tf.ConfigProto(intra_op_parallelism_threads=-1), "intra_op_parallelism_threads: -1\n"),
    (lambda: tf.ConfigProto(allow_soft_placement=None), ""),
    (lambda: tf.GPUOptions(per_process_gpu_memory_fraction=1), "per_process_gpu_memory_fraction: 1\n"),
    (lambda: tf.GPUOptions(visible_device_list="0,1"), 'visible_device_list: "0,1"\n'),
    (lambda: tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), "trace_level: FULL_TRACE\n"),
    (lambda: tf.RunOptions(trace_level="FULL_TRACE"), "trace_level: FULL_TRACE\n"),
    (lambda: tf.RunOptions(trace_level=7), "trace_level: 7\n"),
    (lambda: tf.OptimizerOptions(global_jit_level=5), "global_jit_level: 5\n"),
    (lambda: tf.OptimizerOptions(opt_level=tf.OptimizerOptions.L1), ""),
    (lambda: tf.RunOptions(timeout_in_ms=100, output_partition_graphs=True, report_tensor_allocations_upon_oom=True),
     "timeout_in_ms: 100\noutput_partition_graphs: true\nreport_tensor_allocations_upon_oom: true\n"),
    (lambda: tf.ConfigProto(operation_timeout_in_ms=10, use_per_session_threads=True, isolate_session_state=True),
     "use_per_session_threads: true\noperation_timeout_in_ms: 10\nisolate_session_state: true\n"),
    (lambda: tf.GraphOptions(build_cost_model=1, infer_shapes=True, place_pruned_graph=True,
                             enable_bfloat16_sendrecv=True),
     "build_cost_model: 1\ninfer_shapes: true\nplace_pruned_graph: true\nenable_bfloat16_sendrecv: true\n"),
    (lambda: tf.GPUOptions(allocator_type="BFC", deferred_deletion_bytes=1, force_gpu_compatible=True,
                           polling_active_delay_usecs=1),
     'allocator_type: "BFC"\ndeferred_deletion_bytes: 1\npolling_active_delay_usecs: 1\nforce_gpu_compatible: true\n'),
    (lambda: tf.RunMetadata(), ""),
    (lambda: tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:1"]),
     'device_filters: "/job:ps"\ndevice_filters: "/job:worker/task:1"\n'),
])
def test_accepted_values_as_tf(make, text):
    assert str(make()) == text


def test_equality_and_copy():
    a = tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True))
    assert a == tf.ConfigProto(gpu_options={"allow_growth": True})
    assert a != tf.ConfigProto()
    b = tf.ConfigProto()
    b.CopyFrom(a)
    assert b == a and b.HasField("gpu_options")
    assert tf.RunMetadata().partition_graphs == []
    assert str(tf.RunMetadata().step_stats) == ""


@pytest.mark.parametrize("action, error, message", [
    (lambda: tf.ConfigProto(x=1), ValueError, 'Protocol message ConfigProto has no "x" field.'),
    (lambda: tf.GPUOptions(foo=1), ValueError, 'Protocol message GPUOptions has no "foo" field.'),
    (lambda: setattr(tf.ConfigProto(), "x", 1), AttributeError, 'Protocol message ConfigProto has no "x" field.'),
    (lambda: setattr(tf.ConfigProto().gpu_options, "alow_growth", 1), AttributeError,
     'Protocol message GPUOptions has no "alow_growth" field.'),
    (lambda: setattr(tf.ConfigProto(), "gpu_options", tf.GPUOptions()), AttributeError,
     'Assignment not allowed to message field "gpu_options" in protocol message object.'),
    (lambda: setattr(tf.ConfigProto(), "device_count", {}), AttributeError,
     'Assignment not allowed to map, or repeated field "device_count" in protocol message object.'),
    (lambda: tf.ConfigProto(gpu_options=3), TypeError,
     "Parameter to initialize message field must be dict or instance of same class: expected GPUOptions got int."),
    (lambda: tf.ConfigProto(intra_op_parallelism_threads=True), TypeError,
     "Field tensorflow.ConfigProto.intra_op_parallelism_threads: Expected an int, got a boolean."),
    (lambda: tf.ConfigProto(intra_op_parallelism_threads=2 ** 40), ValueError, "Value out of range: 1099511627776"),
    (lambda: tf.RunOptions(trace_level="X"), ValueError, 'unknown enum label "X"'),
    # worded by s2sgrad (protobuf: "'str' object cannot be interpreted as an integer" and the like)
    (lambda: tf.ConfigProto(intra_op_parallelism_threads="a"), TypeError,
     "ConfigProto.intra_op_parallelism_threads: expected an int, got 'a'"),
    (lambda: tf.ConfigProto(log_device_placement="yes"), TypeError, "log_device_placement: expected a bool"),
    (lambda: tf.GPUOptions(per_process_gpu_memory_fraction="a"), TypeError,
     "per_process_gpu_memory_fraction: expected a number"),
    (lambda: tf.GPUOptions(visible_device_list=0), TypeError, "visible_device_list: expected a str"),
    (lambda: tf.ConfigProto(device_count=3), TypeError, "device_count: expected a dict"),
    (lambda: tf.ConfigProto(device_count={"GPU": "a"}), TypeError, "device_count: expected an int"),
    (lambda: tf.ConfigProto(device_count={1: 1}), TypeError, "device_count: keys are strings"),
    (lambda: tf.ConfigProto(tf.GPUOptions()), TypeError, "positional"),
    (lambda: tf.ConfigProto(device_filters="/job:ps"), TypeError, "ConfigProto.device_filters: expected a list"),
])
def test_bad_fields_raise_as_protobuf(action, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        action()


def test_a_failed_assignment_changes_nothing():
    config = tf.ConfigProto(intra_op_parallelism_threads=2)
    with pytest.raises(TypeError):
        config.intra_op_parallelism_threads = "many"
    assert config.intra_op_parallelism_threads == 2


# -- Session ------------------------------------------------------------------------------------------

def test_session_accepts_target_graph_config_and_run_options():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(2.0)
    config = tf.ConfigProto(log_device_placement=True, allow_soft_placement=True)
    config.gpu_options.allow_growth = True
    with tf.Session("", graph=g, config=config) as sess:
        metadata = tf.RunMetadata()
        options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
        assert sess.run(x, options=options, run_metadata=metadata) == 2.0
        assert str(metadata) == ""   # s2sgrad traces nothing
        assert sess.graph is g


@pytest.mark.parametrize("kwargs, error, message", [
    ({"target": 3}, TypeError, 'Argument `target` must be a string, but got "int"'),
    ({"config": 3}, TypeError, 'Argument `config` must be a tf.ConfigProto, but got "int"'),
    ({"config": tf.GPUOptions()}, TypeError, 'Argument `config` must be a tf.ConfigProto, but got "GPUOptions"'),
    ({"graph": 3}, TypeError, "graph must be a tf.Graph"),
    ({"config": tf.ConfigProto(device_count={"CPU": 0})}, tf.errors.NotFoundError,
     "No CPU devices are available in this process"),
    # TF connects to a grpc:// target; s2sgrad says it has no distributed runtime
    ({"target": "grpc://localhost:2222"}, tf.errors.UnimplementedError, "distributed runtimes are not supported"),
    ({"target": "local"}, tf.errors.NotFoundError, "No session factory registered for the session target 'local'"),
])
def test_bad_session_arguments(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(".", r"\.")):
        tf.Session(**kwargs)
    with pytest.raises(error):
        tf.InteractiveSession(**kwargs)
    assert tf.get_default_session() is None


def test_gpu_device_counts_are_accepted_and_the_device_list_is_the_cpu():
    with tf.Graph().as_default(), tf.Session(config=tf.ConfigProto(device_count={"GPU": 2})) as sess:
        devices = sess.list_devices()
    assert [(d.name, d.device_type) for d in devices] == [("/job:localhost/replica:0/task:0/device:CPU:0", "CPU")]
    assert devices[0].memory_limit_bytes >= 0 and devices[0].incarnation != 0


def test_run_refuses_options_of_the_wrong_type():
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        with tf.Session() as sess:
            with pytest.raises(TypeError, match="options must be a tf.RunOptions, got int"):
                sess.run(x, options=3)
            with pytest.raises(TypeError, match="run_metadata must be a tf.RunMetadata, got ConfigProto"):
                sess.run(x, run_metadata=tf.ConfigProto())


def test_interactive_session_takes_the_same_arguments():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([1.0, 2.0])
    sess = tf.InteractiveSession("", graph=g, config=tf.ConfigProto(allow_soft_placement=True))
    try:
        np.testing.assert_allclose(x.eval(), [1.0, 2.0])
        assert sess.list_devices()[0].device_type == "CPU"
    finally:
        sess.close()


# -- intra_op_parallelism_threads -> the BLAS pool (the [threads] extra) -------------------------------

class FakeLimit:
    def __init__(self, log, limits, user_api):
        self.log = log
        log.append(("limit", limits, user_api))

    def restore_original_limits(self):
        self.log.append(("restore",))


def fake_threadpoolctl(log):
    module = types.ModuleType("threadpoolctl")
    module.threadpool_limits = lambda limits, user_api: FakeLimit(log, limits, user_api)
    return module


def test_intra_op_threads_limit_the_blas_pool_while_the_session_is_open(monkeypatch):
    log = []
    monkeypatch.setitem(sys.modules, "threadpoolctl", fake_threadpoolctl(log))
    sess = tf.Session(graph=tf.Graph(), config=tf.ConfigProto(intra_op_parallelism_threads=3))
    assert log == [("limit", 3, "blas")]
    sess.close()
    sess.close()
    assert log == [("limit", 3, "blas"), ("restore",)]


def test_no_limit_for_zero_or_negative_threads(monkeypatch):
    log = []
    monkeypatch.setitem(sys.modules, "threadpoolctl", fake_threadpoolctl(log))
    for threads in (0, -1):
        tf.Session(graph=tf.Graph(), config=tf.ConfigProto(intra_op_parallelism_threads=threads)).close()
    assert log == []


def test_without_threadpoolctl_a_warning_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "threadpoolctl", None)   # makes the import fail
    with pytest.warns(UserWarning, match=r"intra_op_parallelism_threads=2 needs threadpoolctl.*"
                                         r"pip install s2sgrad\[threads\]"):
        sess = tf.Session(graph=tf.Graph(), config=tf.ConfigProto(intra_op_parallelism_threads=2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sess.close()
        tf.Session(graph=tf.Graph(), config=tf.ConfigProto(inter_op_parallelism_threads=2)).close()


def test_the_real_threadpoolctl_limits_and_restores():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    blas = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
    if not blas:
        pytest.skip("NumPy has no BLAS thread pool here")
    before = [p["num_threads"] for p in blas]
    sess = tf.Session(graph=tf.Graph(), config=tf.ConfigProto(intra_op_parallelism_threads=1))
    assert {p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"} == {1}
    sess.close()
    assert [p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"] == before


def test_the_core_imports_and_runs_without_threadpoolctl():
    program = ("import sys; sys.modules['threadpoolctl'] = None\n"
               "import s2sgrad as tf\n"
               "with tf.Session() as sess: print(sess.run(tf.constant(3.0) * 2))\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout, done.stderr) == (0, "6.0\n", "")
    assert "threadpoolctl" not in session_config.__dict__
