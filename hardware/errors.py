"""Exceptions raised by :mod:`hardware`.

Every error derives from :class:`HardwareError`, and each subclass also inherits the builtin
a caller would naturally catch::

    HardwareError
    ├── ConfigError          (ValueError)          a bad setting (rig table, URL, argument)
    ├── UnknownBackend       (ValueError)          a backend name or URL scheme we do not know
    ├── BackendUnavailable   (ImportError)         the backend's library is not installed here
    ├── DeviceNotFound       (FileNotFoundError)   the bus or device is not there (no /dev/i2c-1)
    └── DeviceClosed         (RuntimeError)        a device was used after ``close()``
"""

from __future__ import annotations


class HardwareError(Exception):
    """Root of every error raised by the LED, display, button and clock code."""


class ConfigError(HardwareError, ValueError):
    """A setting is invalid; the message names the source and the key."""


class UnknownBackend(HardwareError, ValueError):  # noqa: N818 (reads better as a noun)
    """No LED or display backend has this name or URL scheme."""


class BackendUnavailable(HardwareError, ImportError):  # noqa: N818
    """The library a backend needs cannot be imported on this machine."""


class DeviceNotFound(HardwareError, FileNotFoundError):  # noqa: N818
    """The device or bus a backend needs does not exist or cannot be opened."""


class DeviceClosed(HardwareError, RuntimeError):  # noqa: N818
    """A device was used after ``close()``."""
