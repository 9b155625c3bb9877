"""The benchmark code paths (benchmarks/run.py and its modules) run once at tiny sizes, so they keep
working; nothing here asserts a time. TensorFlow is kept out (S2SGRAD_BENCH_TF_PYTHON empty)."""
import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import conv_calls
import heap
import load
import report as report_module
import run


@pytest.fixture(autouse=True)
def no_tensorflow(monkeypatch):
    monkeypatch.setenv("S2SGRAD_BENCH_TF_PYTHON", "")


def test_a_workload_its_targets_and_memory(capsys):
    assert run.main(["--smoke", "--no-peers", "--only", "seed"]) == 0
    out = capsys.readouterr().out
    assert "## seed training step, quiet" in out
    assert "| s2sgrad | " in out and "| numpy | " in out
    assert "- seed training step: time: " in out
    assert "peak memory not compared, hand-written step under 64 KiB: seed training step (" in out


def test_loaded_corpus_compile_and_report(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    pytest.importorskip("threadpoolctl")
    report = tmp_path / "report"
    assert run.main(["--smoke", "--no-peers", "--loaded", "--corpus", "--only", "RNN BPTT",
                     "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert "RNN BPTT while_loop (T=50) SGD step, loaded" in out and "| numpy_1thread | " in out
    assert "| basic_operations | " in out
    results = json.loads((report / "results.json").read_text())
    assert set(results["workloads"]) == {"quiet", "loaded"}
    assert results["corpus"]["loaded"]["basic_operations"]["s2sgrad"]["wall"] > 0
    pngs = sorted(p.name for p in report.glob("*.png"))
    assert "rnn-bptt-while-loop-t-50-sgd-step.png" in pngs and "corpus-wall-loaded.png" in pngs
    page = (report / "report.html").read_text()
    assert page.count("data:image/png;base64,") == len(pngs)
    tables = report_module.markdown(results)
    assert "| RNN BPTT while_loop (T=50) SGD step | quiet | " in tables["threads"]
    corpus = tables["corpus"]
    assert corpus.index("| basic_operations | quiet |") < corpus.index("| basic_operations | loaded |")
    assert tables["charts"].count("![") == len(pngs)


def test_heap_compares_both_settings_with_page_faults(capsys):
    assert heap.main(["--smoke", "--only", "RNN BPTT"]) == 0
    out = capsys.readouterr().out
    assert "## RNN BPTT while_loop (T=50) SGD step" in out
    assert "| keep | " in out and "| off | " in out and "s2sgrad faults/step" in out


def test_conv_calls_times_the_same_ops_as_the_hand_written_formulation(capsys):
    for _, *shape in conv_calls.LAYERS[:2]:
        for op, (hand_written, ours) in conv_calls._calls(*shape).items():
            if op != "max-pool gradient":   # the hand-written one gives every tied maximum the gradient
                np.testing.assert_allclose(ours(), hand_written(), rtol=1e-4, atol=1e-3, err_msg=op)
    assert conv_calls.main(["--repeats", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| deep_cnn layer 2 |")]
    assert len(rows) == 5


def test_compile_scaling(capsys):
    assert run.main(["--smoke", "--no-peers", "--only", "compile"]) == 0
    assert "s2sgrad: N=10: " in capsys.readouterr().out


def test_the_report_without_matplotlib_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"pip install s2sgrad\[bench\]"):
        run.main(["--smoke", "--report", str(tmp_path)])


def test_busy_processes_stop_even_when_the_block_is_interrupted():
    with pytest.raises(KeyboardInterrupt), load.busy_processes(2) as burners:
        assert [b.poll() for b in burners] == [None, None]
        raise KeyboardInterrupt
    assert all(b.poll() is not None for b in burners)


def test_busy_processes_stop_when_the_benchmark_is_terminated(tmp_path):
    script = tmp_path / "term.py"
    script.write_text("import os, signal, sys, time\nsys.path.insert(0, sys.argv[1])\nimport load\n"
                      "with load.busy_processes(2) as burners:\n"
                      "    print(*[b.pid for b in burners], flush=True)\n"
                      "    os.kill(os.getpid(), signal.SIGTERM)\n    time.sleep(30)\n")
    result = subprocess.run([sys.executable, str(script), os.path.join(ROOT, "benchmarks")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 128 + signal.SIGTERM
    for pid in map(int, result.stdout.split()):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
