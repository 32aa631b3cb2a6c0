"""The reference firmware's logic: scan -> debounce -> frames, host commands, LEDs, buttons.

Plain Python that runs unchanged under MicroPython on the Pico (``pico_main``) and under CPython
in tests and the ``sim://`` simulator. Everything that touches hardware is passed in:

- ``scan()`` returns the raw switch states, one list of 0/1 per module, cell order as in HELLO;
- ``write(data)`` sends bytes to the host (USB CDC on the Pico, a pty in the simulator);
- ``clock_ms()`` is the board's millisecond clock;
- ``show_leds(module, colours)`` latches one module's RGB list (WS2812 on the Pico).

Call :meth:`Firmware.poll` once per scan period and :meth:`Firmware.receive` with bytes from
the host; :meth:`Firmware.button` and :meth:`Firmware.die` report the other inputs.
"""

from . import proto
from .framing import FrameDecoder, encode_frame

# MicroPython has no `typing`; mypy treats any `TYPE_CHECKING` name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Scan = Callable[[], list[list[int]]]
    Write = Callable[[bytes], object]
    ClockMs = Callable[[], int]
    ShowLeds = Callable[[int, list[tuple[int, int, int]]], object]
    TicksMs = Callable[[], int]
    TicksDiff = Callable[[int, int], int]

FIRMWARE_VERSION = (1, 0)
#: Debounced changes sent per CHANGES frame at most (keeps frames small).
MAX_CHANGES_PER_FRAME = 32


class MsClock:
    """Milliseconds since the first call, never wrapping: ``clock()`` returns an int.

    MicroPython's ``time.ticks_ms()`` wraps (every 2**30 ms, about 12 days, on the Pico) and
    only ``time.ticks_diff`` may compare two ticks, and only within half that period. The
    firmware's arithmetic (periodic snapshots, button debounce, the u32 board time the host
    sees) needs a plain, growing count: this sums tick differences, which is exact as long as
    it is called more often than every 2**29 ms. MicroPython's ints grow past 2**30 as needed.
    """

    def __init__(self, ticks_ms: "TicksMs", ticks_diff: "TicksDiff") -> None:
        self._ticks_ms = ticks_ms
        self._ticks_diff = ticks_diff
        self._last = ticks_ms()
        self.ms = 0

    def __call__(self) -> int:
        now = self._ticks_ms()
        self.ms += self._ticks_diff(now, self._last)
        self._last = now
        return self.ms


class Debouncer:
    """Per-cell debounce: a cell's reported state flips only after ``scans`` consecutive raw
    scans that all disagree with it (so a bounce shorter than ``scans`` scans never shows).

    ``sizes`` is the number of cells per module; all cells start empty unless ``initial``.
    """

    def __init__(self, sizes: list[int], scans: int = 3,
                 initial: list[list[int]] | None = None) -> None:
        if scans < 1:
            raise ValueError("scans must be >= 1")
        self.scans = scans
        self.stable = [list(cells) for cells in initial] if initial else [[0] * n for n in sizes]
        self._count = [[0] * n for n in sizes]

    def update(self, raw: list[list[int]]) -> list[tuple[int, int, int]]:
        """Feed one scan; return the cells whose debounced state changed: (module, cell, new)."""
        changed = []
        for m, cells in enumerate(raw):
            stable = self.stable[m]
            count = self._count[m]
            for c, value in enumerate(cells):
                if value == stable[c]:
                    count[c] = 0
                    continue
                count[c] += 1
                if count[c] >= self.scans:
                    stable[c] = value
                    count[c] = 0
                    changed.append((m, c, value))
        return changed

    @property
    def settling(self) -> bool:
        """True while some cell has a raw state that has not yet been confirmed or dropped."""
        return any(any(count) for count in self._count)


