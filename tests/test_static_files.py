"""Static files (the app's script, style and icons) are closed as soon as they are read.

A phone that hangs up while its icon is on the way (a page left, the Wi-Fi gone) must not
leave the file open on the server: a club night's hundreds of phones would run it out of
open files, and a file left to the garbage collector warns (CI once failed on exactly
that, from werkzeug's server skipping the close when the rest of a reset connection could
not be read).
"""

from __future__ import annotations

import gc
import socket
import struct
import sys
import threading
import time

from tests.browser_support import serve


def _hang_up_mid_request(url: str, path: str) -> None:
    """Ask for ``path`` and reset the connection (SO_LINGER 0: an RST, as a phone that
    drops off the network leaves it) as soon as the answer starts to arrive."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as conn:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        conn.recv(1)


def _get(url: str, path: str) -> int:
    import urllib.request

    with urllib.request.urlopen(url + path) as answer:
        return answer.status


def test_a_phone_hanging_up_leaves_no_static_file_open(tmp_path, monkeypatch):
    left_open: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda seen: left_open.append(repr(seen.object)))
    with serve(tmp_path / "s.sqlite3") as url:
        serving = threading.active_count()
        for _ in range(40):
            _hang_up_mid_request(url, "/static/icons/icon.svg")
            _hang_up_mid_request(url, "/static/app.css")
        # the server still answers
        assert _get(url, "/static/app.css") == 200
        # every request above has been handled (each has a thread of its own)
        for _ in range(500):
            if threading.active_count() <= serving:
                break
            time.sleep(0.01)
    gc.collect()
    assert [seen for seen in left_open if "static" in seen] == []
