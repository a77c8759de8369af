"""``python -m arena ...``: the ``arena`` command (see ``arena._cli``)."""

from ._cli import main

main()
