"""A time limit on code a2alint does not own (a plug-in's import, its rules' ``check()``):
code still running when the limit is reached is stopped with :class:`OverTime`.

In the main thread (the command line, a pool worker) the limit is a ``SIGALRM``: it stops
Python code that loops and a ``time.sleep()``. In another thread (the language server
checks documents in threads) a watchdog thread raises :class:`OverTime` in the late
thread, which stops Python code that loops, not a wait inside one call. Neither stops a
long call into native code (a regular expression that backtracks, a C extension) until
it returns. A plug-in that catches ``BaseException`` and goes on is not stopped either:
the limit is raised once.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from typing import Iterator


class OverTime(BaseException):
    """Raised in code that ran past its time limit. Not an ``Exception``: a plug-in's
    ``except Exception`` must not keep it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Stop the code inside with :class:`OverTime` once it has run ``seconds``."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        with _alarm(seconds):
            yield
    else:
        with _watched(seconds):
            yield


class _Armed:
    on = False


def _ring(signum, frame) -> None:
    if _Armed.on:
        _Armed.on = False  # once: an OverTime raised later would land in a2alint's own code
        raise OverTime


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """The limit as a one-shot ``SIGALRM``; an alarm set around it (a test runner's
    timeout, an outer limit) is put back with what was left of it."""
    previous, around = signal.signal(signal.SIGALRM, _ring), _Armed.on
    _Armed.on = True
    started = time.monotonic()
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        _Armed.on = False  # first: an alarm from here on is not for the code inside
        signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 0.001) if outer else 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
        _Armed.on = around


_watch = threading.Condition()
#: Thread id -> the time its limit is reached, for the threads the watchdog watches.
_deadlines: dict[int, float] = {}
_watchdog: list[threading.Thread] = []


@contextmanager
def _watched(seconds: float) -> Iterator[None]:
    """The limit kept by the watchdog thread, which raises :class:`OverTime` in this
    thread when it is reached (and forgets the thread then)."""
    me = threading.get_ident()
    with _watch:
        _deadlines[me] = time.monotonic() + seconds
        if not _watchdog:
            _watchdog.append(threading.Thread(target=_keep_watch, name="a2alint-time-limit", daemon=True))
            _watchdog[0].start()
        _watch.notify()
    try:
        yield
    finally:
        with _watch:
            reached = _deadlines.pop(me, None) is None
            if reached:  # an OverTime not raised yet must not be raised later, in a2alint's code
                _raise_in(me, None)
        if reached:
            raise OverTime


def _keep_watch() -> None:
    with _watch:
        while True:
            now = time.monotonic()
            for thread, deadline in list(_deadlines.items()):
                if deadline <= now:
                    del _deadlines[thread]
                    _raise_in(thread, OverTime)
            _watch.wait(min(_deadlines.values()) - now if _deadlines else None)


def _raise_in(thread: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in ``thread`` when it next runs Python code (None: take back
    one not raised yet)."""
    import ctypes  # only the language server's threads need it

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exception) if exception else None)
