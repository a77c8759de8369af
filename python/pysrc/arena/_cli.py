"""The ``arena`` command of the installed package: the whole ``arena``
command line (``arena check``, ``arena run``, ...) compiled into the
extension module, so a ``pip install`` of the wheel gives it without Rust.

``main`` runs it with this process's arguments and exits with its code.
Before that it points ``ARENA_PYTHON_SITE`` at the folder holding this
package (unless already set), so ``arena check`` and ``arena grade`` give
graded Python submissions this same package; and it restores the default
actions of SIGINT (Ctrl-C stops the command, as it stops the Rust binary)
and SIGXFSZ (Python ignores it; agents would inherit that, and one
writing past its file-size limit would get an error instead of being
ended as under the Rust binary). ``arena slurm`` without ``--arena`` is
given this command's path (the job scripts must not run Python's
interpreter as ``arena``).
"""

import os
import signal
import sys


def main(argv=None):
    """Run ``arena`` with ``argv`` (default: ``sys.argv[1:]``); exit with its code."""
    args = sys.argv[1:] if argv is None else list(argv)
    site = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.environ.setdefault("ARENA_PYTHON_SITE", site)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    script = os.path.join(os.path.dirname(sys.executable), "arena")
    if args[:1] == ["slurm"] and os.path.isfile(script):
        if not any(a == "--arena" or a.startswith("--arena=") for a in args):
            args += ["--arena", script]
    from ._native import cli

    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(cli(["arena"] + args))
