"""The ``s2sgrad`` command: ``dump`` shows the code a program compiles, ``view`` writes a page of it.

``s2sgrad dump SCRIPT.py [args...]`` runs the script as ``__main__`` with a hook in
``compiler.compile_hooks``; when the script ends (normally, by ``sys.exit`` or by an exception)
it prints every distinct module that was compiled, in compile order, and optionally writes DOT,
SVG, an HTML page and standalone files. ``s2sgrad view SCRIPT.py -o page.html`` runs it the
same way and writes the page (``s2sgrad.view``). The script's own standard output goes to
standard error, so standard output is the dump (or the page).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable, Sequence

from ._version import __version__
from .cli_paths import path_problem
from .codegen import compiler
from .codegen.backends import BACKENDS, ENV_VARIABLE
from .codegen.names import identifier
from .drawing import GRAPHVIZ_MISSING, to_dot, to_svg
from .explain import Explanation
from .explain import explain as explain_gradients
from .export import executable_spec
from .script_run import STDIN, Collector, CompiledModule, run_script
from .ssa.graph import Tensor, get_default_graph
from .ssa.printer import format_ops
from .standalone import write_standalone
from .view_page import compiled_of_executable, page

__all__ = ["main", "build_parser"]

_HEADER_COLOR, _RESET = "\033[1;36m", "\033[0m"
_SCRIPT_USAGE = "(SCRIPT | -m MODULE | -) [ARGS ...]"
_DUMP_USAGE = ("s2sgrad dump [-h] [--ir] [--dot FILE] [--svg FILE] [--html FILE] [-o DIR]\n"
               "                    [--color {auto,always,never}] [--backend NAME] " + _SCRIPT_USAGE)
_VIEW_USAGE = "s2sgrad view [-h] [-o FILE] [--explain Y=X,...] (SCRIPT | -m MODULE | -) [-- ARGS ...]"
_VALUE_OPTIONS = ("--dot", "--svg", "--html", "--output", "--color", "--backend")  # dump options with a value, and -o
_ERRORS = ("Usage errors, including unusable paths, exit 2 before the script runs; a closed standard "
           "output (| head) exits 141 quietly.")
_DUMP_EPILOG = ("Options go before SCRIPT; everything after SCRIPT (or -m MODULE) is passed to the script. "
                "'-m MODULE' runs a module and '-' reads the script from standard input, as with python. " + _ERRORS)
_VIEW_EPILOG = ("Options may come before or after SCRIPT (s2sgrad view train.py -o page.html); the script's own "
                "arguments come after '--'. '-m MODULE' runs a module and '-' reads the script from standard "
                "input, as with python. " + _ERRORS)
_BROKEN_PIPE = 141   # 128 + SIGPIPE: the shell's status for a tool killed by a broken pipe


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``s2sgrad`` command and its ``dump`` and ``view`` subcommands."""
    parser = argparse.ArgumentParser(
        prog="s2sgrad", description="s2sgrad: a source-to-source gradient compiler. "
                                    "Run a subcommand with --help for its options.")
    parser.add_argument("--version", action="version", version=f"s2sgrad {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    dump = commands.add_parser(
        "dump", usage=_DUMP_USAGE, help="run a script and print the code s2sgrad compiled for it", epilog=_DUMP_EPILOG,
        description="Run SCRIPT as __main__ (sys.argv = [SCRIPT, *ARGS]) and print, for every distinct module "
                    "it made s2sgrad compile, a header and the generated source (or the IR). The script's "
                    "own standard output goes to standard error. Exit status: the script's (1 if it raised).")
    dump.add_argument("--ir", action="store_true", help="print the IR of each module's graph slice instead "
                                                        "of the generated source")
    dump.add_argument("--dot", metavar="FILE", help="also write the graph slices as Graphviz DOT to FILE")
    dump.add_argument("--svg", metavar="FILE", help="also write the graph slices drawn by Graphviz to FILE (SVG)")
    dump.add_argument("--html", metavar="FILE", help="also write the page 's2sgrad view' writes to FILE")
    dump.add_argument("-o", "--output", metavar="DIR", help="also write each module to DIR as a standalone "
                                                            ".py file (NumPy only) with its data in a .npz")
    dump.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                      help="colour the headers: auto (default) when standard output is a terminal and "
                           "NO_COLOR is unset")
    dump.add_argument("--backend", choices=tuple(BACKENDS), default=None,
                      help="the array library the script's modules target (sets S2SGRAD_BACKEND for the run; "
                           "default: numpy), see docs/backends.md")
    _script_arguments(dump, "ends the options")
    dump.add_argument("args", metavar="ARGS", nargs=argparse.REMAINDER, help="arguments for the script")
    dump.set_defaults(parser=dump, run=dump_command,
                      outputs=[("dot", "--dot", False), ("svg", "--svg", False), ("html", "--html", False),
                               ("output", "-o", True)])
    view = commands.add_parser(
        "view", usage=_VIEW_USAGE, epilog=_VIEW_EPILOG,
        help="run a script and write a page showing its program beside the IR and the generated code",
        description="Run SCRIPT as 'dump' does and write one self-contained HTML page: the program, the IR and "
                    "the generated module of every module it compiled, side by side and linked line to line "
                    "(click a line), with the graph drawn when Graphviz is installed.")
    view.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE (default: standard output)")
    view.add_argument("--explain", metavar="Y=X,...", action="append", default=[], type=_explain_spec,
                      help="also show why the gradients of tensor Y with respect to the tensors X are None or zero "
                           "(names as in the script's graph: --explain loss=w,b); may be repeated")
    _script_arguments(view, "options may follow")
    view.set_defaults(parser=view, run=view_command, outputs=[("output", "-o", False)], args=[])
    return parser


