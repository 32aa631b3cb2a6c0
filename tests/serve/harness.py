"""Test helpers for ``gravekeeper serve``: the real process on a simulated board, browsers.

The simulated board (``firmware_bridge.sim.SimulatedBoard``) runs in the test process behind a
real pseudo-terminal; ``serve`` runs as a real process and opens it as ``serial://PTY``, exactly
as it opens a board on ``/dev/ttyACM0``. So the board survives a ``kill -9`` of ``serve``.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_bridge.rig import builtin_rig
from firmware_bridge.sim import SimulatedBoard
from referee.live.physical import physical_steps
from referee.rules.game import Game

CHROMIUM = "/usr/bin/chromium"
#: seconds ``serve`` gets to print its page lines, and to end after SIGTERM (it needs about 3)
START_S = 60.0
STOP_S = 15.0
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROLES = ("spectator", "white", "black", "arbiter")
#: pid -> lines ``serve`` wrote on stderr (read by a thread so that the pipe never fills)
STDERR: dict[int, list[str]] = {}
#: pid -> lines ``serve`` wrote on stdout (read by a thread: a hung serve never hangs a test)
STDOUT: dict[int, queue.Queue[str]] = {}


@dataclass
class Served:
    """A running ``serve`` process, its page URLs and the board it referees."""

    proc: subprocess.Popen[str]
    urls: dict[str, str]
    sim: SimulatedBoard
    truth: Game
    args: list[str]
    rng: random.Random = field(default_factory=lambda: random.Random(5))

    @property
    def base(self) -> str:
        return self.urls["spectator"].rstrip("/")

    def token(self, role: str) -> str:
        return self.urls[role].rsplit("/", 1)[1]

    def play(self, text: str) -> None:
        """Make ``text`` (a move) with hands on the simulated board."""
        before = self.truth.state
        action = self.truth.parse(text)
        self.truth.play(action)
        name = self.truth.variant.layout.name
        for step in physical_steps(self.truth.variant, before, [action], self.rng):
            if step.kind == "lift":
                self.sim.lift(name(step.square))
            elif step.kind == "place":
                self.sim.place(name(step.square))
            else:
                raise AssertionError(f"unexpected hand step {step}")
        self.wait_moves()

    def wait_moves(self, timeout: float = 10.0) -> None:
        """Wait until ``serve`` has recognised as many actions as the test made."""
        deadline = time.monotonic() + timeout
        while True:
            with urllib.request.urlopen(self.base + "/api/game", timeout=5) as response:
                moves = json.loads(response.read())["moves"]
            if len(moves) >= len(self.truth.played):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"serve recognised {moves}, the test played "
                                     f"{self.truth.action_texts()}")
            time.sleep(0.05)

    def choose(self, text: str) -> None:
        """Keep the test's copy of the game in step with a choice made on a page."""
        self.truth.play(text)
        self.wait_moves()


def start_serve(sim: SimulatedBoard, variant: str, data: Path, *extra: str) -> tuple[
        subprocess.Popen[str], dict[str, str], list[str]]:
    """Start ``gravekeeper serve`` on ``sim`` and read its four page lines."""
    args = [sys.executable, "-c", "from referee.app.cli import main; raise SystemExit(main())",
            "serve", f"serial://{sim.port_path}", "--variant", variant, "--rig", variant,
            # the built-in rig names WS2812 LEDs and an SSD1306, which this machine lacks:
            # the simulated board's own LEDs and luma's dummy display stand in for them
            "--leds", "board", "--display", "dummy",
            "--data", str(data), "--host", "127.0.0.1", "--port", "0", "--http", *extra]
    return (*launch(args), args)  # type: ignore[return-value]


def launch(args: list[str]) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """Start ``serve`` (``args``) and read its four page lines (at most START_S seconds).

    Python's fault handler is on in the child, so that :func:`stop` can have a hung ``serve``
    print every thread's stack (SIGABRT) before it is killed."""
    env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    urls: dict[str, str] = {}
    assert proc.stdout is not None and proc.stderr is not None
    errors: list[str] = []
    lines: queue.Queue[str] = queue.Queue()
    STDERR[proc.pid] = errors
    STDOUT[proc.pid] = lines
    threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True).start()  # type: ignore[arg-type]

    def read_stdout() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put("")  # the end

    threading.Thread(target=read_stdout, daemon=True).start()
    for role in ROLES:
        line = read_line(proc)
        name, _, url = line.strip().partition(": ")
        assert name == role, line
        urls[role] = url
    return proc, urls


