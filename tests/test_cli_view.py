"""``s2sgrad view`` and dump's --svg/--html, in a subprocess: outputs and every error path."""
import shutil
import subprocess
import sys

import pytest

from conftest import checkout_env
from test_cli import MANY, SLOW_TO_FAIL, run_cli
from view_pages import LOSS_LINE, STOP_LINE, TRAIN, links, rows, why_note


@pytest.fixture
def script(tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    return "train.py"


def test_view_writes_the_page_of_every_module_the_script_compiled(script, tmp_path):
    result = run_cli("view", script, "-o", "page.html", cwd=tmp_path)   # the spelling: -o after SCRIPT
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "values [np.float32(" in result.stderr and "wrote page.html (2 module(s))" in result.stderr
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    text, table = rows(page), links(page)
    assert "<h3>module 1: run</h3>" in page and "<h3>module 2: run</h3>" in page
    loss_ops = [table["ops"][key] for key in table["lines"][f"p0_{LOSS_LINE}"]]
    assert {op["gradient"] for op in loss_ops if op["gen"]} == {False, True}
    assert any(text[row].endswith(f"# Mean  train.py:{LOSS_LINE}") for op in loss_ops for row in op["gen"])
    on_stdout = run_cli("view", script, cwd=tmp_path)        # no -o: the page is the standard output
    assert on_stdout.returncode == 0 and on_stdout.stdout == page


def test_view_passes_the_arguments_after_a_double_dash(tmp_path):
    (tmp_path / "s.py").write_text("import sys\nimport s2sgrad as tf\nprint('argv', sys.argv)\n"
                                   "tf.Session().run(tf.constant(1.0) + 1.0)\n")
    result = run_cli("view", "-o", "p.html", "s.py", "--", "-o", "x", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "argv ['s.py', '-o', 'x']" in result.stderr
    from_stdin = run_cli("view", "-", "-o", "q.html", "--", "a", cwd=tmp_path, input=(tmp_path / "s.py").read_text())
    assert from_stdin.returncode == 0 and "argv ['-', 'a']" in from_stdin.stderr
    assert "(the source of this file is not available)" in (tmp_path / "q.html").read_text()   # <stdin>
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "s.py").write_text((tmp_path / "s.py").read_text())
    as_module = run_cli("view", "-m", "pkg.s", "-o", "m.html", "--", "b", cwd=tmp_path)
    assert as_module.returncode == 0, as_module.stderr
    assert "argv [" in as_module.stderr and "'b']" in as_module.stderr
    assert "<h3>s.py</h3>" in (tmp_path / "m.html").read_text()


def test_view_of_a_failing_script_shows_what_compiled_and_exits_with_its_status(tmp_path):
    (tmp_path / "s.py").write_text("import s2sgrad as tf\ntf.Session().run(tf.constant(1.0) * 2.0)\n"
                                   "raise SystemExit(4)\n")
    result = run_cli("view", "s.py", "-o", "p.html", cwd=tmp_path)
    assert result.returncode == 4
    assert "s.py exited with status 4; showing the 1 module(s)" in result.stderr
    assert "<h3>module 1: run</h3>" in (tmp_path / "p.html").read_text()


def test_view_explains_the_named_gradients_beside_the_line_that_cuts_them(script, tmp_path):
    result = run_cli("view", script, "-o", "page.html", "--explain", "loss=w,b:0", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "page.html").read_text()
    assert f'<pre data-line="p0_{STOP_LINE}">' in page
    assert why_note(page, f"p0_{STOP_LINE}").startswith("'b:0': The path is cut by tf.stop_gradient")
    assert "&#x27;w:0&#x27;: the gradient of &#x27;loss:0&#x27; flows to it." in page


@pytest.mark.parametrize("spec, message", [
    ("nope=w", "--explain: no tensor named 'nope' in the graph of any module the script compiled"),
    ("loss=w,zz", "--explain: The name 'zz:0' refers to a Tensor which does not exist"),
])
def test_view_explain_of_a_tensor_the_graph_lacks_exits_2(spec, message, script, tmp_path):
    result = run_cli("view", script, "-o", "page.html", "--explain", spec, cwd=tmp_path)
    assert result.returncode == 2 and message in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "page.html").exists()


