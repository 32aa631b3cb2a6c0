"""Backend specs: a name (``mock``) or a URL (``ws281x://?brightness=0.2``,
``ssd1306://1/0x3D``, ``capture:///tmp/shots``).

The scheme picks the backend; the host is an I2C bus number, the path an address or directory,
and query options override settings (``?width=20&height=4``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

from hardware.errors import ConfigError


@dataclass(frozen=True)
class Spec:
    """A parsed backend spec: ``scheme``, ``host``, ``path`` and query ``options``."""

    scheme: str
    host: str = ""
    path: str = ""
    options: dict[str, str] = field(default_factory=dict)
    text: str = ""

    def number(self, key: str, default: float) -> float:
        """Option ``key`` as a number (``0x3C`` allowed), or ``default``.

        Raises:
            ConfigError: the option is not a number.
        """
        value = self.options.get(key)
        if value is None:
            return default
        try:
            return float(int(value, 0)) if value.lower().startswith("0x") else float(value)
        except ValueError:
            raise ConfigError(f"{self.text}: option {key}={value!r} is not a number") from None


def parse_spec(text: str) -> Spec:
    """Parse a backend name or URL.

    Raises:
        ConfigError: an empty spec.
    """
    text = text.strip()
    if not text:
        raise ConfigError("empty backend name")
    if "://" not in text and ":" not in text:
        return Spec(text.lower(), text=text)
    parts = urlsplit(text)
    path = parts.path
    if parts.netloc == "" and "://" not in text:
        path = text.partition(":")[2]  # "capture:shots" -> relative directory "shots"
    elif parts.netloc:
        path = path.lstrip("/")
    return Spec(parts.scheme.lower(), parts.netloc, path, dict(parse_qsl(parts.query)), text)


def choose(explicit: str | None, env_var: str, configured: str) -> str:
    """The backend spec to use: ``explicit`` if given, else the environment variable
    ``env_var`` if set (so ``GRAVEKEEPER_LEDS=mock`` overrides a rig), else ``configured``."""
    if explicit:
        return explicit
    return os.environ.get(env_var, "").strip() or configured
