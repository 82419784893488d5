"""A small, bounded HTTP/1.1 load generator for 127.0.0.1 (standard library only).

Each client is a thread with one keep-alive connection (reopened if the server closes
it) sending the same GET again and again until the duration is over or the shared
request cap is reached; a request already sent when time is up is waited for (socket
timeout). Raw sockets with a minimal response reader (Content-Length or chunked) rather
than http.client, so that the generator spends little of its own core per request and
the server, not the client, is what is measured.
"""

from __future__ import annotations

import socket
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

HOST = "127.0.0.1"


class ConnectionClosed(Exception):
    pass


@dataclass
class Response:
    status: int
    headers: dict[str, str]  # lower-case names; repeated headers joined with ", "
    body: bytes


class Connection:
    """One keep-alive connection to 127.0.0.1:``port``."""

    def __init__(self, port: int, timeout: float) -> None:
        self.port, self.timeout = port, timeout
        self.sock: socket.socket | None = None
        self.buffer = b""

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock, self.buffer = None, b""

    def _recv(self) -> bytes:
        assert self.sock is not None
        chunk = self.sock.recv(262144)
        if not chunk:
            raise ConnectionClosed()
        return chunk

    def _read_until(self, marker: bytes) -> bytes:
        while (at := self.buffer.find(marker)) < 0:
            self.buffer += self._recv()
        out, self.buffer = self.buffer[:at], self.buffer[at + len(marker):]
        return out

    def _read_exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self.buffer += self._recv()
        out, self.buffer = self.buffer[:size], self.buffer[size:]
        return out

    def request(self, raw: bytes, keep_body: bool = True) -> Response:
        """Send a complete request (bytes) and read its response; one retry on a fresh
        connection if a kept-alive one turns out closed before any answer."""
        for attempt in (0, 1):
            fresh = self.sock is None
            if self.sock is None:
                self.sock = socket.create_connection((HOST, self.port), timeout=self.timeout)
                self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                self.sock.sendall(raw)
                head = self._read_until(b"\r\n\r\n")
            except (ConnectionClosed, ConnectionResetError, BrokenPipeError):
                self.close()
                if fresh or attempt:
                    raise
                continue
            return self._finish(head, keep_body)
        raise AssertionError("unreachable")

    def _finish(self, head: bytes, keep_body: bool) -> Response:
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        if status == 304 or status == 204 or 100 <= status < 200:
            body = b""
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            parts = []
            while True:
                size = int(self._read_until(b"\r\n").split(b";")[0], 16)
                if size == 0:
                    while self._read_until(b"\r\n"):  # trailers, then the empty line
                        pass
                    break
                parts.append(self._read_exactly(size))
                self._read_exactly(2)
            body = b"".join(parts)
        elif "content-length" in headers:
            body = self._read_exactly(int(headers["content-length"]))
        else:  # until the server closes
            parts = [self.buffer]
            self.buffer = b""
            try:
                while True:
                    parts.append(self._recv())
            except ConnectionClosed:
                pass
            body = b"".join(parts)
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Response(status, headers, body if keep_body else b"")


def build_request(path: str, port: int, headers: dict[str, str] | None = None) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}:{port}", "User-Agent: scorekeeper-bench"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def fetch(port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 60) -> tuple[Response, float]:
    """One request on a new connection: the response and its time in seconds."""
    conn = Connection(port, timeout)
    try:
        start = time.perf_counter()
        response = conn.request(build_request(path, port, headers))
        return response, time.perf_counter() - start
    finally:
        conn.close()


@dataclass
class Result:
    requests: int  # answered (any status)
    seconds: float  # from the first request sent to the last answer received
    clients: int
    latencies: list[float] = field(repr=False)
    statuses: Counter[int | str] = field(default_factory=Counter)

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds > 0 else 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.latencies) * 1000 if self.latencies else float("nan")

    @property
    def p90_ms(self) -> float:
        if len(self.latencies) < 2:
            return self.median_ms
        return statistics.quantiles(self.latencies, n=10)[-1] * 1000


def run(port: int, path: str, *, clients: int, seconds: float, cap: int,
        headers: dict[str, str] | None = None, min_requests: int = 1, timeout: float = 60) -> Result:
    """``clients`` keep-alive clients asking for ``path`` for ``seconds`` (at most ``cap``
    requests in all, at least ``min_requests`` even past the time)."""
    raw = build_request(path, port, headers)
    lock = threading.Lock()
    latencies: list[float] = []
    statuses: Counter[int | str] = Counter()
    issued = 0
    start = time.perf_counter()
    deadline = start + seconds
    last_end = start

    def client() -> None:
        nonlocal issued, last_end
        conn = Connection(port, timeout)
        try:
            while True:
                with lock:
                    if issued >= cap or (time.perf_counter() >= deadline and issued >= min_requests):
                        return
                    issued += 1
                sent = time.perf_counter()
                try:
                    status: int | str = conn.request(raw, keep_body=False).status
                except (OSError, ConnectionClosed, ValueError) as error:
                    status = type(error).__name__
                    conn.close()
                ended = time.perf_counter()
                with lock:
                    statuses[status] += 1
                    if isinstance(status, int):
                        latencies.append(ended - sent)
                    last_end = max(last_end, ended)
        finally:
            conn.close()

    threads = [threading.Thread(target=client, daemon=True, name=f"bench-client-{n}") for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + timeout + 5)
    with lock:
        return Result(requests=len(latencies), seconds=last_end - start, clients=clients,
                      latencies=list(latencies), statuses=Counter(statuses))
