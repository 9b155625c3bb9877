"""docs/debugging.md's sessions are real: each ``text transcript`` block (``$ python ...``, then what
it printed, pdb's commands after their prompts) is run again in a directory holding the page's
``python file=NAME`` blocks and must print the same. A line ``...`` in a transcript stands for any
lines; the line numbers in s2sgrad's own files are not compared. Paths print as ``/home/you`` (the
directory), ``.../s2sgrad`` and ``.../lib/python3.X``. ``S2SGRAD_UPDATE_DOCS=1`` rewrites a
transcript that differs with what was printed."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

from conftest import ROOT, checkout_env
from test_docs import _rewrite as rewrite
from test_docs import blocks

PAGE = os.path.join(ROOT, "docs", "debugging.md")
RECORDED = (3, 11)   # the Python the transcripts come from; others check the generated-code lines only
UPDATE = os.environ.get("S2SGRAD_UPDATE_DOCS") == "1"
PROMPT = "(Pdb) "


def shown(output: str, tmp_path) -> list[str]:
    """``output`` as the page shows it: short paths, no trailing blanks."""
    for path, short in [(str(tmp_path), "/home/you"), (os.path.join(ROOT, "s2sgrad"), ".../s2sgrad"),
                        (os.path.dirname(os.__file__), f".../lib/python{sys.version_info[0]}.{sys.version_info[1]}")]:
        output = output.replace(path, short)
    return [line.rstrip() for line in output.rstrip("\n").split("\n")]


def typed(lines: list[str], commands: list[str]) -> list[str]:
    """Printed lines with each pdb prompt followed by the command typed at it (pdb reading a pipe
    does not echo them)."""
    out, queue = [], list(commands)
    for line in lines:
        if line == PROMPT.rstrip():   # the last prompt, its blank stripped
            line = PROMPT
        while line.startswith(PROMPT) and queue:
            out.append(PROMPT + queue.pop(0))
            line = line[len(PROMPT):]
        if line or not out or not out[-1].startswith(PROMPT):
            out.append(line)
    return out


_INTERNAL_LINE = re.compile(r'(File "\.\.\./s2sgrad/[^"]+", line )\d+')


def matches(expected: list[str], got: list[str]) -> bool:
    """Line by line (``...`` standing for any lines); the line numbers of s2sgrad's own files, which
    change with every edit there, are not compared."""
    expected = [_INTERNAL_LINE.sub(r"\1N", line) for line in expected]
    got = [_INTERNAL_LINE.sub(r"\1N", line) for line in got]
    pattern = "".join(r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line) + r"\n" for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in got)) is not None


def test_the_transcripts_are_what_the_commands_print(tmp_path):
    found = blocks(PAGE)
    for block in found:
        if block.words[:1] == ["python"] and block.words[1:2] and block.words[1].startswith("file="):
            (tmp_path / block.words[1][len("file="):]).write_text(block.text)
    transcripts = [b for b in found if b.words == ["text", "transcript"]]
    assert len(transcripts) == 3
    replacements, problems = [], []
    for block in transcripts:
        command, *expected = block.lines
        assert command.startswith("$ python ")
        commands = [line[len(PROMPT):] for line in expected if line.startswith(PROMPT)]
        result = subprocess.run([sys.executable, *shlex.split(command[2:])[1:]], cwd=tmp_path, timeout=120,
                                input="".join(c + "\n" for c in commands), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, env=checkout_env(PYTHONUNBUFFERED="1"))
        got = typed(shown(result.stdout, tmp_path), commands)
        if sys.version_info[:2] != RECORDED:
            generated = [line for line in expected if "<s2sgrad:run-" in line]
            assert all(line in got for line in generated), (command, got)
            continue
        if not matches(expected, got):
            problems.append(f"{command}\n--- documented\n" + "\n".join(expected) + "\n--- printed\n" + "\n".join(got))
            replacements.append((block.start + 1, block.start + len(block.lines), got))
    if UPDATE and replacements:
        rewrite(PAGE, replacements)
    else:
        assert not problems, "\n\n".join(problems)