class Firmware:
    """The board: ``modules`` is a list of (name, kind, width, height) as announced in HELLO.

    ``debounce_scans`` is N (a change counts after N consistent scans); ``snapshot_period_ms``
    is how often an unsolicited snapshot is sent (0 = never). ``leds`` and ``die_reader`` say
    what the HELLO flags announce.
    """

    def __init__(self, modules: list[tuple[str, int, int, int]], scan: "Scan", write: "Write",
                 clock_ms: "ClockMs", show_leds: "ShowLeds | None" = None,
                 buttons: int = 5, debounce_scans: int = 3,
                 snapshot_period_ms: int = 2000, die_reader: bool = True) -> None:
        self.modules = modules
        self._scan = scan
        self._write = write
        self._clock_ms = clock_ms
        self._show_leds = show_leds
        self.buttons = buttons
        self.flags = (proto.FLAG_LEDS if show_leds is not None else 0) | (
            proto.FLAG_DIE if die_reader else 0)
        self.sizes = [w * h for _name, _kind, w, h in modules]
        self.debouncer = Debouncer(self.sizes, debounce_scans, self._first_scan())
        self.snapshot_period_ms = snapshot_period_ms
        self._last_snapshot = clock_ms()
        self._decoder = FrameDecoder()
        self._seq = 0
        self._leds = [[(0, 0, 0)] * n for n in self.sizes]
        #: Host frames skipped because their type is unknown (counter, for tests/diagnostics).
        self.unknown = 0

    def _first_scan(self) -> list[list[int]]:
        # Boot with what is on the board now: nothing is "placed" at power-up, the boot
        # snapshot reports it instead.
        return [list(cells) for cells in self._scan()]

    # -- output -----------------------------------------------------------------------------
    def send(self, msg_type: int, payload: bytes = b"") -> None:
        """Frame and write one message with the next sequence number."""
        self._write(encode_frame(msg_type, self._seq, payload))
        self._seq = (self._seq + 1) & 0xFF

    def hello(self) -> None:
        """Send HELLO (the board's description)."""
        self.send(proto.HELLO, proto.encode_hello(FIRMWARE_VERSION, self.flags, self.buttons,
                                                  self.modules))

    def snapshot(self, reason: int) -> None:
        """Send the debounced state of every cell."""
        self._last_snapshot = self._clock_ms()
        self.send(proto.SNAPSHOT, proto.encode_snapshot(self._last_snapshot, reason,
                                                        self.debouncer.stable))

    def boot(self) -> None:
        """Announce the board after power-up: HELLO then a boot snapshot."""
        self.hello()
        self.snapshot(proto.REASON_BOOT)

    # -- inputs -----------------------------------------------------------------------------
    def poll(self) -> list[tuple[int, int, int]]:
        """Scan once, send debounced changes and any due periodic snapshot; return the changes."""
        changes = self.debouncer.update(self._scan())
        now = self._clock_ms()
        for i in range(0, len(changes), MAX_CHANGES_PER_FRAME):
            self.send(proto.CHANGES,
                      proto.encode_changes(now, changes[i : i + MAX_CHANGES_PER_FRAME]))
        period = self.snapshot_period_ms
        if period and (now - self._last_snapshot) >= period:
            self.snapshot(proto.REASON_PERIODIC)
        return changes

    def button(self, index: int) -> None:
        """Report a press of button ``index`` (already debounced by the caller)."""
        self.send(proto.BUTTON, proto.encode_t_byte(self._clock_ms(), index))

    def die(self, face: int) -> None:
        """Report that the die reader saw ``face`` (1..6)."""
        self.send(proto.DIE, proto.encode_t_byte(self._clock_ms(), face))

    def receive(self, data: bytes) -> None:
        """Handle bytes from the host (any split; garbage and bad frames are dropped)."""
        for frame in self._decoder.feed(data):
            self._handle(frame.type, frame.payload)

    def _handle(self, msg_type: int, payload: bytes) -> None:
        try:
            if msg_type == proto.HELLO_REQUEST:
                self.hello()
            elif msg_type == proto.SNAPSHOT_REQUEST:
                self.snapshot(proto.REASON_REQUESTED)
            elif msg_type == proto.PING:
                self.send(proto.PONG, payload[:4])
            elif msg_type == proto.LEDS:
                self._leds_frame(payload)
            elif msg_type == proto.CONFIG:
                self._configure(payload)
            else:
                self.unknown += 1
        except ValueError:
            self.send(proto.LOG, b"bad payload for type %d" % msg_type)

    def _leds_frame(self, payload: bytes) -> None:
        module, show, first, colours = proto.decode_leds(payload)
        if module >= len(self._leds) or first + len(colours) > self.sizes[module]:
            raise ValueError("LED range")
        self._leds[module][first : first + len(colours)] = colours
        if show and self._show_leds is not None:
            for m, cols in enumerate(self._leds):
                self._show_leds(m, cols)

    def _configure(self, payload: bytes) -> None:
        scans, period = proto.decode_config(payload)
        self.debouncer.scans = scans
        self.snapshot_period_ms = period
