"""The visual language: one pure function per situation, each returning an :class:`LedScene`.

The *pattern* of a light says what to do, so the language reads without colour; the colour and
brightness add the topic (docs/leds.md has a picture of each situation):

=================  ==================================================================
pattern            meaning
=================  ==================================================================
steady             information: the last move, where a lifted piece may go, markers
slow blink         put a piece here (place); a choice among squares (resurrection)
slow blink, anti   take the piece away from here (lift): blinks while "place" is dark
fast blink         wrong: an illegal move, a failed capture attempt
pulse              attention: a king in check, the lifted piece, the arbiter's pause
=================  ==================================================================

Builders take NOTATION.md squares and never look at game state: the caller (the orchestrator)
decides which situation holds and combines scenes with :func:`~hardware.leds.scene.compose`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from hardware.leds.scene import Colour, LedScene, Light, Pattern, compose

#: Phase of "lift here" lights: half a period behind "place here" lights.
LIFT_PHASE: Final = 0.5

# Brightness levels of the information layers (0..1), so that layers differ in luminance too.
LEVEL_FAINT: Final = 0.25
LEVEL_DIM: Final = 0.45
LEVEL_FULL: Final = 1.0


def info(colour: tuple[int, int, int], reason: str, level: float = LEVEL_FULL) -> Light:
    """A steady light: information."""
    return Light(colour, Pattern.STEADY, level, 0.0, reason)


def place(reason: str, colour: tuple[int, int, int] = Colour.BLUE) -> Light:
    """A slow blink: put a piece here."""
    return Light(colour, Pattern.SLOW_BLINK, LEVEL_FULL, 0.0, reason)


def lift(reason: str, colour: tuple[int, int, int] = Colour.ORANGE) -> Light:
    """A slow blink in antiphase: take the piece away from here."""
    return Light(colour, Pattern.SLOW_BLINK, LEVEL_FULL, LIFT_PHASE, reason)


def wrong(reason: str) -> Light:
    """A fast vermillion blink: something is wrong here."""
    return Light(Colour.VERMILLION, Pattern.FAST_BLINK, LEVEL_FULL, 0.0, reason)


def attention(colour: tuple[int, int, int], reason: str, level: float = LEVEL_FULL) -> Light:
    """A pulse: look here."""
    return Light(colour, Pattern.PULSE, level, 0.0, reason)


def last_move(frm: str, to: str, *extra: tuple[str, str]) -> LedScene:
    """The last move: ``frm`` faint white, ``to`` full white (steady); ``extra`` adds more
    (from, to) pairs of the same move, e.g. the rook of a castling."""
    lights: dict[str, Light] = {}
    for a, _ in ((frm, to), *extra):
        lights[a] = info(Colour.WHITE, "last move: from", LEVEL_FAINT)
    for _, b in ((frm, to), *extra):
        lights[b] = info(Colour.WHITE, "last move: to")
    return LedScene(lights, "last move")


def lifted(origin: str, targets: Iterable[str] = (), captures: Iterable[str] = ()) -> LedScene:
    """A lifted piece: its square pulses sky blue; quiet targets dim sky blue, capture targets
    full orange (both steady)."""
    lights = {sq: info(Colour.SKY, "legal target", LEVEL_DIM) for sq in targets}
    lights.update({sq: info(Colour.ORANGE, "legal capture") for sq in captures})
    lights[origin] = attention(Colour.SKY, "lifted piece")
    return LedScene(lights, "lifted piece")


def check(king: str, checkers: Iterable[str] = ()) -> LedScene:
    """Check: the king's square pulses vermillion, the checking pieces are steady vermillion."""
    lights = {sq: info(Colour.VERMILLION, "gives check", LEVEL_DIM) for sq in checkers}
    lights[king] = attention(Colour.VERMILLION, "king in check")
    return LedScene(lights, "check")


def carry(destinations: Iterable[str], source: str | None = None,
          reason: str = "carry the captured piece") -> LedScene:
    """A piece must be carried: lift it from ``source`` (if it still stands on a sensed square)
    and put it on one of ``destinations`` (squares of another region: a variant's action kind
    says which, and ``reason`` is its legend)."""
    lights = {sq: place(reason) for sq in destinations}
    if source is not None:
        lights[source] = lift(f"{reason}: take it")
    return LedScene(lights, reason)


def resurrection(tombstones: Iterable[str], capturer: str | None = None) -> LedScene:
    """Dead Man's: the tombstones a Hell capturer may rise on blink purple (a choice); the
    capturer's Hell square pulses purple."""
    lights = {sq: place("resurrection square", Colour.PURPLE) for sq in tombstones}
    if capturer is not None:
        lights[capturer] = attention(Colour.PURPLE, "may resurrect")
    return LedScene(lights, "resurrection")


