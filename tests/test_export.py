"""``s2sgrad.export``: standalone modules reproduce ``Session.run`` without s2sgrad."""
import ast
import importlib.util
import inspect
import itertools
import pickle
import textwrap

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import s2sgrad as tf
from s2sgrad import pipeline
from s2sgrad.codegen import runtime
from s2sgrad.standalone import runtime_source
from standalone_runner import run_without_s2sgrad

_counter = itertools.count()


def load(path):
    """Import an exported file in this process (for API behaviour; standalone runs use a subprocess)."""
    spec = importlib.util.spec_from_file_location(f"exported_{next(_counter)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def replay(directory, module, feeds, steps):
    """Run ``steps`` calls of the exported Step in a subprocess without s2sgrad; returns the results."""
    code = (f"import pickle\nfrom {module} import Step\nstep = Step()\nfeeds = pickle.loads({pickle.dumps(feeds)!r})\n"
            f"results = [step(**feeds) for _ in range({steps})]\n"
            "with open('results.pkl', 'wb') as f:\n    pickle.dump((results, step.variables), f)\n")
    run_without_s2sgrad(directory, code=code)
    with open(directory / "results.pkl", "rb") as f:
        return pickle.load(f)


def assert_same(actual, expected):
    """Same structure, types and bits."""
    assert type(actual) is type(expected), (actual, expected)
    if isinstance(expected, dict):
        assert list(actual) == list(expected)
        for k in expected:
            assert_same(actual[k], expected[k])
    elif isinstance(expected, (list, tuple)):
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected, strict=True):
            assert_same(a, e)
    elif expected is not None:
        assert np.asarray(actual).dtype == np.asarray(expected).dtype
        np.testing.assert_array_equal(actual, expected)


def training_model():
    x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
    y = tf.placeholder(tf.float32, shape=[None], name="y")
    w = tf.Variable(np.array([0.5, -1.0, 0.25], np.float32), name="layer/w")
    b = tf.Variable(0.1, name="b")
    table = tf.constant(np.linspace(-1, 1, 40, dtype=np.float32).reshape(8, 5), name="table")  # lives in the npz
    noise = tf.random_normal([3], stddev=0.01, seed=7)
    pred = tf.reduce_sum(x * (w + noise), axis=1) + b + tf.erf(y) * table[0, 1] + tf.cumsum(y, exclusive=True)
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
    return x, y, train, loss, pred


FEEDS = {"x": np.arange(12, dtype=np.float32).reshape(4, 3) / 10, "y": np.array([0.5, -1, 2, 0], np.float32)}


def export_step(directory, name="step"):
    """Export ``[train, loss]`` of a fresh training model; returns the session's run right after."""
    tf.reset_default_graph()
    x, y, train, loss, _ = training_model()
    feed = {x: FEEDS["x"], y: FEEDS["y"]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.export([train, loss], str(directory / f"{name}.py"), feed)
        return sess.run([train, loss], feed)


def test_exported_training_step_reproduces_session_runs_without_s2sgrad(tmp_path):
    x, y, train, loss, pred = training_model()
    fetches = {"train": train, "values": [loss, (pred, loss)]}
    feed = {x: FEEDS["x"], y: FEEDS["y"]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        written = tf.export(fetches, str(tmp_path / "train_step.py"), feed)
        expected = [sess.run(fetches, feed) for _ in range(3)]
        variables = {"layer/w": sess.run(tf.global_variables()[0]), "b": sess.run(tf.global_variables()[1])}
    assert written == [str(tmp_path / "train_step.py"), str(tmp_path / "train_step.npz")]
    results, state = replay(tmp_path, "train_step", FEEDS, steps=3)
    assert_same(results, expected)          # fetch structure, dtypes, random draws and variable updates
    assert_same(state, variables)


def test_main_replays_the_exported_run(tmp_path):
    expected = export_step(tmp_path)
    assert run_without_s2sgrad(tmp_path, main="step.py") == f"{expected!r}\n"


def test_export_leaves_the_session_unchanged(tmp_path):
    x, y, train, loss, _ = training_model()
    feed = {x: FEEDS["x"], y: FEEDS["y"]}
    runs = []
    for do_export in (True, False):
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, feed)
            if do_export:
                tf.export([train, loss], str(tmp_path / "step.py"), feed)
            runs.append([sess.run([train, loss], feed) for _ in range(2)])
    assert_same(runs[0], runs[1])


def test_gradients_without_variables_need_no_session(tmp_path):
    a = tf.placeholder(tf.float64, shape=[5], name="a")
    f = tf.reduce_sum(tf.sin(a) * a)
    grads = tf.gradients(f, a)
    tf.export(grads, str(tmp_path / "grad.py"), {a: np.linspace(0, 1, 5)})
    code = "from grad import Step\nimport numpy as np\nprint(repr(Step()(np.linspace(-1, 1, 5))[0].tolist()))\n"
    out = run_without_s2sgrad(tmp_path, code=code)
    with tf.Session() as sess:
        assert eval(out) == sess.run(grads, {a: np.linspace(-1, 1, 5)})[0].tolist()


def test_indexed_slices_are_exported_as_tuples(tmp_path):
    params = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3), name="params")
    ids = tf.placeholder(tf.int32, shape=[2], name="ids")
    grad = tf.gradients(tf.reduce_sum(tf.gather(params, ids) ** 2), params)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.export(grad, str(tmp_path / "sparse.py"), {ids: [3, 1]})
        expected = sess.run(grad, {ids: [3, 1]})
    (values, indices, dense_shape), = replay(tmp_path, "sparse", {"ids": [3, 1]}, steps=1)[0]
    assert_same((values, indices, dense_shape), (expected.values, expected.indices, expected.dense_shape))


