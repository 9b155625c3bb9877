"""Long work says what it does on standard error when that is a terminal (a pseudo-terminal here),
and nothing when it is not, when it is quick, or when ``S2SGRAD_PROGRESS=off``."""
from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

import pytest

from conftest import checkout_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

CHAIN = """\
import s2sgrad as tf
x = tf.placeholder(tf.float32, name="x")
y = x
for _ in range(50):
    y = tf.tanh(y)
with tf.Session() as sess:
    print(sess.run(tf.gradients(y, x)[0], {x: 0.5}) > 0)
    if EXPORT:
        tf.export(y, "chain.py", {x: 0.5})
"""


def run(tmp_path, terminal, export=False, **env):
    """(stdout, stderr) of the program, its standard error a pseudo-terminal or a pipe."""
    (tmp_path / "prog.py").write_text(f"EXPORT = {export}\n" + CHAIN)
    if not terminal:
        result = subprocess.run([sys.executable, "prog.py"], capture_output=True, text=True, timeout=120,
                                cwd=tmp_path, env=checkout_env(**env))
        assert result.returncode == 0, result.stderr
        return result.stdout, result.stderr
    master, slave = pty.openpty()
    with subprocess.Popen([sys.executable, "prog.py"], stdout=subprocess.PIPE, stderr=slave, cwd=tmp_path,
                          env=checkout_env(**env)) as process:
        os.close(slave)
        stdout = process.stdout.read().decode()
        assert process.wait(timeout=120) == 0
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:   # the terminal's other end is closed: all read
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    return stdout, err.decode()


def test_gradients_and_a_compile_that_take_longer_than_the_delay_say_so_on_a_terminal(tmp_path):
    out, err = run(tmp_path, True, S2SGRAD_PROGRESS_DELAY="0")
    assert out == "True\n"
    assert re.fullmatch(r"s2sgrad: computing gradients\.\.\. done in \d+\.\d s\r\n"
                        r"s2sgrad: compiling run \(\d+ ops\)\.\.\. done in \d+\.\d s\r\n", err), repr(err)


def test_an_export_is_one_status_with_its_compiles_inside(tmp_path):
    _, err = run(tmp_path, True, export=True, S2SGRAD_PROGRESS_DELAY="0")
    lines = err.splitlines()
    assert len(lines) == 3 and re.fullmatch(r"s2sgrad: exporting chain\.py\.\.\. done in \d+\.\d s", lines[2]), err
    assert (tmp_path / "chain.py").exists()


@pytest.mark.parametrize("terminal, env", [(False, {"S2SGRAD_PROGRESS_DELAY": "0"}),
                                           (True, {"S2SGRAD_PROGRESS_DELAY": "0", "S2SGRAD_PROGRESS": "off"}),
                                           (True, {})])
def test_silent_without_a_terminal_when_asked_and_when_quick(tmp_path, terminal, env):
    out, err = run(tmp_path, terminal, **env)
    assert out == "True\n" and err == ""
