"""What is slow to make and the same for every test that reads it, made once for the
whole run: by the first xdist worker to ask for it, under a file lock, while the others
wait and then read it (``make test`` runs several workers, and a test may run on any).
"""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def run_folder(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The folder every worker of this run shares (each worker's own temporary folders
    are under it); without xdist (``worker_id`` "master"), this process's own."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if worker_id != "master" else base


def made_once(folder: Path, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``folder/name``, filled by ``make(a new empty folder)`` the first time
    any worker of the run asks for it; later calls, from any worker, return it as made.
    A ``make`` that fails leaves nothing under ``name`` (the next asker tries again)."""
    done = folder / name
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # let go when the file closes
        if not done.exists():
            part = folder / f"{name}.part"
            shutil.rmtree(part, ignore_errors=True)
            part.mkdir()
            make(part)
            part.rename(done)
    return done