def test_names_that_could_collide_with_the_wrapper(tmp_path):
    names = ["self", "args", "kwargs", "feeds", "inputs", "outs", "os", "math", "types", "rt", "Step", "FEEDS"]
    holders = [tf.placeholder(tf.float32, shape=[2], name=n) for n in names]
    total = tf.add_n([h * tf.constant(np.full(20, i + 1.0, np.float32)[:2], name=n)
                      for i, (h, n) in enumerate(zip(holders, names, strict=True))])
    big = tf.constant(np.arange(40, dtype=np.float32), name="os")   # a module-level constant named os
    out = tf.reduce_sum(total) + tf.reduce_sum(big) + tf.reduce_sum(tf.erf(holders[0]))
    feed = {h: np.array([i, -i], np.float32) for i, h in enumerate(holders)}
    with tf.Session() as sess:
        tf.export(out, str(tmp_path / "names.py"), feed)
        expected = sess.run(out, feed)
    by_tensor = {h.name: v for h, v in feed.items()}
    module = load(tmp_path / "names.py")
    kwargs = {name: by_tensor[tensor] for name, tensor, *_ in module.FEEDS}
    assert len(kwargs) == len(names)
    result = replay(tmp_path, "names", kwargs, steps=1)[0][0]
    assert_same(result, expected)


