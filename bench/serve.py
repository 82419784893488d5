"""One server for the benchmark, run as its own process (so its memory is its own and it
does not share the load generator's GIL). Started by bench.py; never run by hand.

    python bench/serve.py app PARENT_PID DATABASE   # the app, as `scorekeeper serve` runs it
    python bench/serve.py hello PARENT_PID          # a bare Flask hello world

Both on waitress, 127.0.0.1, 8 threads (`scorekeeper serve`'s settings), on a free port
that is printed as the first line of standard output. The process ends when its parent
does (Linux: PR_SET_PDEATHSIG), so a killed benchmark leaves no server behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

THREADS = 8  # as scorekeeper.cli.serve


def die_with_parent(parent: int) -> None:
    # not Linux (OSError, AttributeError): bench.py's own clean-up still applies
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent was gone before prctl took effect
        sys.exit(1)


def hello_app() -> Flask:
    from flask import Flask

    app = Flask(__name__)

    @app.get("/")
    def hello() -> str:
        return "Hello, World!"

    return app


def scorekeeper_app(database: str) -> Flask:
    from scorekeeper import create_app

    return create_app({"DATABASE": database, "SECRET_KEY": "bench"})


def main() -> None:
    kind, parent = sys.argv[1], int(sys.argv[2])
    die_with_parent(parent)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    app = scorekeeper_app(sys.argv[3]) if kind == "app" else hello_app()

    import logging

    from waitress import create_server

    # waitress.serve() is logging.basicConfig() + create_server() + run(); port 0 picks a
    # free port, which is told to bench.py
    logging.basicConfig()
    server = create_server(app, host="127.0.0.1", port=0, threads=THREADS)
    print(server.effective_port, flush=True)
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.close()


if __name__ == "__main__":
    main()