@pytest.mark.parametrize("args, message", [
    (["view", "s.py", "--explain", "loss"], "argument --explain: expected Y=X[,X...] (tensor names, such as "
                                            "loss=w,b), got 'loss'"),
    (["view", "s.py", "--explain", "loss=w,"], "got 'loss=w,'"),
    (["view", "s.py", "-o"], "argument -o/--output: expected one argument"),
    (["view"], "the following arguments are required: SCRIPT (or -m MODULE, or - for standard input)\n"),
    (["view", "--bogus", "s.py"], "unrecognized arguments: --bogus"),
    (["view", "s.py", "extra"], "unrecognized arguments: extra (the script's arguments go after '--')"),
    (["view", "-m", "s", "s.py"], "give SCRIPT or -m MODULE, not both"),
    (["view", "missing.py"], "can't open file 'missing.py': no such file"),
    (["view", "adir"], "can't open file 'adir': is a directory"),
    (["view", "s.py", "-o", "/nonexistent/dir/p.html"], "-o '/nonexistent/dir/p.html': no such directory"),
    (["view", "s.py", "-o", "adir"], "-o 'adir': is a directory"),
    (["view", "s.py", "-o", "s.py"], "-o 's.py': is the script itself"),
    (["view", "-m", "nope_no_module", "-o", "p.html"], "no module named 'nope_no_module'"),
    (["dump", "--svg", "/nonexistent/g.svg", "s.py"], "--svg '/nonexistent/g.svg': no such directory"),
    (["dump", "--html", "adir", "s.py"], "--html 'adir': is a directory"),
    (["dump", "--dot", "s.py", "s.py"], "--dot 's.py': is the script itself"),
    (["dump", "--dot", "g.out", "--html", "./g.out", "s.py"], "--html './g.out': is also the path of --dot"),
])
def test_bad_arguments_exit_2_with_the_subcommands_usage_before_the_script_runs(args, message, tmp_path):
    (tmp_path / "s.py").write_text(SLOW_TO_FAIL)
    (tmp_path / "adir").mkdir()
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"usage: s2sgrad {args[0]} ")
    assert message in result.stderr
    assert not (tmp_path / "ran").exists()
    assert (tmp_path / "s.py").read_text() == SLOW_TO_FAIL


def test_svg_without_graphviz_is_refused_before_the_script_runs(tmp_path):
    (tmp_path / "s.py").write_text(SLOW_TO_FAIL)
    env = checkout_env()
    env["PATH"] = str(tmp_path)                 # no `dot` program
    result = subprocess.run([sys.executable, "-m", "s2sgrad", "dump", "--svg", "g.svg", "s.py"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and not (tmp_path / "ran").exists()
    assert "--svg: rendering DOT as SVG needs Graphviz's 'dot' program" in result.stderr
    assert "apt-get install graphviz" in result.stderr


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_dump_writes_svg_and_html_beside_the_dump(script, tmp_path):
    result = run_cli("dump", "--svg", "g.svg", "--html", "page.html", "--dot", "g.dot", script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    svg = (tmp_path / "g.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and svg.count('class="cluster"') == 2
    rendered = subprocess.run(["dot", "-Tsvg", "g.dot"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert rendered.stdout == svg                 # the SVG is the DOT file, drawn
    assert (tmp_path / "page.html").read_text() == run_cli("view", script, cwd=tmp_path).stdout
    assert "#### s2sgrad module 2" in result.stdout


def test_view_into_a_closed_pipe_ends_quietly(tmp_path):
    (tmp_path / "many.py").write_text(MANY.replace("range(400)", "range(100)"))   # a page far larger than a pipe
    env = checkout_env()
    env["PATH"] = str(tmp_path)                 # no Graphviz: the pictures stay DOT text (quicker)
    with subprocess.Popen([sys.executable, "-m", "s2sgrad", "view", "many.py"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env, cwd=tmp_path) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()
        stderr = proc.stderr.read().decode()
        status = proc.wait(timeout=300)
    assert first == b"<!DOCTYPE html>\n"
    assert stderr == "" and status == 141
