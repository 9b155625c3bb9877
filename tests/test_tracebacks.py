"""Every consumer of tracebacks shows the generated line an error came from: the interpreter's own
printing, ``traceback``, ``logging.exception``, pytest, IPython, pdb (post mortem, ``python -m pdb``,
``q``), threads, ``inspect``, cProfile, and with ``S2SGRAD_SOURCE_DIR`` coverage and line profilers.
Each runs in a fresh interpreter on a program whose ``tf.gather`` gets an index out of range."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest

from conftest import checkout_env
from s2sgrad.codegen import source_files

PROGRAM = """\
import numpy as np
import s2sgrad as tf

table = tf.placeholder(tf.float32, [3], name="table")
rows = tf.placeholder(tf.int32, [None], name="rows")
picked = tf.gather(table, rows)
loss = tf.reduce_sum(picked * 2.0)
sess = tf.Session()
good = {table: [1.0, 2.0, 3.0], rows: [0, 2]}
bad = {table: [1.0, 2.0, 3.0], rows: [0, 7]}
"""
LINE = "picked = np.take(table, rows, axis=0)"   # the generated statement that fails
FRAME = re.compile(r'File "<s2sgrad:run-[0-9a-f]{10}-\d+>", line (\d+), in run\n +' + re.escape(LINE))


def run(tmp_path, tail, *argv, stdin=None, **env):
    (tmp_path / "prog.py").write_text(PROGRAM + textwrap.dedent(tail))
    args = argv or ("prog.py",)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120, input=stdin,
                          env=checkout_env(**env), cwd=tmp_path)


def test_an_uncaught_error_prints_the_generated_line_and_the_users(tmp_path):
    result = run(tmp_path, "sess.run(loss, bad)\n")
    assert result.returncode == 1
    err = result.stderr
    assert len(FRAME.findall(err)) == 2, err   # the IndexError's frame and the TF error's last frame
    last = err.strip().splitlines()
    assert last[-2].startswith("s2sgrad.errors.InvalidArgumentError: IndexError: index 7 is out of bounds")
    assert last[-2].endswith("(op 'GatherV2' of type GatherV2, created at prog.py:6)")
    assert re.fullmatch(rf"  generated line \d+ of <s2sgrad:run-[0-9a-f]{{10}}-\d+>: {re.escape(LINE)} +"
                        r"# GatherV2  prog.py:6", last[-1]), last[-1]
    assert 'File "' + str(tmp_path / "prog.py") + '", line 11, in <module>' in err
    assert "During handling" not in err and "numpy" not in err.split("direct cause")[0]


def test_session_run_errors_show_no_frames_of_s2sgrad_unless_asked(tmp_path):
    """Between the user's ``sess.run`` line and the generated statement, no frame of the session, its
    glue or the thread timing; ``S2SGRAD_TRACEBACK_FILTERING=off`` shows them (compile errors too)."""
    tail = "sess.run(loss, good)\nsess.run(loss, bad)\n"
    internal = re.compile(r'File "(' + re.escape(os.path.dirname(tf_file())) + r'|<s2sgrad-)')
    filtered = run(tmp_path, tail).stderr
    assert len(FRAME.findall(filtered)) == 2 and not internal.search(filtered), filtered
    kept = run(tmp_path, tail, S2SGRAD_TRACEBACK_FILTERING="off").stderr
    assert FRAME.search(kept) and 'session.py", line' in kept and '"<s2sgrad-step>"' in kept, kept
    compile_error = run(tmp_path, "sess.run(tf.reshape(picked, [5]), bad)\n").stderr
    assert "Cannot reshape a tensor" in compile_error and not internal.search(compile_error), compile_error


def tf_file():
    import s2sgrad
    return s2sgrad.__file__


def test_traceback_logging_and_threads_show_the_generated_line(tmp_path):
    result = run(tmp_path, """\
        import logging, threading, traceback
        try:
            sess.run(loss, bad)
        except tf.errors.InvalidArgumentError:
            traceback.print_exc()
            logging.exception("the run failed")
        worker = threading.Thread(target=sess.run, args=(loss, bad), name="worker")
        worker.start()
        worker.join()
        """)
    assert result.returncode == 0, result.stderr
    err = result.stderr
    assert err.count("ERROR:root:the run failed") == 1 and "Exception in thread worker" in err
    assert len(FRAME.findall(err)) == 6, err


def test_pytest_shows_the_generated_line(tmp_path):
    (tmp_path / "test_prog.py").write_text("from prog import *\n\ndef test_run():\n    sess.run(loss, bad)\n")
    result = run(tmp_path, "", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_prog.py")
    assert result.returncode == 1
    assert re.search(r"\n>\s+" + re.escape(LINE), result.stdout), result.stdout
    assert "1 failed" in result.stdout


def test_ipython_shows_the_generated_line(tmp_path):
    pytest.importorskip("IPython")
    result = run(tmp_path, "sess.run(loss, bad)\n", "-m", "IPython", "--colors=NoColor", "--no-banner", "--quick",
                 "-c", "%run prog.py")
    shown = result.stdout + result.stderr
    assert re.search(r"File <s2sgrad:run-[0-9a-f]{10}-\d+>:\d+, in run\(table, rows\)\n.*\n-+> +\d+ +"
                     + re.escape(LINE), shown), shown


def test_post_mortem_pdb_starts_in_the_generated_frame_with_its_values(tmp_path):
    result = run(tmp_path, "sess.run(loss, bad)\n", "-m", "pdb", "prog.py", stdin="c\np rows\nl\nq\nq\n")
    out = result.stdout
    assert "Uncaught exception. Entering post mortem debugging" in out, out
    after = out.split("Entering post mortem debugging")[1]
    assert re.search(r"> <s2sgrad:run-[0-9a-f]{10}-\d+>\(\d+\)run\(\)\n-> " + re.escape(LINE), after), out
    assert "array([0, 7], dtype=int32)" in after
    assert re.search(r"\d+  ->\s+" + re.escape(LINE), after)   # `l` lists the generated module


def test_pdb_pm_after_the_error_lands_in_the_generated_frame(tmp_path):
    result = run(tmp_path, "sess.run(loss, bad)\n", "-i", "prog.py",
                 stdin="import pdb; pdb.pm()\np table * 10\nq\n")
    assert re.search(r"> <s2sgrad:run-[0-9a-f]{10}-\d+>\(\d+\)run\(\)\n-> " + re.escape(LINE), result.stdout)
    assert "array([10., 20., 30.], dtype=float32)" in result.stdout, result.stdout


def test_quitting_pdb_inside_generated_code_quits(tmp_path):
    result = run(tmp_path, """\
        from s2sgrad.codegen import compiler
        compiled = []
        compiler.compile_hooks.append(lambda fn, label, constants, origin: compiled.append(fn) or fn)
        sess.run(loss, good)
        import pdb
        pdb.run("sess.run(loss, good)")
        print("after the debugger")
        """, stdin="break compiled[0]\nc\nwhere\nq\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"> <s2sgrad:run-[0-9a-f]{10}-\d+>\(\d+\)run\(\)", result.stdout), result.stdout
    assert "after the debugger" in result.stdout
    assert "BdbQuit" not in result.stdout + result.stderr


def test_inspect_and_cprofile_see_the_generated_function(tmp_path):
    result = run(tmp_path, """\
        import cProfile, inspect, linecache, pstats
        from s2sgrad.codegen import compiler
        compiled = []
        compiler.compile_hooks.append(lambda fn, label, constants, origin: compiled.append(fn) or fn)
        profile = cProfile.Profile()
        profile.runcall(lambda: [sess.run(loss, good) for _ in range(5)])
        (fn,) = compiled
        assert inspect.getsource(fn) == fn.source[fn.source.index("def run("):]
        ((filename, line, name),) = [k for k in pstats.Stats(profile).stats if k[0] == fn.filename and k[2] == "run"]
        print(name, pstats.Stats(profile).stats[(filename, line, name)][0], linecache.getline(filename, line).strip())
        """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "run 5 def run(table, rows):"


def test_source_files_serve_coverage_and_line_profilers(tmp_path):
    pytest.importorskip("coverage")
    cache = tmp_path / "generated"
    result = run(tmp_path, "sess.run(loss, good)\n", "-m", "coverage", "run", f"--include={cache}/*", "prog.py",
                 S2SGRAD_SOURCE_DIR=str(cache))
    assert result.returncode == 0, result.stderr
    (name,) = os.listdir(cache)
    assert re.fullmatch(r"run-[0-9a-f]{16}\.py", name)
    report = subprocess.run([sys.executable, "-m", "coverage", "report", "-m"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120, env=checkout_env())
    assert re.search(rf"{re.escape(name)}\s+\d+\s+0\s+100%", report.stdout), report.stdout


def test_line_profiler_reads_the_generated_lines(tmp_path):
    pytest.importorskip("line_profiler")
    result = run(tmp_path, """\
        import line_profiler
        from s2sgrad.codegen import compiler
        compiled = []
        compiler.compile_hooks.append(lambda fn, label, constants, origin: compiled.append(fn) or fn)
        sess.run(loss, good)
        profiler = line_profiler.LineProfiler(compiled[0])
        profiler.runcall(sess.run, loss, good)
        profiler.print_stats()
        """, S2SGRAD_SOURCE_DIR=str(tmp_path / "generated"))
    assert result.returncode == 0, result.stderr
    assert re.search(r"1\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+" + re.escape(LINE), result.stdout), result.stdout


def test_an_unwritable_source_dir_falls_back_to_linecache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = run(tmp_path, "sess.run(loss, bad)\n", S2SGRAD_SOURCE_DIR=str(blocker / "generated"))
    assert len(FRAME.findall(result.stderr)) == 2, result.stderr


def test_source_files_are_named_by_content_and_written_once(tmp_path):
    cache = tmp_path / "generated"
    result = run(tmp_path, """\
        import sys
        sess.run(loss, good)
        tf.Session().run(loss, good)   # the same module again: the same file
        try:
            sess.run(loss, bad)
        except tf.errors.InvalidArgumentError as e:
            tb = e.__traceback__
            while tb.tb_next is not None:
                tb = tb.tb_next
            print(tb.tb_frame.f_code.co_filename)
        print(sess.source(loss, good), end="")
        """, S2SGRAD_SOURCE_DIR=str(cache))
    assert result.returncode == 0, result.stderr
    (name,) = os.listdir(cache)
    path, source = result.stdout.split("\n", 1)
    assert path == str(cache / name)
    assert (cache / name).read_text() == source
    uncaught = run(tmp_path, "sess.run(loss, bad)\n", S2SGRAD_SOURCE_DIR=str(cache))
    assert f'File "{cache / name}", line' in uncaught.stderr and LINE in uncaught.stderr
    assert os.listdir(cache) == [name]


def test_the_source_dir_keeps_the_most_recently_used_modules(tmp_path, monkeypatch):
    monkeypatch.setenv(source_files.SOURCE_DIR_ENV, str(tmp_path))
    monkeypatch.setattr(source_files, "MAX_FILES", 3)
    (tmp_path / "notes.txt").write_text("not a module")
    paths = []
    for k in range(4):
        paths.append(source_files.register_source(f"x = {k}\n", f"run{k}"))
        os.utime(paths[-1], (k, k))  # written in order, one second apart
    assert sorted(os.listdir(tmp_path)) == sorted(["notes.txt", *(os.path.basename(p) for p in paths[1:])])
    assert source_files.register_source("x = 1\n", "run1") == paths[1]  # found again: now the newest
    paths.append(source_files.register_source("x = 4\n", "run4"))
    assert sorted(os.listdir(tmp_path)) == sorted(["notes.txt", *(os.path.basename(p) for p in (paths[1], *paths[3:]))])
