"""``s2sgrad.view``: the page's columns, its links between them, explain inline, the picture."""
import html
import re
import runpy
import shutil

import numpy as np
import pytest

import s2sgrad
import s2sgrad as tf
from view_pages import DECORATED, GRADIENTS_LINE, LOSS_LINE, STOP_LINE, TRAIN, links, rows, why_note


@pytest.fixture
def train(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    return runpy.run_path(str(path)), path


def _program_row(page, name, line):
    file_index = re.search(rf'<h3>{re.escape(name)}</h3><pre><span class="row" id="p(\d+)_1"', page).group(1)
    return f"p{file_index}_{line}"


def test_a_program_line_links_to_the_forward_and_gradient_statements_it_produced(train, tmp_path):
    g, _ = train
    page = tf.view([g["loss"], g["grad_w"]], feed_dict=g["feed"], path=tmp_path / "page.html")
    assert (tmp_path / "page.html").read_text(encoding="utf-8") == page
    text, table = rows(page), links(page)
    assert tf.source([g["loss"], g["grad_w"]], feed_dict=g["feed"]).splitlines() == \
        [text[f"g0_{n}"] for n in range(1, len(text) + 1) if f"g0_{n}" in text]   # the module, line by line
    loss_line = _program_row(page, "train.py", LOSS_LINE)
    assert text[loss_line] == TRAIN.splitlines()[LOSS_LINE - 1]
    ops = [table["ops"][key] for key in table["lines"][loss_line]]
    generated = {table["ops"][key]["gradient"]: [] for key in table["lines"][loss_line]}
    for op in ops:
        generated[op["gradient"]] += [text[row] for row in op["gen"]]
    assert any(line.endswith(f"# Mean  train.py:{LOSS_LINE}") for line in generated[False])      # forward
    assert any(f"# grad of Square  train.py:{LOSS_LINE}" in line for line in generated[True])   # its gradient
    for op in ops:                              # every row an op lists carries the op's own key
        assert all(row in text for row in op["ir"] + op["gen"])
        assert op["name"] in " ".join(text[row] for row in op["ir"])
    gradient_op = next(op for op in ops if op["gradient"] and op["gen"])
    assert gradient_op["forward_lines"] == [loss_line]
    assert gradient_op["gradient_lines"] == [_program_row(page, "train.py", GRADIENTS_LINE)]
    assert gradient_op["where"] == f"grad of Square train.py:{LOSS_LINE} (gradients at train.py:{GRADIENTS_LINE})"
    every_statement = [row for row in text if re.fullmatch(r"g0_\d+", row) and " # " in text[row]
                       and not text[row].lstrip().startswith("#")]   # (a comment on a line of its own: no statement)
    linked = {row for op in table["ops"].values() for row in op["gen"]}
    assert every_statement and set(every_statement) <= linked   # each commented statement is linked to its op


def test_the_page_is_self_contained(train):
    g, _ = train
    page = tf.view([g["loss"], g["grad_w"]], feed_dict=g["feed"])
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for fetch in ("<link", " src=", "url(", "@import", 'href="http', "<iframe"):
        assert fetch not in page
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg",
                                                              "http://www.w3.org/1999/xlink"}   # SVG namespaces


def test_explain_results_sit_beside_the_line_that_cuts_the_gradient(train):
    g, _ = train
    page = tf.view(g["loss"], feed_dict=g["feed"], explain=(g["loss"], [g["w"], g["b"]]))
    stop_line = _program_row(page, "train.py", STOP_LINE)
    note = why_note(page, stop_line)
    assert note is not None and note.startswith("'b:0': ") and "tf.stop_gradient at train.py:8" in note
    flows, cut = tf.explain(g["loss"], [g["w"], g["b"]])
    assert f"<pre>{html.escape(str(flows))}</pre>" in page
    assert f'<pre data-line="{stop_line}">{html.escape(str(cut))}</pre>' in page


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_the_picture_is_embedded_as_svg_with_graphviz(train):
    g, _ = train
    page = tf.view([g["loss"], g["grad_w"]], feed_dict=g["feed"])
    svg = re.search(r'<div class="picture">(<svg.*?</svg>)', page, re.S)
    assert svg is not None and "<?xml" not in page and "<!DOCTYPE svg" not in page
    assert f"grad of Square train.py:{LOSS_LINE}" in svg.group(1) and 'fill="#fbd9b5"' in svg.group(1)


def test_without_graphviz_the_page_says_what_to_install_and_keeps_the_dot_text(train, monkeypatch, tmp_path):
    g, _ = train
    monkeypatch.setenv("PATH", str(tmp_path))
    page = tf.view(g["loss"], feed_dict=g["feed"])
    assert "<svg" not in page and "apt-get install graphviz" in page
    assert "digraph s2sgrad {" in page


def test_a_decorated_function(tmp_path):
    path = tmp_path / "energy.py"
    path.write_text(DECORATED)
    g = runpy.run_path(str(path))["g"]
    x, y = np.linspace(-1.0, 1.0, 4), np.arange(4.0)
    page = s2sgrad.view(g, x, y)
    text, table = rows(page), links(page)
    body = _program_row(page, "energy.py", 6)         # z = np.tanh(x) * y
    kinds = {table["ops"][key]["gradient"] for key in table["lines"][body]}
    assert kinds == {False, True}
    assert any("tanh" in text[row] for key in table["lines"][body] for row in table["ops"][key]["gen"])
    assert "grad(energy)" in page
    assert g.source(x, y).splitlines() == [text[f"g0_{n}"] for n in range(1, 1000) if f"g0_{n}" in text]


def test_explain_of_a_decorated_function_is_shown(tmp_path):
    path = tmp_path / "cut.py"
    path.write_text("import numpy as np\nimport s2sgrad\n\n\ndef f(x, k):\n    return np.sum(np.floor(k) * x)\n\n\n"
                    "g = s2sgrad.grad(f, wrt=(0, 1))\n")
    g = runpy.run_path(str(path))["g"]
    page = s2sgrad.view(g, np.ones(3), np.ones(3))
    assert '<span class="why">' in page and "argument &#x27;k&#x27;" in page


@pytest.mark.parametrize("call, message", [
    (lambda g, loss, feed: tf.view(loss, 3, feed_dict=feed), "view of fetches takes no further arguments"),
    (lambda g, loss, feed: tf.view(g, np.ones(3), feed_dict=feed), "view of a decorated function takes"),
])
def test_bad_calls(call, message, train):
    g, _ = train
    grad = s2sgrad.grad(lambda x: np.sum(x * x))
    with pytest.raises(TypeError, match=message):
        call(grad, g["loss"], g["feed"])


def test_path_errors_name_the_path(train, tmp_path):
    g, _ = train
    with pytest.raises(FileNotFoundError):
        tf.view(g["loss"], feed_dict=g["feed"], path=tmp_path / "no" / "page.html")