def _script_arguments(command: argparse.ArgumentParser, after_module: str) -> None:
    """What to run, as ``python`` takes it: SCRIPT, ``-m MODULE`` or ``-``."""
    command.add_argument("-m", dest="module", metavar="MODULE",
                         help=f"run library module MODULE as a script, like python -m ({after_module})")
    command.add_argument("script", metavar="SCRIPT", nargs="?",
                         help="the Python script to run; '-' reads it from standard input")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``s2sgrad`` console script and ``python -m s2sgrad``.

    Usage errors (bad options, unusable paths) exit with status 2 and the subcommand's own
    usage before the script runs; a closed standard output (``s2sgrad dump x.py | head``)
    ends the command quietly with status 141, as a Unix tool killed by SIGPIPE does."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    argv, module_args = _split_module_args(argv)
    script_args = None
    if argv[:1] == ["view"] and "--" in argv:   # view's script arguments follow "--"
        end = argv.index("--")
        argv, script_args = argv[:end], argv[end + 1:]
    ns, extras = parser.parse_known_args(argv)
    if extras:   # the usage of the command the unknown option was given to
        before_command = argv.index(extras[0]) < argv.index(ns.command)
        hint = " (the script's arguments go after '--')" if ns.command == "view" and not before_command else ""
        (parser if before_command else ns.parser).error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    if script_args is not None:
        ns.args = script_args
    if ns.module is not None and ns.command == "dump":
        if module_args is None or ns.script is not None:   # -m given twice, or after SCRIPT
            ns.parser.error("-m MODULE must be the last of dump's options")
        ns.args = module_args
    elif ns.module is not None:
        if ns.script is not None:
            ns.parser.error(f"give SCRIPT or -m MODULE, not both (the script's arguments go after '--': "
                            f"-- {ns.script})")
    elif ns.script is None:
        ns.parser.error("the following arguments are required: SCRIPT (or -m MODULE, or - for standard input)")
    problem = path_problem(ns, ns.outputs)
    if problem:
        ns.parser.error(problem)
    if getattr(ns, "svg", None) is not None and shutil.which("dot") is None:
        ns.parser.error(f"--svg: {GRAPHVIZ_MISSING}")
    status: int = ns.run(ns)
    return status


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
        if arg == "--" or arg == STDIN or not arg.startswith("-"):
            break                   # SCRIPT: the rest is the script's
        takes_value = arg == "-o" or ("=" not in arg and len(arg) > 2
                                      and any(o.startswith(arg) for o in _VALUE_OPTIONS))
        i += 2 if takes_value else 1
    return argv, None