def test_exported_files_import_only_numpy_and_the_standard_library(tmp_path):
    export_step(tmp_path)
    tree = ast.parse((tmp_path / "step.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names}
    assert imported == {"numpy", "os", "types", "math"}


def test_export_is_deterministic(tmp_path):
    texts = []
    for name in ("a", "b"):
        export_step(tmp_path, name)
        texts.append((tmp_path / f"{name}.py").read_text().replace("'b.npz'", "'a.npz'").replace(
            "from b import", "from a import"))
    assert texts[0] == texts[1]


def test_step_checks_its_feeds_and_variables(tmp_path):
    export_step(tmp_path)
    module = load(tmp_path / "step.py")
    step = module.Step()
    with pytest.raises(ValueError, match=r"feed 'x' \(x:0\): this code is specialized to shape \(4, 3\), got \(2, 3\)"):
        step(FEEDS["x"][:2], FEEDS["y"])
    with pytest.raises(TypeError, match=r"missing feeds: \['y'\]"):
        step(FEEDS["x"])
    with pytest.raises(TypeError, match="feed 'z': unknown"):
        step(FEEDS["x"], FEEDS["y"], z=1)
    with pytest.raises(TypeError, match="feed 'x': given twice"):
        step(FEEDS["x"], FEEDS["y"], x=1)
    with pytest.raises(TypeError, match="Step takes 2 feeds"):
        step(FEEDS["x"], FEEDS["y"], FEEDS["y"])
    with pytest.raises(KeyError, match=r"unknown variables \['w'\]; this module has \['layer/w', 'b'\]"):
        module.Step({"w": 1.0})
    with pytest.raises(ValueError, match=r"variable 'layer/w': this code is specialized to shape \(3,\), got \(2,\)"):
        module.Step({"layer/w": [1.0, 2.0]})
    own = module.Step({"b": 2.0})
    assert own.variables["b"] == np.float32(2.0) and type(own.variables["b"]) is np.float32
    assert own.variables["layer/w"].tolist() == [0.5, -1.0, 0.25]


def test_export_errors():
    x, y, train, loss, _ = training_model()
    feed = {x: FEEDS["x"], y: FEEDS["y"]}
    with pytest.raises(ValueError, match="export needs a session holding the value of layer/w"):
        tf.export(loss, "unused.py", feed)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value layer/w"):
            tf.export(loss, "unused.py", feed)
        with pytest.raises(tf.errors.InvalidArgumentError, match="must feed a value for placeholder tensor 'y'"):
            tf.export(loss, "unused.py", {x: FEEDS["x"]})
        with pytest.raises(TypeError, match="args= is for decorated functions"):
            tf.export(loss, "unused.py", feed, args=(1,))
        with pytest.raises(TypeError, match="keys must be str"):
            tf.export({(1, 2): loss}, "unused.py", feed)
        with pytest.raises(TypeError, match="cannot export constants/.*object"):
            tf.export(tf.identity(tf.constant(np.array(["a" * 30] * 20, dtype=object))), "unused.py", session=sess)


@pytest.mark.parametrize("name", runtime.__all__)
def test_every_runtime_helper_copies_as_self_contained_source(name):
    text = runtime_source([name])
    assert textwrap.indent(inspect.getsource(getattr(runtime, name)), "    ") in text   # copied verbatim
    namespace = {"np": np}
    exec(compile(text, "<runtime copy>", "exec"), namespace)
    assert callable(getattr(namespace["rt"], name))
    assert set(namespace) == {"np", "rt", "_runtime", "__builtins__"}           # nothing leaks out


def test_runtime_copies_compute_what_the_runtime_does():
    namespace = {"np": np}
    exec(compile(runtime_source(sorted(runtime.__all__)), "<runtime copy>", "exec"), namespace)
    rt = namespace["rt"]
    x = np.linspace(-2, 2, 12).reshape(3, 4).astype(np.float32)
    for name, args in [("sum_to", (x, (1, 4))), ("erf", (x,)), ("cumsum", (x, 1, True, True)),
                       ("cumprod", (x, 0, True, False)), ("segment_sum", (x, np.array([0, 2, 0]), 3)),
                       ("gather_nd", (x, np.array([[0, 1], [2, 3]]))),
                       ("scatter_nd", (np.array([[1], [1]]), x[:2], (3, 4))),
                       ("scatter_into_zeros", (x[0], (3, 4), (1,)))]:
        np.testing.assert_array_equal(getattr(rt, name)(*args), getattr(runtime, name)(*args))
    draws = [helper(np.random.default_rng(3), (50,), np.float32) for helper in (rt.truncated_normal,
                                                                                runtime.truncated_normal)]
    np.testing.assert_array_equal(*draws)


@given(batch=st.integers(1, 5), rate=st.floats(0.001, 0.5), seed=st.integers(0, 2**16))
def test_exported_step_equals_session_run_for_any_shapes_and_data(tmp_path_factory, batch, rate, seed):
    tf.reset_default_graph()
    data = np.random.default_rng(seed)
    xs, ys = data.normal(size=(batch, 2)).astype(np.float32), data.normal(size=batch).astype(np.float32)
    x = tf.placeholder(tf.float32, shape=[None, 2], name="x")
    y = tf.placeholder(tf.float32, shape=[None], name="y")
    w = tf.Variable(data.normal(size=(2, 1)).astype(np.float32), name="w")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w)[:, 0] - y))
    train = tf.train.GradientDescentOptimizer(rate).minimize(loss)
    path = tmp_path_factory.mktemp("export") / "step.py"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.export([train, loss], str(path), {x: xs, y: ys})
        expected = [sess.run([train, loss], {x: xs, y: ys}) for _ in range(2)] + [sess.run(w)]
    step = load(path).Step()
    actual = [step(xs, ys) for _ in range(2)] + [step.variables["w"]]
    assert_same(actual, expected)


