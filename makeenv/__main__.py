"""``python -m makeenv ...``: the same as the ``makeenv`` command."""

from makeenv.cli import main

main()
