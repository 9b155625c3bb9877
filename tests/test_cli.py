"""``s2sgrad`` / ``python -m s2sgrad``: every subcommand end to end, in a subprocess."""
import importlib
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT, checkout_env
from s2sgrad.cli import build_parser, main
from standalone_runner import run_without_s2sgrad

TRAINING = textwrap.dedent('''
    import sys
    import numpy as np
    import s2sgrad as tf

    x = tf.placeholder(tf.float32, shape=[None, 2], name="x")
    y = tf.placeholder(tf.float32, shape=[None], name="y")
    w = tf.Variable(np.array([0.5, -0.25], np.float32), name="w")
    loss = tf.reduce_mean(tf.square(tf.reduce_sum(x * w, axis=1) - y), name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    xs = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], np.float32)
    ys = np.array([1.0, 2.0, 0.0], np.float32)
    print("argv", sys.argv[1:])
    for _ in range(2):   # a second Session compiles the same modules again: dump shows them once
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print("first", sess.run([train, loss], {x: xs, y: ys}))
            print("second", sess.run([train, loss], {x: xs, y: ys}))
            with open("step_source.txt", "w") as f:
                f.write(sess.source([train, loss], {x: xs, y: ys}))
            with open("step_ir.txt", "w") as f:
                f.write(tf.ir([train, loss], [x, y]))
''')

HEADER = re.compile(r"^#### s2sgrad module (\d+): (\S+) \(sha1 [0-9a-f]{10}(, compiled (\d+) times)?\)( -> .*)?$",
                    re.MULTILINE)


def run_cli(*args, cwd, **kwargs):
    return subprocess.run([sys.executable, "-m", "s2sgrad", *args], capture_output=True, text=True, timeout=120,
                          env=checkout_env(), cwd=cwd, **kwargs)


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(TRAINING)
    return path


def _subcommands():
    parser = build_parser()
    actions = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return sorted(actions[0].choices)


@pytest.mark.parametrize("args", [["--help"]] + [[name, "--help"] for name in _subcommands()])
def test_help(args, tmp_path):
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: s2sgrad")
    if args != ["--help"]:
        assert "--help" in result.stdout and args[0] in result.stdout.splitlines()[0]


def test_console_script_is_the_same_entry_point():
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        module, function = tomllib.load(f)["project"]["scripts"]["s2sgrad"].split(":")
    assert getattr(importlib.import_module(module), function) is main


