"""The one URL grammar of every device spec: sensors (``sim://?seed=3``, ``serial:///dev/X``),
LEDs (``ws281x://?brightness=0.2``), displays (``ssd1306://1/0x3D``, ``capture:shots``).

Grammar::

    spec   = name [ "://" target | ":" target ] [ "?" query ]
    query  = key "=" value *( "&" key "=" value )

``name`` (the scheme) is case-insensitive; ``target`` is everything up to the first ``?``
(a path, ``host:port``, a bus and address); ``query`` holds options, each given at most once.
A bare ``name`` (``mock``) is a spec without target.

Why one module, and why here: the sensor factory and the hardware backends used to parse their
URLs each with their own rules, so the same fault (a number out of range, ``nan``, a typo in an
option's name) got different answers, or none. ``firmware_bridge`` is the lowest layer, where
pyserial-style URLs come from; this module imports nothing of the project, and it is the one
module of ``firmware_bridge`` that ``hardware`` may import (docs/architecture.md,
tests/test_architecture.py).

Every fault raises the caller's error class (``BadSensorUrl``, ``ConfigError``) with one line
that starts with the spec as written and names the option: ``sim://?debounce=0: option
debounce=0 is out of range (1 to 100)``. A password in it (an IP camera's
``camera://rtsp://admin:PASSWORD@host/live``, a hub's ``mqtt://user:PASSWORD@host/club``) is
never repeated: every message shows the spec through :func:`shown`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Final
from urllib.parse import unquote

#: A value longer than this is not a number anyone meant (``seed=999...`` 5000 digits long).
MAX_NUMBER_CHARS: Final = 30
#: How much of a spec an error line repeats.
MAX_SPEC_CHARS: Final = 120
#: ``scheme://user:password@``, at any depth (``camera://rtsp://user:password@host``)
_PASSWORD: Final = re.compile(r"(://[^/?#@:]*):[^/?#@]*@")
_TRUE: Final = ("1", "true", "yes", "on")
_FALSE: Final = ("0", "false", "no", "off")


@dataclass(frozen=True)
class Url:
    """A parsed spec: ``scheme`` (lower case), ``target``, ``options`` (the query), ``text``
    as given, and whether it was written with ``://`` (``slashes``).

    The typed accessors validate one option each and raise ``error`` naming it.
    """

    text: str
    scheme: str
    target: str = ""
    options: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    slashes: bool = False
    error: type[Exception] = field(default=ValueError, compare=False, repr=False)

    def fail(self, message: str) -> Exception:
        """The error to raise for ``message`` about this spec (``text: message``)."""
        return self.error(f"{shown(self.text)}: {message}")

    def check_options(self, known: Iterable[str]) -> None:
        """Refuse any option not in ``known``."""
        allowed = tuple(known)
        for key in self.options:
            if key not in allowed:
                raise self.fail(f"unknown option {key!r} for {self.scheme}:// (known: "
                                f"{', '.join(allowed) or 'none'})")

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        """Option ``key`` as a whole number from ``low`` to ``high`` (``0x3C`` allowed)."""
        value = self.options.get(key)
        if value is None:
            return default
        try:
            number = int(value, 16) if value[:2].lower() == "0x" else int(value)
        except ValueError:
            if len(value) > MAX_NUMBER_CHARS and value.lstrip("-+").isdigit():
                raise self._out_of_range(key, value, low, high) from None
            raise self._not_a_number(key, value, "whole number") from None
        if len(value) > MAX_NUMBER_CHARS or not low <= number <= high:
            raise self._out_of_range(key, value, low, high)
        return number

    def number(self, key: str, default: float, low: float, high: float) -> float:
        """Option ``key`` as a finite number from ``low`` to ``high``."""
        value = self.options.get(key)
        if value is None:
            return default
        try:
            number = float(value)
        except ValueError:
            raise self._not_a_number(key, value, "number") from None
        if len(value) > MAX_NUMBER_CHARS or not math.isfinite(number) \
                or not low <= number <= high:
            raise self._out_of_range(key, value, low, high)
        return number

    def flag(self, key: str, default: bool) -> bool:
        """Option ``key`` as 1/0, true/false, yes/no or on/off."""
        value = self.options.get(key)
        if value is None:
            return default
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise self.fail(f"option {key}={_short(value)} is not 1/0, true/false or yes/no")

    def choice(self, key: str, default: str, choices: Iterable[str]) -> str:
        """Option ``key``, one of ``choices``."""
        allowed = tuple(choices)
        value = self.options.get(key, default)
        if value not in allowed:
            raise self.fail(f"option {key}={_short(value)} is not one of {', '.join(allowed)}")
        return value

    def _not_a_number(self, key: str, value: str, what: str) -> Exception:
        return self.fail(f"option {key}={_short(value)} is not a {what}")

    def _out_of_range(self, key: str, value: str, low: float, high: float) -> Exception:
        return self.fail(f"option {key}={_short(value)} is out of range ({_number(low)} to "
                         f"{_number(high)})")


def shown(text: str, limit: int | None = MAX_SPEC_CHARS) -> str:
    """``text`` (a spec or URL, or a message that may quote one) as a message, a log line or
    a recording may show it: any password in it replaced by ``***``, and at most ``limit``
    characters of it.

    Why: the operator types a camera's or a broker's password into the URL; the error lines
    that repeat the URL end up in terminals on a club's big screen, in service logs and in
    recorded event files that are shared."""
    text = _PASSWORD.sub(r"\1:***@", text)
    return text if limit is None or len(text) <= limit else text[:limit] + "..."


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _short(value: str) -> str:
    return repr(value if len(value) <= MAX_NUMBER_CHARS else value[:MAX_NUMBER_CHARS] + "...")


def parse_url(text: str, error: type[Exception] = ValueError) -> Url:
    """Parse a spec written in the grammar above; faults raise ``error``.

    Raises:
        error: an empty spec or scheme, a malformed query, an option given twice.
    """
    text = text.strip()
    head, _, query = text.partition("?")
    if "://" in head:
        scheme, _, target = head.partition("://")
        slashes = True
    else:
        scheme, _, target = head.partition(":")
        slashes = False
    if not scheme:
        raise error(f"{shown(text)!r}: no scheme (expected name://..., e.g. sim:// or mock)")
    if not all(c.isalnum() or c in "+-._" for c in scheme):
        raise error(f"{shown(text)!r}: {scheme[:MAX_NUMBER_CHARS]!r} is not a scheme name")
    url = Url(text, scheme.lower(), target, slashes=slashes, error=error)
    return replace(url, options=MappingProxyType(_options(url, query)))


def _options(url: Url, query: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in query.split("&") if query else ():
        key, eq, value = (unquote(part) for part in pair.partition("="))
        if not key or not eq:
            raise url.fail(f"malformed option {_short(pair)} (expected key=value)")
        if key in options:
            raise url.fail(f"option {key!r} given twice")
        options[key] = value
    return options