def test_decorated_function_export(tmp_path):
    def loss(w, x):
        return np.sum(np.tanh(x @ w) ** 2)

    gf = tf.grad(loss)
    w, x = np.linspace(-1, 1, 6).reshape(3, 2), np.linspace(0, 2, 12).reshape(4, 3)
    tf.export(gf, str(tmp_path / "loss_grad.py"), args=(w, x))
    code = ("import numpy as np\nfrom loss_grad import Step\n"
            "w, x = np.linspace(-1, 1, 6).reshape(3, 2), np.linspace(0, 2, 12).reshape(4, 3)\n"
            "print(repr(Step()(w, x).tolist()))\n")
    assert eval(run_without_s2sgrad(tmp_path, code=code)) == gf(w, x).tolist()


class StandInGradient:
    """A stand-in for a decorated function: only the interface that export relies on
    (``call_observed(*args)``: the result, the cached Executable that ran, its inputs and outputs)."""

    __name__ = "loss_grad"

    def __init__(self):
        self.graph = tf.Graph()
        with self.graph.as_default():
            self.w = tf.placeholder(tf.float64, name="w")
            self.x = tf.placeholder(tf.float64, name="x")
            self.grad = tf.gradients(tf.reduce_sum(tf.tanh(tf.matmul(self.x, self.w)) ** 2), self.w)[0]
        self.cache = {}

    def executable(self, w, x):
        key = (np.shape(w), np.shape(x))
        if key not in self.cache:
            specs = {self.w: (tf.float64, np.shape(w)), self.x: (tf.float64, np.shape(x))}
            graph_slice = pipeline.plan(self.graph, [self.grad], list(specs))
            self.cache[key] = pipeline.compile(graph_slice, specs, variable_spec=None)
        return self.cache[key]

    def call_observed(self, w, x):
        exe = self.executable(w, x)
        inputs = [np.asarray(w, np.float64), np.asarray(x, np.float64)]
        outs = list(exe.call(inputs))
        g, = outs
        return (g if self.package is None else self.package(g)), exe, inputs, outs

    def __call__(self, w, x):
        return self.call_observed(w, x)[0]

    package = None


def test_export_of_a_decorated_function_through_its_executable(tmp_path):
    gf = StandInGradient()
    w, x = np.linspace(-1, 1, 6).reshape(3, 2), np.linspace(0, 2, 12).reshape(4, 3)
    tf.export(gf, tmp_path / "loss_grad.py", args=(w, x))
    assert not hasattr(gf.executable(w, x).fn, "__wrapped__")     # the recording wrapper is gone
    code = ("import numpy as np\nfrom loss_grad import Step\n"
            "w, x = np.linspace(-1, 1, 6).reshape(3, 2), np.linspace(0, 2, 12).reshape(4, 3)\n"
            "print(repr(Step()(w, x).tolist()))\n")
    assert eval(run_without_s2sgrad(tmp_path, code=code)) == gf(w, x).tolist()
    assert "loss_grad(float64[3, 2], float64[4, 3])" in (tmp_path / "loss_grad.py").read_text()
    with pytest.raises(TypeError, match="takes its example arguments as args="):
        tf.export(gf, tmp_path / "other.py", feed_dict={})


def test_export_of_a_decorated_function_keeps_its_result_structure(tmp_path):
    gf = StandInGradient()
    gf.package = lambda g: {"grads": (g, None), "again": [g]}
    w, x = np.ones((3, 2)), np.ones((4, 3))
    tf.export(gf, tmp_path / "structured.py", args=(w, x))
    code = ("import numpy as np\nfrom structured import Step\n"
            "print(repr(Step()(np.ones((3, 2)), np.ones((4, 3)))))\n")
    printed = run_without_s2sgrad(tmp_path, code=code)
    assert printed == repr(gf(w, x)) + "\n"
    gf.package = lambda g: (g, g.copy())     # a value the compiled code did not return
    with pytest.raises(TypeError, match="its result holds a ndarray that its compiled code did not return"):
        tf.export(gf, tmp_path / "bad.py", args=(w, x))


def test_export_refuses_a_feed_of_the_wrong_shape(tmp_path):
    x = tf.placeholder(tf.float32, [3], name="x")
    y = x * 2.0
    with tf.Session() as sess:
        with pytest.raises(ValueError,
                           match=r"Cannot feed value of shape \(4,\) for Tensor x:0, which has shape \(3,\)"):
            tf.export(y, str(tmp_path / "step.py"), {x: np.ones(4)}, session=sess)
    assert not (tmp_path / "step.py").exists()