def test_version(tmp_path):
    import s2sgrad
    result = run_cli("--version", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == f"s2sgrad {s2sgrad.__version__}"


def test_dump_prints_each_distinct_module_once_with_the_source_that_ran(script, tmp_path):
    result = run_cli("dump", str(script), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    headers = HEADER.findall(result.stdout)
    assert [int(h[0]) for h in headers] == [1, 2]           # initializer, training step
    assert all(h[1] == "run" and h[3] == "2" for h in headers)  # each compiled by both sessions
    step_source = (tmp_path / "step_source.txt").read_text()
    assert step_source in result.stdout
    assert result.stdout.index(step_source) > result.stdout.index("#### s2sgrad module 2")


def test_dump_sends_script_stdout_to_stderr_and_passes_arguments(script, tmp_path):
    result = run_cli("dump", str(script), "--ir", "-o", "x", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "argv ['--ir', '-o', 'x']" in result.stderr      # options after SCRIPT belong to the script
    assert "first [None, np.float32(" in result.stderr
    assert "argv" not in result.stdout and "def run(" in result.stdout   # not --ir: the script's argument
    assert not (tmp_path / "x").exists()


def test_dump_output_is_deterministic_and_colour_free_when_piped(script, tmp_path):
    first = run_cli("dump", str(script), cwd=tmp_path)
    second = run_cli("dump", str(script), cwd=tmp_path)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    assert "\033[" not in first.stdout
    coloured = run_cli("dump", "--color", "always", str(script), cwd=tmp_path)
    assert "\033[1;36m#### s2sgrad module 1" in coloured.stdout
    assert re.sub(r"\033\[[0-9;]*m", "", coloured.stdout) == first.stdout


def test_dump_ir(script, tmp_path):
    result = run_cli("dump", "--ir", str(script), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "def run(" not in result.stdout
    assert (tmp_path / "step_ir.txt").read_text() in result.stdout
    assert len(HEADER.findall(result.stdout)) == 2
    assert run_cli("dump", "--ir", str(script), cwd=tmp_path).stdout == result.stdout


def test_dump_dot(script, tmp_path):
    result = run_cli("dump", "--dot", "graph.dot", str(script), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "graph.dot").read_text()
    assert text.startswith("digraph s2sgrad {") and text.rstrip().endswith("}")
    assert text.count("subgraph cluster_") == 2
    assert re.search(r'm2_op\d+ \[label="Mul\\nmul"', text)
    assert re.search(r'm2_op\d+ -> m2_op\d+ \[label="f32\[\?,2\]"\];', text)
    assert re.search(r'm2_op\d+ \[label="Placeholder\\nx", shape=ellipse, style=dashed', text)  # fed: outside
    if shutil.which("dot"):
        check = subprocess.run(["dot", "-Tsvg", "graph.dot"], cwd=tmp_path, capture_output=True, timeout=60)
        assert check.returncode == 0, check.stderr


def test_dump_output_dir_writes_modules_that_replay_the_first_run(script, tmp_path):
    result = run_cli("dump", "-o", "out", str(script), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [h[4] for h in HEADER.findall(result.stdout)] == [" -> out/run_1.py", " -> out/run_2.py"]
    assert sorted(os.listdir(tmp_path / "out")) == ["run_1.py", "run_2.npz", "run_2.py"]
    first_loss = re.search(r"first \[None, (np\.float32\([^)]*\))\]", result.stderr).group(1)
    replay = run_without_s2sgrad(tmp_path / "out", main="run_2.py")
    assert replay == f"[{first_loss}]\n"
    again = run_without_s2sgrad(tmp_path / "out", code="from run_2 import Step\n"
                                                       "import numpy as np\n"
                                                       "step = Step()\n"
                                                       "xs = [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]\n"
                                                       "step(xs, [1.0, 2.0, 0.0])\n"
                                                       "print(step(x=xs, y=[1.0, 2.0, 0.0]))\n")
    second_loss = re.search(r"second \[None, (np\.float32\([^)]*\))\]", result.stderr).group(1)
    assert again == f"[{second_loss}]\n"


WEIRD = textwrap.dedent('''
    import numpy as np
    import s2sgrad as tf
    x = tf.placeholder(tf.float32, shape=[2], name='in\\\\put>')
    w = tf.Variable(np.ones(2, np.float32), name='w\\\\')
    y = tf.reduce_sum(x * w, name='lo.ss')
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        print(s.run([y] + tf.gradients(y, [x, w]), {x: [1., 2.]}))
''')


def test_dump_escapes_user_strings_in_dot_and_exported_files(tmp_path):
    path = tmp_path / 'we"ird\\na me.py'
    path.write_text(WEIRD)
    result = run_cli("dump", "--dot", "g.dot", "-o", "out", path.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "g.dot").read_text()
    assert 'label="Placeholder\\nin\\\\put>"' in text
    assert 'tooltip="we\\"ird\\\\na me.py:4"' in text
    for line in text.splitlines()[4:-1]:   # every statement: quoted strings are closed, then ';' or a brace
        unquoted = re.sub(r'"(?:[^"\\]|\\.)*"', "S", line)
        assert '"' not in unquoted and re.fullmatch(r"\s*(subgraph cluster_\d+ \{|\}|[^{}]*;)", unquoted), line
    if shutil.which("dot"):
        assert subprocess.run(["dot", "-Tsvg", "g.dot"], cwd=tmp_path, capture_output=True).returncode == 0
    assert run_without_s2sgrad(tmp_path / "out", main="run_2.py") == result.stderr.splitlines()[-1] + "\n"


SCRIPT_ENDINGS = [
    ("raise ValueError('boom')", 1, "ValueError: boom"),
    ("sys.exit(3)", 3, None),
    ("sys.exit('bye')", 1, "bye"),
    ("sys.exit()", 0, None),
    ("raise KeyboardInterrupt", 130, "KeyboardInterrupt"),
]


@pytest.mark.parametrize("ending, status, message", SCRIPT_ENDINGS)
def test_dump_after_the_script_raises_or_exits(ending, status, message, tmp_path):
    (tmp_path / "s.py").write_text("import sys\nimport s2sgrad as tf\n"
                                   "print(tf.Session().run(tf.constant(2.0) * 3.0))\n" + ending + "\n")
    result = run_cli("dump", "s.py", cwd=tmp_path)
    assert result.returncode == status
    assert len(HEADER.findall(result.stdout)) == 1     # what compiled before the end is still shown
    if message:
        assert message in result.stderr
    if ending.startswith("raise"):
        assert 'File "s.py", line 4, in <module>' in result.stderr
        assert "runpy" not in result.stderr and "cli.py" not in result.stderr
        assert "exited with status 1" in result.stderr


def test_dump_of_a_script_with_a_syntax_error(tmp_path):
    (tmp_path / "s.py").write_text("x = (\n")
    result = run_cli("dump", "s.py", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith('  File "s.py", line 1') and "SyntaxError" in result.stderr
    assert "runpy" not in result.stderr


def test_dump_of_a_script_that_compiles_nothing(tmp_path):
    (tmp_path / "s.py").write_text("print('hi')\n")
    result = run_cli("dump", "s.py", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == ""
    assert "hi" in result.stderr and "compile nothing" in result.stderr


SLOW_TO_FAIL = "import pathlib\npathlib.Path('ran').write_text('yes')\n"


@pytest.mark.parametrize("args, message", [
    (["dump", "missing.py"], "can't open file 'missing.py': no such file"),
    (["dump", "adir"], "can't open file 'adir': is a directory"),
    (["dump"], "the following arguments are required: SCRIPT (or -m MODULE, or - for standard input)\n"),
    (["dump", "-m"], "argument -m: expected one argument"),
    (["dump", "-m", "no_such_module_here"], "-m 'no_such_module_here': no module named 'no_such_module_here'"),
    (["dump", "-m", "adir.sub"], "-m 'adir.sub': no module named 'adir.sub'"),
    (["dump", "-m", "pkg"], "-m 'pkg': a package with no __main__ module"),
    (["dump", "-o", "x", "-m", "s", "-m", "s"], None),   # the second -m is the module's argument: runs
    ([], "the following arguments are required: COMMAND"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["dump", "--color", "sometimes", "s.py"], "invalid choice: 'sometimes'"),
    (["dump", "--bogus", "s.py"], "unrecognized arguments: --bogus"),
    (["--bogus", "dump", "s.py"], "s2sgrad: error: unrecognized arguments: --bogus"),
    (["dump", "-o", "s.py", "s.py"], "-o 's.py': exists and is not a directory"),
    (["dump", "-o", "s.py/sub", "s.py"], "is not a directory"),
    (["dump", "--dot", "/nonexistent/dir/g.dot", "s.py"], "--dot '/nonexistent/dir/g.dot': no such directory"),
    (["dump", "--dot", "adir", "s.py"], "--dot 'adir': is a directory"),
    (["dump", "--dot", "s.py/g.dot", "s.py"], "--dot 's.py/g.dot': no such directory 's.py'"),
    (["dump", "--dot", "", "s.py"], "--dot '': empty path"),
])
def test_bad_arguments_exit_2_with_a_message_before_the_script_runs(args, message, tmp_path):
    (tmp_path / "s.py").write_text(SLOW_TO_FAIL)
    (tmp_path / "adir").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    result = run_cli(*args, cwd=tmp_path)
    if message is None:
        assert result.returncode == 0 and (tmp_path / "ran").exists(), result.stderr
        return
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr
    usage = "usage: s2sgrad dump " if args[:1] == ["dump"] else "usage: s2sgrad [-h]"
    assert result.stderr.startswith(usage)        # the subcommand's own usage
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "ran").exists()        # checked before the script runs


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions, not as root")
@pytest.mark.parametrize("option", ["--dot", "-o"])
def test_unwritable_output_paths_are_usage_errors(option, tmp_path):
    (tmp_path / "s.py").write_text(SLOW_TO_FAIL)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = run_cli("dump", option, "locked/out", "s.py", cwd=tmp_path)
    finally:
        locked.chmod(0o700)
    assert result.returncode == 2 and "permission denied" in result.stderr
    assert not (tmp_path / "ran").exists()


def test_the_usage_says_args_are_optional(tmp_path):
    result = run_cli("dump", "--help", cwd=tmp_path)
    assert "(SCRIPT | -m MODULE | -) [ARGS ...]" in result.stdout


MANY = textwrap.dedent('''
    import s2sgrad as tf
    with tf.Session() as sess:
        for i in range(400):      # 400 distinct modules: far more output than a pipe holds
            sess.run(tf.constant(float(i), name=f"c{i}") * 2.0)
''')


def test_dump_into_a_closed_pipe_ends_quietly(tmp_path):
    (tmp_path / "many.py").write_text(MANY)
    with subprocess.Popen([sys.executable, "-m", "s2sgrad", "dump", "--dot", "g.dot", "many.py"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=checkout_env(), cwd=tmp_path) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()                      # what `| head -1` does
        stderr = proc.stderr.read().decode()
        status = proc.wait(timeout=120)
    assert first.startswith(b"#### s2sgrad module 1")
    assert stderr == "" and status == 141
    assert (tmp_path / "g.dot").read_text().count("subgraph cluster_") == 400   # files are written first


def test_dump_reads_the_script_from_stdin(tmp_path):
    source = ("import sys\nimport s2sgrad as tf\nprint('argv', sys.argv)\n"
              "print(tf.Session().run(tf.constant(2.0) * 3.0))\nraise ValueError('boom')\n")
    result = run_cli("dump", "-", "a", "--ir", cwd=tmp_path, input=source)
    assert result.returncode == 1
    assert len(HEADER.findall(result.stdout)) == 1 and "def run(" in result.stdout
    assert "argv ['-', 'a', '--ir']" in result.stderr and "6.0" in result.stderr
    assert 'File "<stdin>", line 5, in <module>' in result.stderr and "ValueError: boom" in result.stderr
    assert "cli.py" not in result.stderr


MODULE_MAIN = textwrap.dedent('''
    import sys
    import s2sgrad as tf
    print("argv", sys.argv[1:], "main", __name__, "file", __file__.endswith("train.py"))
    print(tf.Session().run(tf.constant(2.0) * 3.0))
    if sys.argv[1:] == ["fail"]:
        raise ValueError("boom")
''')


@pytest.mark.parametrize("module", ["app.train", "app"])
def test_dump_runs_a_module_like_python_m(module, tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "train.py").write_text(MODULE_MAIN)
    (tmp_path / "app" / "__main__.py").write_text("from app import train  # noqa\n")
    result = run_cli("dump", "--ir", "-m", module, "-o", "x", "--ir", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert len(HEADER.findall(result.stdout)) == 1 and "def run(" not in result.stdout   # dump's --ir
    assert "argv ['-o', 'x', '--ir']" in result.stderr    # after MODULE: the module's arguments
    assert not (tmp_path / "x").exists()
    if module == "app.train":
        assert "main __main__ file True" in result.stderr
        failed = run_cli("dump", "-mapp.train", "fail", cwd=tmp_path)
        assert failed.returncode == 1 and len(HEADER.findall(failed.stdout)) == 1
        assert failed.stderr.count("Traceback") == 1 and "ValueError: boom" in failed.stderr
        assert "runpy" not in failed.stderr and "cli.py" not in failed.stderr
        assert "train.py\", line 7, in <module>" in failed.stderr
        assert "-m app.train exited with status 1" in failed.stderr
