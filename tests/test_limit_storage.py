"""The write and import limits' counts in a SQLite file (scorekeeper/limit_storage.py),
which every worker process of ``scorekeeper serve --workers N`` shares; the burst across
real workers is in tests/test_workers.py. Time is the storage's clock, moved by hand."""

from __future__ import annotations

import multiprocessing
import threading
import time

import pytest
from limits import parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from scorekeeper import limit_storage
from scorekeeper.limits import shared_storage


@pytest.fixture
def clock(monkeypatch):
    now = [1_800_000_000.0]
    monkeypatch.setattr(limit_storage.time, "time", lambda: now[0])
    return now


def test_a_moving_window_lets_in_the_limit_then_frees_places_as_they_age(tmp_path, clock):
    storage = storage_from_string(f"sqlite://{tmp_path}/db.sqlite3-limits")
    limiter = MovingWindowRateLimiter(storage)
    five = parse("5 per minute")
    assert [limiter.hit(five, "127.0.0.1") for _ in range(7)] == [True] * 5 + [False] * 2
    clock[0] += 30
    assert not limiter.hit(five, "127.0.0.1")  # all five still within the last minute
    assert limiter.hit(five, "127.0.0.2")  # another client counts apart
    clock[0] += 31  # the first five are over a minute old
    assert [limiter.hit(five, "127.0.0.1") for _ in range(6)] == [True] * 5 + [False]
    assert limiter.get_window_stats(five, "127.0.0.1").remaining == 0
    storage.reset()
    assert limiter.hit(five, "127.0.0.1")


def _hit_all(path: str, barrier, tries: int, out) -> None:
    storage = storage_from_string(f"sqlite://{path}")
    limiter = MovingWindowRateLimiter(storage)
    barrier.wait()
    out.put(sum(limiter.hit(parse("10 per minute"), "one client") for _ in range(tries)))


def test_processes_hitting_at_once_share_one_count(tmp_path):
    """Four processes, 6 hits each at the same instant, a limit of 10: 10 let in in all."""
    path = str(tmp_path / "db.sqlite3-limits")
    context = multiprocessing.get_context("spawn")
    barrier, out = context.Barrier(4), context.Queue()
    processes = [context.Process(target=_hit_all, args=(path, barrier, 6, out)) for _ in range(4)]
    for process in processes:
        process.start()
    let_in = sum(out.get(timeout=60) for _ in processes)
    for process in processes:
        process.join(60)
    assert let_in == 10


def test_the_shared_file_sits_beside_the_database(tmp_path):
    assert shared_storage(str(tmp_path / "club.sqlite3")) == f"sqlite://{tmp_path}/club.sqlite3-limits"
    assert shared_storage(":memory:") == "memory://"


def test_requests_at_the_same_instant_in_one_process_are_each_counted_once():
    """``memory://`` (one process, the default): four phones' writes at the same instant are
    each let in and counted, none answered 500. limits 5.8's memory storage could start its
    expiry timer twice when two counts came at once ("threads can only be started once",
    seen in CI); here the moment between a new timer being kept and started is widened,
    so that without the storage's lock every run would hit it."""
    storage_class = type(storage_from_string("memory://"))
    assert storage_class is limit_storage.LockedMemoryStorage

    class Widened(storage_class):
        @property
        def timer(self):
            return self.__dict__["timer"]

        @timer.setter
        def timer(self, value):
            self.__dict__["timer"] = value
            time.sleep(0.02)  # another thread finds this timer not started yet

    storage = Widened("memory://")
    storage.timer.join()  # the first timer has run: the next count makes a new one
    barrier, errors = threading.Barrier(4), []

    def write():
        barrier.wait()
        try:
            storage.acquire_entry("one client", 10, 60)
        except RuntimeError as error:
            errors.append(error)

    phones = [threading.Thread(target=write) for _ in range(4)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join(10)
    assert errors == []
    assert storage.get_moving_window("one client", 10, 60)[1] == 4
