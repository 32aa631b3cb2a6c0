"""Reader for the golden perft data files under tests/perft/ (format in standard.perft)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass
class PerftCase:
    """One position of a perft file and its expected counts per depth."""

    file: str
    variant: str
    options: dict[str, Any]
    seed: int
    id: str
    fen: str | None = None
    moves: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)


def read_perft_file(path: Path) -> list[PerftCase]:
    """Parse a .perft file; raises ValueError with the file and line for bad lines."""
    variant, options, seed = "", {}, 0
    cases: list[PerftCase] = []
    current: PerftCase | None = None
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "variant":
            variant = rest.strip()
        elif word == "options":
            options = json.loads(rest)
        elif word == "seed":
            seed = int(rest)
        elif word == "id":
            current = PerftCase(path.name, variant, options, seed, rest.strip())
            cases.append(current)
        elif current is not None and word == "fen":
            current.fen = rest.strip()
        elif current is not None and word == "moves":
            current.moves = rest.split()
        elif current is not None and word == "perft":
            depth, count = rest.split()
            current.counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{path}:{n}: cannot read {line!r}")
    return cases


def all_cases() -> list[PerftCase]:
    """Every case of every file in tests/perft/."""
    return [c for p in sorted(PERFT_DIR.glob("*.perft")) for c in read_perft_file(p)]
