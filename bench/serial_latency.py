"""Latency of the sensor path: simulator switch change -> typed event on the host.

The simulated board (reference firmware logic, debounce N scans) runs behind a real
pseudo-terminal; the host driver reads it through pyserial. For each of ``--events`` changes
we time from the simulator API call to the moment ``sensor.get()`` returns the event, and
print p50/p90/p99/max. Target on a development machine: p99 <= 5 ms. Figures only, no
assertion (timings depend on the machine's load).

    .venv/bin/python bench/serial_latency.py [--events 5000] [--debounce 2] [--scan-ms 0.5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from firmware_bridge import Lift, Place, open_sensor
from firmware_bridge.sim import SimSensor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--debounce", type=int, default=2, help="firmware debounce scans (N)")
    parser.add_argument("--scan-ms", type=float, default=0.5, help="simulator scan period")
    args = parser.parse_args()
    url = (f"sim://?start=empty&debounce={args.debounce}&scan_ms={args.scan_ms}"
           "&snapshot_ms=0")
    latencies = []
    with open_sensor(url) as sensor:
        assert isinstance(sensor, SimSensor)
        sim = sensor.simulator
        sensor.get(2.0)  # the connect snapshot
        squares = [f"{f}{r}" for f in "abcdefgh" for r in "12345678"]
        for i in range(args.events):
            sq = squares[(i // 2) % 64]
            t0 = time.perf_counter()
            if i % 2 == 0:
                sim.place(sq, wait=False)
            else:
                sim.lift(sq, wait=False)
            ev = sensor.get(2.0)
            latencies.append((time.perf_counter() - t0) * 1000)
            if not isinstance(ev, (Lift, Place)) or ev.square != sq:
                raise SystemExit(f"unexpected event {ev!r} for change {i} on {sq}")
        stats = dict(sensor.stats)
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]

    print(f"{len(latencies)} changes through a pty, debounce {args.debounce} scans of "
          f"{args.scan_ms} ms")
    print(f"latency ms: p50 {pct(50):.2f}  p90 {pct(90):.2f}  p99 {pct(99):.2f}  "
          f"max {latencies[-1]:.2f}  mean {statistics.fmean(latencies):.2f}")
    print(f"p99 target 5 ms: {'met' if pct(99) <= 5.0 else 'NOT met'}; link stats {stats}")


if __name__ == "__main__":
    main()
