"""Exceptions raised by :mod:`firmware_bridge`.

Every error derives from :class:`BridgeError`, and each subclass also inherits the builtin
exception a caller would naturally catch, so both styles work::

    BridgeError
    ├── BoardNotFound       (FileNotFoundError)  the device/URL target does not exist
    ├── BoardDisconnected   (ConnectionError)    the link dropped or the sensor is closed
    ├── SensorTimeout       (TimeoutError)       nothing arrived within the allowed time
    ├── FrameError          (ValueError)         bytes or a message that do not decode
    ├── EventFormatError    (ValueError)         a bad line in an EVENTS.md file
    ├── RigError            (ValueError)         a rig file or rig/board mismatch
    ├── UnknownScheme       (ValueError)         a sensor URL with an unsupported scheme
    ├── BadSensorUrl        (ValueError)         a sensor URL that cannot be understood
    └── LedsNotSupported    (NotImplementedError) the board has no per-square LEDs

Messages always name the URL, file or line they are about, so the ``sense`` command can show
them as one line without a traceback.
"""

from __future__ import annotations


class BridgeError(Exception):
    """Root of every error raised by the sensor bridge."""


class BoardNotFound(BridgeError, FileNotFoundError):  # noqa: N818 (names fixed by the contract)
    """The device named by a URL does not exist or cannot be opened."""


class BoardDisconnected(BridgeError, ConnectionError):  # noqa: N818 (names fixed by the contract)
    """The link to the board dropped, or the sensor was used after ``close()``."""


class SensorTimeout(BridgeError, TimeoutError):  # noqa: N818 (names fixed by the contract)
    """The board (or an event) did not arrive within the allowed time."""


class FrameError(BridgeError, ValueError):
    """A frame or message failed to decode (bad COBS, CRC, length or field)."""


class EventFormatError(BridgeError, ValueError):
    """A line of an EVENTS.md event file is malformed; the message names the line."""


class RigError(BridgeError, ValueError):
    """A rig file is invalid, or the rig does not match the board's modules."""


class BadSensorUrl(BridgeError, ValueError):  # noqa: N818 (names fixed by the contract)
    """A sensor URL is malformed (missing path, bad option value...)."""


class UnknownScheme(BadSensorUrl):
    """A sensor URL uses a scheme this package does not know."""


class LedsNotSupported(BridgeError, NotImplementedError):  # noqa: N818 (names fixed by the contract)
    """``send_leds`` was called on a sensor that has no per-square LEDs."""
