"""Backend specs: a name (``mock``) or a URL (``ws281x://?brightness=0.2``,
``ssd1306://1/0x3D``, ``capture:///tmp/shots``).

The scheme picks the backend; for an I2C display the target is ``BUS/ADDRESS``, for a capture
the directory, and query options override settings (``?width=20&height=4``).

The grammar and its errors are the one of every device URL, :mod:`firmware_bridge.urls` (the
sensor factory uses it too), so ``?brightness=nan`` or ``?widht=20`` get the same one-line
answer here as ``?baud=nan`` does for a sensor. It is the only module of ``firmware_bridge``
that ``hardware`` imports (docs/architecture.md).
"""

from __future__ import annotations

import os

from firmware_bridge.urls import Url, parse_url
from hardware.errors import ConfigError

#: A parsed backend spec (the shared grammar, raising :class:`ConfigError`).
Spec = Url


def parse_spec(text: str) -> Spec:
    """Parse a backend name or URL.

    Raises:
        ConfigError: an empty spec, a malformed query, an option given twice.
    """
    if not text.strip():
        raise ConfigError("empty backend name")
    return parse_url(text, ConfigError)


def choose(explicit: str | None, env_var: str, configured: str) -> str:
    """The backend spec to use: ``explicit`` if given, else the environment variable
    ``env_var`` if set (so ``GRAVEKEEPER_LEDS=mock`` overrides a rig), else ``configured``."""
    if explicit:
        return explicit
    return os.environ.get(env_var, "").strip() or configured
