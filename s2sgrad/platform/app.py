"""``tf.app``: ``tf.app.run()`` parses the flags, calls ``main(argv)`` and exits with its result."""
from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ..tf1_api import missing_names as _missing_names
from . import flags

__all__ = ["flags", "run"]

_HELP = ("--help", "-help", "--helpshort", "--helpfull")


def run(main: Callable[[list[str]], Any] | None = None, argv: Sequence[str] | None = None) -> NoReturn:
    """Parse ``argv`` (default ``sys.argv``) into ``tf.flags.FLAGS``, then ``sys.exit(main(rest))``
    where ``rest`` is the program name and the arguments that are not defined flags; ``main``
    defaults to the ``main`` of the ``__main__`` module. ``--help`` prints the flags and exits 1,
    as TF does; a bad flag value raises its ``flags.Error``."""
    if main is None:
        main = getattr(sys.modules["__main__"], "main", None)
        if main is None:
            raise AttributeError("tf.app.run() found no main: define main(argv) in the __main__ module or "
                                 "pass tf.app.run(main=...)")
    args = list(sys.argv if argv is None else argv)
    if any(arg in _HELP for arg in args[1:]):
        sys.stdout.write(flags.FLAGS.usage(args[0] if args else "program"))
        sys.exit(1)
    rest = flags.FLAGS(args, known_only=True)
    sys.exit(main(rest))

__getattr__ = _missing_names("app", __name__)  # TF names s2sgrad lacks say so
