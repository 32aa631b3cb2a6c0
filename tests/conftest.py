"""Suite-wide pytest hooks.

Why the order: the suite runs on 4 xdist workers over 2 cores. Its folders differ in what they
spend: ``tests/vision`` is nearly all CPU (trackers over generated photo games), ``serve``,
``hub`` and the live-board tests mostly wait on real processes, real time and a browser. In
folder order the waiting folders ran first with the cores half idle, and the CPU-bound vision
modules last with four workers on two cores. Spreading each folder's modules evenly over the
run mixes the two all the way through; a module's tests stay together (its module-scoped fixtures
are built once per worker, as before).

Why one OpenCV thread in each worker: four workers already keep both cores busy, and OpenCV's
own thread pool in each (two threads here) only added its hand-overs. Measured on two hand-held
video tests run alone: 25.5 CPU-s with the pool, 19.5 with one thread, the wall time the same.
The commands the tests start keep OpenCV's default (they run as users run them).
"""

from __future__ import annotations

from collections import defaultdict

import pytest


def _folder(item: pytest.Item) -> str:
    parts = item.nodeid.split("::")[0].split("/")
    return parts[1] if len(parts) > 2 else ""  # tests/<folder>/test_x.py; "" for tests/test_x.py


def pytest_configure(config: pytest.Config) -> None:
    import cv2

    cv2.setNumThreads(1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    modules: dict[str, list[pytest.Item]] = defaultdict(list)  # in collection order
    for item in items:
        modules[item.nodeid.split("::")[0]].append(item)
    folders: dict[str, list[list[pytest.Item]]] = defaultdict(list)
    for tests in modules.values():
        folders[_folder(tests[0])].append(tests)
    # each folder's modules spread evenly over the run: the k-th of n at (k + 0.5) / n
    spread = sorted(((k + 0.5) / len(mods), name, k) for name, mods in folders.items()
                    for k in range(len(mods)))
    items[:] = [item for _, name, k in spread for item in folders[name][k]]
