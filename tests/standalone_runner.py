"""Run exported modules in a Python where s2sgrad cannot be imported (as a user without it would)."""
import os
import subprocess
import sys

# Installed first in the child: any import of s2sgrad fails, whatever is on sys.path or site-packages.
_RUNNER = '''
import runpy, sys
class _NoS2sgrad:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "s2sgrad":
            raise ModuleNotFoundError(f"No module named {name!r} (s2sgrad is blocked in this test)")
sys.meta_path.insert(0, _NoS2sgrad())
directory, main, code = sys.argv[1:4]
sys.path.insert(0, directory)
if main:
    sys.argv = [main]
    runpy.run_path(main, run_name="__main__")
else:
    exec(compile(code, "<test>", "exec"), {"__name__": "__main__"})
assert not any(m.split(".")[0] == "s2sgrad" for m in sys.modules)
'''


def run_without_s2sgrad(directory, main=None, code=""):
    """stdout of running ``main`` (a file in ``directory``) or ``code``; fails on a non-zero exit."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-I", "-c", _RUNNER, str(directory), main or "", code],
                            cwd=directory, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout
