"""The ``s2sgrad`` command: ``s2sgrad dump SCRIPT.py [args...]`` shows the code a program compiles.

``dump`` runs the script as ``__main__`` with a hook in ``compiler.compile_hooks``;
when the script ends (normally, by ``sys.exit`` or by an exception) it prints every distinct
module that was compiled, in compile order, and optionally writes DOT and standalone files.
The script's own standard output goes to standard error, so standard output is the dump.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import os
import runpy
import sys
import threading
import traceback
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._version import __version__
from .codegen import compiler
from .codegen.backends import BACKENDS, ENV_VARIABLE
from .codegen.names import identifier
from .dot import to_dot
from .export import CallRecorder, executable_spec
from .pipeline import Executable
from .ssa.printer import format_ops
from .standalone import write_standalone

__all__ = ["main", "build_parser"]

_HEADER_COLOR, _RESET = "\033[1;36m", "\033[0m"


class _Compiled:
    """One distinct compiled module and what dump knows about it."""

    def __init__(self, label: str, source: str, constants: dict, origin: Any) -> None:
        self.label = label
        self.source = source
        self.constants = constants
        self.exe = origin if isinstance(origin, Executable) else None
        self.recorder = CallRecorder()
        self.times = 1

    def header(self, index: int) -> str:
        digest = hashlib.sha1(self.source.encode("utf-8")).hexdigest()[:10]
        times = f", compiled {self.times} times" if self.times > 1 else ""
        return f"#### s2sgrad module {index}: {self.label} (sha1 {digest}{times})"


class _Collector:
    """The compile hook: distinct modules (same source and constants) in first-compile order;
    with ``record``, each one's ``run`` is wrapped to record its first call (for ``-o``)."""

    def __init__(self, record: bool) -> None:
        self.modules: dict[str, _Compiled] = {}
        self._record = record
        self._lock = threading.Lock()

    def __call__(self, run: compiler.GeneratedRun, label: str, constants: dict[str, Any],
                 origin: Any) -> compiler.GeneratedRun:
        key = _module_key(run.source, constants)
        with self._lock:
            seen = self.modules.get(key)
            if seen is not None:
                seen.times += 1
                return run
            new = self.modules[key] = _Compiled(label, run.source, constants, origin)
        return new.recorder.wrap(run) if self._record else run


def _module_key(source: str, constants: dict) -> str:
    h = hashlib.sha1(source.encode("utf-8"))
    for name in sorted(constants):
        value = np.asarray(constants[name])
        h.update(f"{name}:{value.dtype.str}:{value.shape}".encode())
        h.update(repr(value.tolist()).encode() if value.dtype == object else np.ascontiguousarray(value).tobytes())
    return h.hexdigest()


_DUMP_USAGE = ("s2sgrad dump [-h] [--ir] [--dot FILE] [-o DIR] [--color {auto,always,never}] [--backend NAME]\n"
               "                    (SCRIPT | -m MODULE | -) [ARGS ...]")