#: The generic ways a marker's squares stay lit under every scene, by name: a faint, dim or
#: full steady light, or a pulse. A caller (a variant's marker kind) picks one and a colour.
MARKER_STYLES: Final = {
    "faint": (Pattern.STEADY, LEVEL_FAINT),
    "dim": (Pattern.STEADY, LEVEL_DIM),
    "steady": (Pattern.STEADY, LEVEL_FULL),
    "pulse": (Pattern.PULSE, LEVEL_FAINT),
}


def marked(squares: Iterable[str], colour: str, style: str, reason: str,
           name: str = "") -> LedScene:
    """Squares carrying a marker (a background layer): ``style`` of :data:`MARKER_STYLES` in
    the palette colour named ``colour`` (``Colour.named``), lit for ``reason``.

    Raises:
        ValueError: an unknown style or colour name.
    """
    if style not in MARKER_STYLES:
        raise ValueError(f"unknown marker style {style!r} (known: {', '.join(MARKER_STYLES)})")
    pattern, level = MARKER_STYLES[style]
    return LedScene.of(squares, Light(Colour.named(colour), pattern, level, 0.0, reason),
                       name or reason)


def arriving(squares: Iterable[str], colour: str, reason: str, name: str = "") -> LedScene:
    """A piece was put down here with its marker: slow blink in the marker's ``colour``."""
    return LedScene.of(squares, place(reason, Colour.named(colour)), name or reason)


def departing(squares: Iterable[str], colour: str, reason: str, name: str = "") -> LedScene:
    """A piece must leave here with its marker: antiphase slow blink in its ``colour``."""
    return LedScene.of(squares, lift(reason, Colour.named(colour)), name or reason)


def die_moves(die: str, targets: Iterable[str] = (), captures: Iterable[str] = ()) -> LedScene:
    """Die Chess: the die's allowed moves for the face showing (steady green; capturing the
    enemy die full orange); the die itself pulses green."""
    lights = {sq: info(Colour.GREEN, "die may move here", LEVEL_DIM) for sq in targets}
    lights.update({sq: info(Colour.ORANGE, "die may capture") for sq in captures})
    lights[die] = attention(Colour.GREEN, "the die")
    return LedScene(lights, "die moves")


def illegal_move(wrong_squares: Iterable[str], back_to: Iterable[str] = ()) -> LedScene:
    """An illegal move: the wrong squares blink fast vermillion; ``back_to`` (where the piece
    belongs) blinks slow blue."""
    lights = {sq: place("put it back") for sq in back_to}
    lights.update({sq: wrong("illegal move") for sq in wrong_squares})
    return LedScene(lights, "illegal move")


def capture_failed(frm: str, to: str) -> LedScene:
    """Masquerade: a capture attempt failed; both squares blink fast (nothing moves)."""
    return LedScene.of((frm, to), wrong("capture failed"), "capture failed")


def correction(empty: Iterable[str] = (), fill: Iterable[str] = (),
               swap: Iterable[tuple[str, str]] = ()) -> LedScene:
    """Guided correction of the board: lift the pieces from ``empty``, put pieces on ``fill``,
    exchange the pieces of each ``swap`` pair (yellow, the two squares alternating)."""
    parts = [LedScene.of(empty, lift("clear this square"), "correction"),
             LedScene.of(fill, place("put a piece here"), "correction")]
    for a, b in swap:
        parts.append(LedScene({a: Light(Colour.YELLOW, Pattern.SLOW_BLINK, 1.0, 0.0, "swap"),
                               b: Light(Colour.YELLOW, Pattern.SLOW_BLINK, 1.0, LIFT_PHASE,
                                        "swap")}))
    return compose(*parts).named("correction")


def promotion(square: str) -> LedScene:
    """A promotion waits for a choice on the display: the square pulses yellow."""
    return LedScene({square: attention(Colour.YELLOW, "promotion")}, "promotion")


def choose(squares: Iterable[str], reason: str = "choose") -> LedScene:
    """A generic choice among squares (a prompt whose options are squares): slow blue blink."""
    return LedScene.of(squares, place(reason), reason)


def arbiter_pause(squares: Iterable[str]) -> LedScene:
    """The arbiter paused the game: every square pulses faint yellow."""
    return LedScene.of(squares, attention(Colour.YELLOW, "paused", LEVEL_DIM), "arbiter pause")