def _run(ns: argparse.Namespace, collector: Collector) -> tuple[int, list[CompiledModule]]:
    """Run the script with ``collector`` hooked in; returns its exit status and the modules it
    compiled (saying on standard error when it failed or compiled nothing)."""
    compiler.compile_hooks.append(collector)
    backend, saved = getattr(ns, "backend", None), os.environ.get(ENV_VARIABLE)
    if backend is not None:
        os.environ[ENV_VARIABLE] = backend
    try:
        status = run_script(ns.script, ns.args, ns.module)
    finally:
        compiler.compile_hooks.remove(collector)
        if backend is not None:
            _restore(ENV_VARIABLE, saved)
    modules = list(collector.modules.values())
    if status != 0:
        print(f"s2sgrad {ns.command}: {_target(ns)} exited with status {status}; showing the {len(modules)} "
              f"module(s) compiled before that", file=sys.stderr)
    elif not modules:
        print(f"s2sgrad {ns.command}: {_target(ns)} made s2sgrad compile nothing", file=sys.stderr)
    return status, modules


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def dump_command(ns: argparse.Namespace) -> int:
    """Run the script, then write and print what it compiled; returns the script's exit status."""
    status, modules = _run(ns, Collector(record=ns.output is not None))
    color = ns.color == "always" or (ns.color == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ)
    paths = _write_modules(modules, ns.output, _target(ns)) if ns.output else {}
    sections = [(f"module {i}: {m.label}", m.exe.ops) for i, m in enumerate(modules, start=1) if m.exe]
    if ns.dot:   # files first: they are written even if standard output is closed early
        _write(ns.dot, to_dot(sections))
    if ns.svg:
        _write(ns.svg, to_svg(to_dot(sections)))
    if ns.html:
        _write(ns.html, _page(modules))

    def printout() -> None:
        for index, m in enumerate(modules, start=1):
            header = m.header(index) + (f" -> {paths[index]}" if index in paths else "")
            print(f"{_HEADER_COLOR}{header}{_RESET}" if color else header)
            print(_ir_text(m) if ns.ir else m.source, end="" if ns.ir else "\n")
    return _to_stdout(printout, status)


def view_command(ns: argparse.Namespace) -> int:
    """Run the script, then write the page of what it compiled; returns the script's exit status."""
    status, modules = _run(ns, Collector(record=False))
    try:
        explanations = [e for ys, xs in ns.explain for e in explain_gradients(*_tensors(modules, ys, xs))]
    except (KeyError, ValueError, TypeError) as e:
        print(f"s2sgrad view: error: --explain: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    text = _page(modules, explanations)
    if ns.output is None:
        return _to_stdout(lambda: _write_chunks(text), status)
    _write(ns.output, text)
    print(f"s2sgrad view: wrote {ns.output} ({len(modules)} module(s))", file=sys.stderr)
    return status


def _page(modules: list[CompiledModule], explanations: Sequence[Explanation] = ()) -> str:
    return page([compiled_of_executable(m.exe, f"module {i}: {m.label}")
                 for i, m in enumerate(modules, start=1) if m.exe], explanations, title="s2sgrad view")


def _explain_spec(text: str) -> tuple[str, list[str]]:
    """``Y=X1,X2`` as (Y, [X1, X2])."""
    y, equals, xs = text.partition("=")
    names = [x.strip() for x in xs.split(",")]
    if not equals or not y.strip() or not all(names):
        raise argparse.ArgumentTypeError(f"expected Y=X[,X...] (tensor names, such as loss=w,b), got {text!r}")
    return y.strip(), names


def _tensors(modules: list[CompiledModule], y: str, xs: list[str]) -> tuple[Tensor, list[Tensor]]:
    """The tensors named ``y`` and ``xs`` (``:0`` when no output is named) in the graph of the
    script's modules that holds ``y``."""
    graphs = list(dict.fromkeys(op.graph for m in modules if m.exe for op in m.exe.ops[:1]))
    for graph in graphs or [get_default_graph()]:
        try:
            target = graph.get_tensor_by_name(_output_name(y))
        except (KeyError, ValueError):
            continue
        return target, [graph.get_tensor_by_name(_output_name(x)) for x in xs]
    raise KeyError(f"no tensor named {y!r} in the graph of any module the script compiled")


def _output_name(name: str) -> str:
    return name if ":" in name else name + ":0"


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _write_chunks(text: str, size: int = 1 << 16) -> None:
    """``text`` to standard output in pieces: one huge write into a pipe closed early can end
    without the BrokenPipeError that ``_to_stdout`` turns into a quiet exit."""
    for start in range(0, len(text), size):
        sys.stdout.write(text[start:start + size])


def _to_stdout(printout: Callable[[], object], status: int) -> int:
    """Run ``printout`` and flush; ``status``, or 141 quietly when the reader went away (``| head``)."""
    try:
        printout()
        sys.stdout.flush()
    except BrokenPipeError:
        # Say nothing, and point stdout at devnull so the interpreter's final flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return _BROKEN_PIPE
    return status


def _target(ns: argparse.Namespace) -> str:
    """What the command ran, for messages: ``train.py``, ``-m pkg.train`` or ``<stdin>``."""
    if ns.module is not None:
        return f"-m {ns.module}"
    return "<stdin>" if ns.script == STDIN else os.path.basename(ns.script)


def _ir_text(m: CompiledModule) -> str:
    if m.exe is None:
        return "# (no graph slice: this module was compiled outside an Executable)\n"
    return format_ops(m.exe.ops) + "\n"


def _write_modules(modules: list[CompiledModule], directory: str, script: str) -> dict[int, str]:
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
