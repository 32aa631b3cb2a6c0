"""Ending a command-line process that a test has read line by line.

Why: ``Popen.communicate()`` reads the pipes' file descriptors and loses what ``readline()``
had already taken into the pipe object's buffer. A test that read ``watch``'s output up to
a line, then sent a signal and called ``communicate()``, lost the lines written together
with that one (under load: ``d7d5`` missing from ``watch camera://``'s action lines while
the record had it)."""

from __future__ import annotations

import subprocess
import threading


def finish(proc: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """The rest of ``proc``'s standard output and error (through the pipe objects, so what
    ``readline()`` buffered comes first), once it has exited within ``timeout`` seconds."""
    found: dict[str, str] = {}

    def drain(name: str, stream: object) -> None:
        read = getattr(stream, "read", None)
        found[name] = read() if read is not None else ""

    readers = [threading.Thread(target=drain, args=(name, stream), daemon=True)
               for name, stream in (("out", proc.stdout), ("err", proc.stderr))]
    for reader in readers:
        reader.start()
    proc.wait(timeout=timeout)
    for reader in readers:
        reader.join(timeout)
    return found.get("out", ""), found.get("err", "")
