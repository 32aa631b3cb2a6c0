"""A pseudo-terminal behind a path that stays the same across unplug and replug.

The simulated boards (our board and the DGT emulator) sit on the master side; the host opens
:attr:`VirtualPort.path`, a symlink to the current slave, exactly as it would open
``/dev/ttyACM0``. Unplugging closes both ends (the host sees the cable go); plugging again makes
a new pty behind the same path.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import tty


class VirtualPort:
    """Owns a temporary folder with the ``tty`` symlink and the current pty pair.

    Nothing is created until :meth:`create`; :meth:`remove` undoes everything (idempotent).
    """

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix
        self._dir = ""
        self.master = self.slave = -1

    @property
    def path(self) -> str:
        """The path the host opens (a symlink to the current slave end)."""
        return os.path.join(self._dir, "tty")

    def create(self) -> None:
        """Make the folder that holds the symlink."""
        self._dir = tempfile.mkdtemp(prefix=self._prefix)

    def plug(self) -> int:
        """A new pty behind :attr:`path`; returns the (non-blocking) master descriptor."""
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo or line editing before the host configures the port
        os.set_blocking(master, False)
        tmp = self.path + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)  # atomically: the host never sees a missing port
        self.master, self.slave = master, slave
        return master

    def unplug(self) -> None:
        """Close both ends and remove the symlink (the host sees the cable pulled)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1

    def remove(self) -> None:
        """Unplug and delete the folder."""
        self.unplug()
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = ""