_VALUE_OPTIONS = ("--dot", "--output", "--color", "--backend")   # dump's options that take a value (besides -o)
_STDIN = "-"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``s2sgrad`` command and its ``dump`` subcommand."""
    parser = argparse.ArgumentParser(
        prog="s2sgrad", description="s2sgrad: a source-to-source gradient compiler. "
                                    "Run a subcommand with --help for its options.")
    parser.add_argument("--version", action="version", version=f"s2sgrad {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    dump = commands.add_parser(
        "dump", usage=_DUMP_USAGE, help="run a script and print the code s2sgrad compiled for it",
        description="Run SCRIPT as __main__ (sys.argv = [SCRIPT, *ARGS]) and print, for every distinct module "
                    "it made s2sgrad compile, a header and the generated source (or the IR). The script's "
                    "own standard output goes to standard error. Exit status: the script's (1 if it raised).",
        epilog="Options go before SCRIPT; everything after SCRIPT (or -m MODULE) is passed to the script. "
               "'-m MODULE' runs a module and '-' reads the script from standard input, as with python. "
               "Usage errors, including unusable paths, exit 2 before the script runs; a closed standard "
               "output (| head) exits 141 quietly.")
    dump.add_argument("--ir", action="store_true", help="print the IR of each module's graph slice instead "
                                                        "of the generated source")
    dump.add_argument("--dot", metavar="FILE", help="also write the graph slices as Graphviz DOT to FILE")
    dump.add_argument("-o", "--output", metavar="DIR", help="also write each module to DIR as a standalone "
                                                            ".py file (NumPy only) with its data in a .npz")
    dump.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                      help="colour the headers: auto (default) when standard output is a terminal and "
                           "NO_COLOR is unset")
    dump.add_argument("--backend", choices=tuple(BACKENDS), default=None,
                      help="the array library the script's modules target (sets S2SGRAD_BACKEND for the run; "
                           "default: numpy), see docs/backends.md")
    dump.add_argument("-m", dest="module", metavar="MODULE",
                      help="run library module MODULE as a script, like python -m (ends dump's options)")
    dump.add_argument("script", metavar="SCRIPT", nargs="?",
                      help="the Python script to run; '-' reads it from standard input")
    dump.add_argument("args", metavar="ARGS", nargs=argparse.REMAINDER, help="arguments for the script")
    dump.set_defaults(parser=dump)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``s2sgrad`` console script and ``python -m s2sgrad``.

    Usage errors (bad options, unusable paths) exit with status 2 and the subcommand's own
    usage before the script runs; a closed standard output (``s2sgrad dump x.py | head``)
    ends the dump quietly with status 141, as a Unix tool killed by SIGPIPE does."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    argv, module_args = _split_module_args(argv)
    ns, extras = parser.parse_known_args(argv)
    if extras:   # the usage of the command the unknown option was given to
        before_command = argv.index(extras[0]) < argv.index(ns.command)
        (parser if before_command else ns.parser).error(f"unrecognized arguments: {' '.join(extras)}")
    if ns.module is not None:
        if module_args is None or ns.script is not None:   # -m given twice, or after SCRIPT
            ns.parser.error("-m MODULE must be the last of dump's options")
        ns.args = module_args
    elif ns.script is None:
        ns.parser.error("the following arguments are required: SCRIPT (or -m MODULE, or - for standard input)")
    problem = _path_problem(ns)
    if problem:
        ns.parser.error(problem)
    return dump(ns)


def _split_module_args(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """``dump [options] -m MODULE ARGS...``: like ``python -m``, everything after MODULE is the
    module's, even options. Returns (argv up to and including MODULE, the module's ARGS), or
    (argv, None) when dump's options hold no ``-m``."""
    if not argv or argv[0] != "dump":
        return argv, None
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "-m":
            return argv[:i + 2], argv[i + 2:]
        if arg.startswith("-m") and not arg.startswith("--"):
            return argv[:i + 1], argv[i + 1:]
        if arg == "--" or arg == _STDIN or not arg.startswith("-"):
            break                   # SCRIPT: the rest is the script's
        takes_value = arg == "-o" or ("=" not in arg and len(arg) > 2
                                      and any(o.startswith(arg) for o in _VALUE_OPTIONS))
        i += 2 if takes_value else 1
    return argv, None


def _path_problem(ns: argparse.Namespace) -> str | None:
    """Why a path argument of ``dump`` cannot be used, or None: checked before the script runs."""
    script = ns.script
    if ns.module is not None:
        problem = _module_problem(ns.module)
        if problem:
            return problem
    elif script != _STDIN:
        if os.path.isdir(script):
            return f"can't open file {script!r}: is a directory"
        if not os.path.exists(script):
            return f"can't open file {script!r}: no such file"
        if not os.access(script, os.R_OK):
            return f"can't open file {script!r}: permission denied"
    if ns.dot is not None:
        problem = _output_problem(ns.dot, is_dir=False)
        if problem:
            return f"--dot {ns.dot!r}: {problem}"
    if ns.output is not None:
        problem = _output_problem(ns.output, is_dir=True)
        if problem:
            return f"-o {ns.output!r}: {problem}"
    return None


def _module_problem(name: str) -> str | None:
    """Why ``-m name`` cannot run, found as ``python -m`` finds it (the current directory first)."""
    saved_path = list(sys.path)
    sys.path.insert(0, os.getcwd())
    try:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations is not None:   # a package: its __main__
            spec = importlib.util.find_spec(name + ".__main__")
            if spec is None:
                return f"-m {name!r}: a package with no __main__ module"
    except (ImportError, ValueError) as e:
        return f"-m {name!r}: {e}"
    finally:
        sys.path[:] = saved_path
    return None if spec is not None else f"-m {name!r}: no module named {name!r}"


def _output_problem(path: str, is_dir: bool) -> str | None:
    """Why ``path`` cannot be written (a file, or with ``is_dir`` a directory made with its parents)."""
    if not path:
        return "empty path"
    if os.path.exists(path):
        if os.path.isdir(path) != is_dir:
            return "exists and is not a directory" if is_dir else "is a directory"
        if not os.access(path, os.W_OK):
            return "permission denied"
        return None
    parent = os.path.dirname(os.path.abspath(path))
    if not is_dir and not os.path.isdir(parent):
        return f"no such directory {os.path.dirname(path)!r}"
    while not os.path.exists(parent):   # -o makes missing parents: the nearest existing one must do
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        return f"{parent!r} is not a directory"
    if not os.access(parent, os.W_OK):
        return f"permission denied in {parent!r}"
    return None