def read_line(proc: subprocess.Popen[str], timeout: float = START_S) -> str:
    """The next line ``serve`` (started by :func:`launch`) printed; fails the test, and stops
    ``serve``, when there is none within ``timeout`` seconds or ``serve`` ended."""
    try:
        line = STDOUT[proc.pid].get(timeout=timeout)
    except queue.Empty:
        _, errors = stop(proc, check=False, timeout=5.0)
        raise AssertionError(f"serve printed no line within {timeout:g} s; stderr: "
                             f"{errors[-3000:]}") from None
    if not line:
        proc.wait(timeout=STOP_S)
        raise AssertionError(f"serve ended: {''.join(STDERR.get(proc.pid, []))}")
    return line


def restart(served: Served, port: int) -> None:
    """Start ``serve`` again with the same arguments on the same port (after a crash)."""
    args = [a if a != "0" else str(port) for a in served.args]
    deadline = time.monotonic() + 5
    while True:
        proc, urls = launch(args)
        if urls == served.urls or time.monotonic() > deadline:
            break
    served.proc, served.urls = proc, urls


@contextmanager
def serving(variant: str, data: Path, *extra: str, options: dict[str, Any] | None = None
            ) -> Iterator[Served]:
    """A simulated board in the start position and ``serve`` refereeing it."""
    truth = Game(variant, options)
    occupied = [truth.variant.layout.name(sq) for sq, p in enumerate(truth.state.board) if p]
    sim = SimulatedBoard(builtin_rig(variant), start=occupied).start()
    proc = None
    try:
        proc, urls, args = start_serve(sim, variant, data, *extra)
        served = Served(proc, urls, sim, truth, args)
        yield served
    finally:
        try:
            if proc is not None:
                stop(served.proc)
        finally:
            sim.stop()


def stop(proc: subprocess.Popen[str], *, check: bool = True,
         timeout: float = STOP_S) -> tuple[int, str]:
    """SIGTERM and wait at most ``timeout`` seconds; returns (exit status, stderr).

    A ``serve`` still running then is made to print every thread's stack (SIGABRT: the fault
    handler :func:`launch` turned on), killed, and (``check``) the test fails with those stacks:
    a hung service is a defect to see, never a test run that waits for ever."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGABRT)  # the fault handler prints the stacks
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
            time.sleep(0.3)  # the stderr reader takes the stacks
            errors = "".join(STDERR.get(proc.pid, []))
            if check:
                raise AssertionError(f"serve (pid {proc.pid}) did not stop within "
                                     f"{timeout:g} s of SIGTERM and was killed; its stderr, "
                                     f"with every thread's stack:\n{errors[-6000:]}") from None
            return proc.returncode, errors
    time.sleep(0.1)
    return proc.returncode, "".join(STDERR.get(proc.pid, []))


@contextmanager
def chromium(extra_args: tuple[str, ...] = ()) -> Iterator[Any]:
    """Headless Debian Chromium through Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM,
                                     args=[*CHROMIUM_ARGS, *extra_args])
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Watched:
    """A page with everything it received: WebSocket frames and HTTP response bodies."""

    page: Any
    frames: list[str] = field(default_factory=list)
    responses: list[Any] = field(default_factory=list)

    def traffic(self) -> str:
        """All received text, DOM included."""
        bodies = []
        for response in self.responses:
            try:
                bodies.append(response.text())
            except Exception:  # noqa: BLE001 - a redirect or aborted load has no body
                continue
        return "\n".join(self.frames + bodies + [self.page.content()])


def open_page(browser: Any, url: str, viewport: tuple[int, int] = (1280, 800)) -> Watched:
    """A new browser context on ``url`` whose network traffic is captured."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    watched = Watched(page)

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: watched.frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    page.on("websocket", on_socket)
    page.on("response", lambda response: watched.responses.append(response))
    page.goto(url)
    page.wait_for_selector("body[data-live='1']")
    return watched


def wait_text(watched: Watched, selector: str, text: str, timeout: float = 10_000) -> None:
    """Wait until the element's text contains ``text``."""
    from playwright.sync_api import expect

    expect(watched.page.locator(selector)).to_contain_text(text, timeout=timeout)


def choose_on_page(watched: Watched, text: str) -> None:
    """Make the choice ``text`` on a player page (a button, or the list when there are many)."""
    page = watched.page
    page.wait_for_selector(f"#choices [data-action='{text}'], #choice-select")
    if page.locator("#choice-select").count():
        page.select_option("#choice-select", text)
        page.click("#choices button")
    else:
        page.click(f"#choices [data-action='{text}']")
