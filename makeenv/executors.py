"""Where independent pieces of work run: here, in forked processes, or as Ray tasks.

An executor maps a picklable function over picklable items and yields the results as they finish
(in any order): ``executor.map_unordered(fn, items)``. The arena plays its blocks of games through
one (``makeenv.arena.tournament``); the same tournament gives the same stored results on any of
them, since every block carries its own seeds.

- ``LocalExecutor(workers)``: in this process (``workers=1``) or in a pool of forked processes.
- ``RayExecutor(address)``: one Ray task per item, on a local Ray started here (``address=None``)
  or on a running cluster (``"auto"``, ``"ray://HOST:10001"``). Needs ``pip install 'makeenv[ray]'``.

Stopping (Ctrl-C, or closing the iterator early) stops the work in flight: the pool is terminated,
Ray tasks are cancelled; results already yielded stay with the caller.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


class Executor(Protocol):
    """Runs ``fn`` on every item, yielding results as they finish, in any order."""

    def map_unordered(self, fn: Callable[[Item], Result], items: Iterable[Item]) -> Iterator[Result]: ...


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool on Ctrl-C


def check_workers(workers: Any) -> int:
    """A positive int of processes, or a ValueError that says what was given."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int (processes to play in), got {workers!r}")
    return workers


class LocalExecutor:
    """Items run in this process (``workers=1``) or in ``workers`` forked processes."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = check_workers(workers)

    def map_unordered(self, fn: Callable[[Item], Result], items: Iterable[Item]) -> Iterator[Result]:
        items = list(items)
        if self.workers == 1 or len(items) < 2:
            for item in items:
                yield fn(item)
            return
        if "fork" not in multiprocessing.get_all_start_methods():
            raise RuntimeError("workers > 1 needs the 'fork' start method (Linux, macOS); use workers=1 here")
        pool = multiprocessing.get_context("fork").Pool(min(self.workers, len(items)), _ignore_interrupts)
        try:
            yield from pool.imap_unordered(fn, items, chunksize=1)
            pool.close()
        finally:
            pool.terminate()  # Ctrl-C or an error: the items in flight are lost, nothing else
            pool.join()

    def __repr__(self) -> str:
        return f"LocalExecutor(workers={self.workers})"


def run_in_folder(fn: Callable[[Item], Result], folder: str, item: Item) -> Result:
    """``fn(item)`` run from ``folder`` when this machine has it (a local Ray's workers start
    elsewhere): relative paths (``agents.py:policy``) and modules beside it resolve as they do for
    the caller. On another machine the folder is not there and the task runs where Ray put it (a
    cluster job's ``--working-dir``)."""
    import os
    import sys

    if os.path.isdir(folder) and os.getcwd() != folder:
        os.chdir(folder)
        if folder not in sys.path:
            sys.path.insert(0, folder)
    return fn(item)


class RayExecutor:
    """One Ray task per item. ``address=None`` starts (or reuses) a Ray in this process; another
    address joins that cluster (``"auto"`` inside ``ray job submit``, ``"ray://HOST:10001"`` from
    outside it). At most ``in_flight`` tasks are queued at once (default: twice the cluster's CPUs),
    so stopping early wastes little. ``init`` goes to ``ray.init`` (e.g. ``num_cpus``, ``runtime_env``)."""

    def __init__(self, address: str | None = None, *, in_flight: int | None = None, **init: Any) -> None:
        if in_flight is not None and (isinstance(in_flight, bool) or not isinstance(in_flight, int) or in_flight < 1):
            raise ValueError(f"in_flight must be a positive int (tasks queued at once), got {in_flight!r}")
        self.address = address
        self.in_flight = in_flight
        self.init = init

    def _ray(self) -> Any:
        try:
            import ray
        except ImportError as error:
            raise ImportError(f"the Ray executor needs Ray: pip install 'makeenv[ray]' ({error})") from error
        if not ray.is_initialized():
            try:
                ray.init(address=self.address, log_to_driver=False, **self.init)
            except ConnectionError as error:
                raise ConnectionError(
                    f"cannot reach a Ray cluster at {self.address!r} ({error}); start one with `ray start --head` "
                    "or give its address (ray://HOST:10001, or auto inside `ray job submit`)"
                ) from None
        return ray

    def map_unordered(self, fn: Callable[[Item], Result], items: Iterable[Item]) -> Iterator[Result]:
        import os

        ray = self._ray()
        task = ray.remote(num_cpus=1, max_retries=0)(run_in_folder)
        shipped, folder = ray.put(fn), os.getcwd()
        waiting = list(items)
        waiting.reverse()  # popped from the end: submitted in the given order
        limit = self.in_flight or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending: list[Any] = []
        try:
            while waiting or pending:
                while waiting and len(pending) < limit:
                    pending.append(task.remote(shipped, folder, waiting.pop()))
                done, pending = ray.wait(pending, num_returns=1)
                try:
                    result = ray.get(done[0])
                except ray.exceptions.RayTaskError as error:  # the task's own exception, as raised
                    raise error.as_instanceof_cause() from None
                yield result
        finally:
            for ref in pending:  # Ctrl-C, an error or an early stop: the rest is not needed
                ray.cancel(ref, force=True)

    def __repr__(self) -> str:
        return f"RayExecutor(address={self.address!r})"