def dump(ns: argparse.Namespace) -> int:
    """Run the script, then print and write what it compiled; returns the script's exit status."""
    collector = _Collector(record=ns.output is not None)
    compiler.compile_hooks.append(collector)
    saved = os.environ.get(ENV_VARIABLE)
    if ns.backend is not None:
        os.environ[ENV_VARIABLE] = ns.backend
    try:
        status = _run_script(ns.script, ns.args, ns.module)
    finally:
        compiler.compile_hooks.remove(collector)
        if ns.backend is not None:
            _restore(ENV_VARIABLE, saved)
    modules = list(collector.modules.values())
    if status != 0:
        print(f"s2sgrad dump: {_target(ns)} exited with status {status}; showing the {len(modules)} module(s) "
              f"compiled before that", file=sys.stderr)
    elif not modules:
        print(f"s2sgrad dump: {_target(ns)} made s2sgrad compile nothing", file=sys.stderr)
    color = ns.color == "always" or (ns.color == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ)
    paths = _write_modules(modules, ns.output, _target(ns)) if ns.output else {}
    if ns.dot:   # files first: they are written even if standard output is closed early
        sections = [(f"module {i}: {m.label}", m.exe.ops) for i, m in enumerate(modules, start=1) if m.exe]
        with open(ns.dot, "w", encoding="utf-8") as f:
            f.write(to_dot(sections))
    try:
        for index, m in enumerate(modules, start=1):
            header = m.header(index) + (f" -> {paths[index]}" if index in paths else "")
            print(f"{_HEADER_COLOR}{header}{_RESET}" if color else header)
            print(_ir_text(m) if ns.ir else m.source, end="" if ns.ir else "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): say nothing, and point stdout at devnull so the
        # interpreter's final flush does not fail again. 141 = 128 + SIGPIPE, the shell's status
        # for a tool killed by a broken pipe.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return _BROKEN_PIPE
    return status


_BROKEN_PIPE = 141


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def _target(ns: argparse.Namespace) -> str:
    """What dump ran, for messages: ``train.py``, ``-m pkg.train`` or ``<stdin>``."""
    if ns.module is not None:
        return f"-m {ns.module}"
    return "<stdin>" if ns.script == _STDIN else os.path.basename(ns.script)


def _ir_text(m: _Compiled) -> str:
    if m.exe is None:
        return "# (no graph slice: this module was compiled outside an Executable)\n"
    return format_ops(m.exe.ops) + "\n"


def _write_modules(modules: list[_Compiled], directory: str, script: str) -> dict[int, str]:
    os.makedirs(directory, exist_ok=True)
    paths = {}
    for index, m in enumerate(modules, start=1):
        if m.exe is None:
            print(f"s2sgrad dump: module {index} ({m.label}) was compiled outside an Executable; not written",
                  file=sys.stderr)
            continue
        path = os.path.join(directory, f"{identifier(m.label)}_{index}.py")
        spec = executable_spec(m.exe.module, m.exe.n_fetches, m.recorder.args,
                               origin=f"module {index} ({m.label}) of {script}")
        write_standalone(spec, path)
        paths[index] = path
    return paths


def _run_script(path: str | None, args: Sequence[str], module: str | None = None) -> int:
    """Run ``path`` as ``__main__`` like ``python path args...`` (``-``: the source read from
    standard input, like ``python -``; ``module``: like ``python -m module args...``); returns
    its exit status."""
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [path or "-m", *args]
    if module is not None:
        sys.path.insert(0, os.getcwd())
    else:
        sys.path.insert(0, "" if path == _STDIN else os.path.dirname(os.path.abspath(path or "")))
    try:
        source = sys.stdin.read() if path == _STDIN and module is None else None
        with contextlib.redirect_stdout(sys.stderr):
            if module is not None:
                runpy.run_module(module, run_name="__main__", alter_sys=True)
            elif source is not None:
                exec(compile(source, "<stdin>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
            else:
                runpy.run_path(str(path), run_name="__main__")
    except SystemExit as e:
        return _exit_status(e.code)
    except BaseException as e:  # the script's error is reported like Python reports it
        _print_script_traceback(e)
        return 130 if isinstance(e, KeyboardInterrupt) else 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    return 0


def _exit_status(code: Any) -> int:
    """What ``sys.exit(code)`` makes the process exit with."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


_LAUNCHERS = (os.path.abspath(__file__), os.path.abspath(runpy.__file__), "<frozen runpy>")


def _print_script_traceback(e: BaseException) -> None:
    """The traceback from the script's first frame on (dump's own frames and runpy's are left
    out; a syntax error in the script has no such frame and is printed as Python prints it)."""
    tb = e.__traceback__
    while tb is not None and (tb.tb_frame.f_code.co_filename in _LAUNCHERS
                              or os.path.abspath(tb.tb_frame.f_code.co_filename) in _LAUNCHERS):
        tb = tb.tb_next
    traceback.print_exception(type(e), e, tb, file=sys.stderr)
