"""``python -m scorekeeper …``: the ``scorekeeper`` command (cli.py), for a venv whose
scripts folder is not on the PATH."""

from scorekeeper.cli import main

main(prog_name="scorekeeper")
