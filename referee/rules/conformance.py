"""``gravekeeper check``: run conformance scenarios (../shared/conformance/FORMAT.md).

A scenario plays actions from a variant's start and checks verdicts and state along the way.
Each failing step gives one line ``FILE: step N: expected ..., found ...``; the run ends with
``N passed, M failed``. Exit status: 0 when all passed, 1 when some failed, 2 when a file is not
a valid scenario (its problem is named and it counts as failed).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.rules.actions import Action
from referee.rules.errors import NotationError, OptionError, RefereeError, ScenarioError
from referee.rules.events import CaptureAttempt
from referee.rules.game import Game
from referee.rules.jsontext import loads, read_text
from referee.rules.pieces import COLOUR_BY_NAME
from referee.rules.state import State
from referee.rules.variant import Variant
from referee.rules.variants import known_variants, make_variant

SQUARE_SETS = frozenset({"tombstones", "zombies"})
MULTISETS = frozenset({"graveyard", "removed"})


@dataclass
class ScenarioResult:
    """The outcome of one scenario file: failure lines, and whether the file was invalid."""

    path: Path
    failures: list[str] = field(default_factory=list)
    invalid: bool = False

    @property
    def passed(self) -> bool:
        return not self.failures


def scenario_files(paths: Iterable[str]) -> Iterator[Path]:
    """Every ``*.json`` below the given files and folders, in a stable order.

    Raises:
        ScenarioError: a path does not exist.
    """
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.json") if p.is_file())
        elif path.is_file():
            yield path
        else:
            raise ScenarioError(f"{name}: no such file or folder")


TOP_KEYS = frozenset({"variant", "description", "options", "seed", "steps"})
STEP_FLAGS = frozenset({"illegal", "fails"})
SIDES = frozenset({"white", "black"})
RESULTS = ("*", "1-0", "0-1", "1/2-1/2")


def load_scenario(path: Path) -> dict[str, Any]:
    """The scenario's JSON, checked for the shape FORMAT.md gives (raises ScenarioError)."""
    try:
        data = loads(read_text(path, ScenarioError), ScenarioError)
    except ScenarioError as err:
        raise ScenarioError(f"cannot read JSON: {str(err).removeprefix(f'{path}: ')}") from None
    if not isinstance(data, dict):
        raise ScenarioError("the file must hold a JSON object")
    unknown = set(data) - TOP_KEYS
    if unknown:
        known = ", ".join(sorted(TOP_KEYS))
        raise ScenarioError(f"unknown key {sorted(unknown)[0]!r} (known: {known})")
    if not isinstance(data.get("variant"), str):
        raise ScenarioError("'variant' must be a string")
    variants = known_variants()
    if data["variant"] not in variants:
        raise ScenarioError(f"unknown variant {data['variant']!r} (known: {', '.join(variants)})")
    if not isinstance(data.get("description", ""), str):
        raise ScenarioError("'description' must be a string")
    if not isinstance(data.get("options", {}), dict):
        raise ScenarioError("'options' must be an object")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ScenarioError("'seed' must be an integer")
    steps = data.get("steps")
    if not isinstance(steps, list):
        raise ScenarioError("'steps' must be a list")
    for i, step in enumerate(steps, 1):
        _check_step_shape(i, step)
    return data


def _check_step_shape(i: int, step: Any) -> None:
    if isinstance(step, str):
        return
    if not isinstance(step, dict):
        raise ScenarioError(f"step {i}: must be a string or an object")
    if "expect" in step:
        if set(step) != {"expect"} or not isinstance(step["expect"], dict):
            raise ScenarioError(f"step {i}: an expect step is {{\"expect\": {{...}}}}")
        unknown = set(step["expect"]) - EXPECT_KEYS
        if unknown:
            raise ScenarioError(f"step {i}: unknown expectation {sorted(unknown)[0]!r}")
        for key, value in step["expect"].items():
            holds, shape = EXPECT_SHAPES[key]
            if not holds(value):
                raise ScenarioError(f"step {i}: {key!r} must be {shape}, "
                                    f"not {_show(value)[:40]}")
        return
    if not isinstance(step.get("play"), str):
        raise ScenarioError(f"step {i}: needs 'play' (an action) or 'expect'")
    extra = set(step) - {"play"} - STEP_FLAGS
    if extra:
        raise ScenarioError(f"step {i}: unknown key {sorted(extra)[0]!r}")
    for flag in STEP_FLAGS & set(step):
        if not isinstance(step[flag], bool):
            raise ScenarioError(f"step {i}: {flag!r} must be true or false, "
                                f"not {_show(step[flag])[:40]}")
    outcomes = [flag for flag in sorted(STEP_FLAGS) if step.get(flag) is True]
    if len(outcomes) != 1:  # a plain legal action is written as a string step
        raise ScenarioError(f"step {i}: a 'play' object needs exactly one outcome: "
                            f"\"illegal\": true or \"fails\": true")


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _per_side(holds: Callable[[Any], bool]) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        return (isinstance(value, dict) and set(value) <= SIDES
                and all(holds(v) for v in value.values()))
    return check


def _face(value: Any) -> bool:
    return isinstance(value, str) or _count(value)


#: What each expectation's value must look like (FORMAT.md's table), with its description.
EXPECT_SHAPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "to_act": (lambda v: v in SIDES, '"white" or "black"'),
    "result": (lambda v: v in RESULTS, " or ".join(f'"{r}"' for r in RESULTS)),
    "at": (lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()),
           "an object of square: piece letter"),
    "legal": (_texts, "a list of actions"),
    "legal_includes": (_texts, "a list of actions"),
    "legal_excludes": (_texts, "a list of actions"),
    "legal_count": (_count, "a whole number >= 0"),
    "in_check": (lambda v: isinstance(v, bool), "true or false"),
    "tombstones": (_texts, "a list of squares"),
    "zombies": (_texts, "a list of squares"),
    "graveyard": (_texts, "a list of piece letters"),
    "removed": (_texts, "a list of piece letters"),
    "faces": (_per_side(_face), '{"white": face, "black": face}'),
    "moves_left": (_per_side(_count), '{"white": n, "black": n}'),
}
EXPECT_KEYS = frozenset(EXPECT_SHAPES)


def run_scenario(path: Path) -> ScenarioResult:
    """Run one file; never raises for bad content (it is reported in the result)."""
    result = ScenarioResult(path)
    try:
        data = load_scenario(path)
        variant = make_variant(data["variant"], data.get("options") or {})
        game = Game(variant, seed=data.get("seed", 0))
    except (ScenarioError, OptionError) as err:
        result.failures.append(f"{path}: invalid scenario: {err}")
        result.invalid = True
        return result
    except RefereeError as err:  # a variant we know by name but have not built
        result.failures.append(f"{path}: {err}")
        return result
    for i, step in enumerate(data["steps"], 1):
        try:
            lines, stop = _run_step(game, step)
        except RefereeError as err:  # a problem the checks above did not foresee
            lines, stop = [f"cannot run this step: {err}"], True
        result.failures.extend(f"{path}: step {i}: {line}" for line in lines)
        if stop:
            break
    return result


def _run_step(game: Game, step: str | dict[str, Any]) -> tuple[list[str], bool]:
    """Failure lines of one step, and whether the scenario cannot go on."""
    if isinstance(step, str):
        step = {"play": step}
    if "expect" in step:
        return _expectations(game, step["expect"]), False
    text = step["play"]
    if step.get("illegal"):
        before = game.variant.position_key(game.state)
        action = _parse_or_none(game, text)
        if action is not None and game.variant.is_legal(game.state, action):
            return [f"expected {text!r} to be illegal, but it is legal"], False
        if game.variant.position_key(game.state) != before:
            return ["expected the state to be unchanged after an illegal action"], True
        return [], False
    try:
        played = game.play(text)
    except RefereeError as err:
        return [f"expected {text!r} to be legal, found: {err}"], True
    if step.get("fails"):
        attempts = [e for e in played.events if isinstance(e, CaptureAttempt)]
        if not attempts or attempts[-1].succeeded:
            return [f"expected the attempt {text!r} to fail, found it succeeded"], False
    return [], False


def _parse_or_none(game: Game, text: str) -> Action | None:
    try:
        return game.parse(text)
    except NotationError:
        return None


def _expectations(game: Game, expect: dict[str, Any]) -> list[str]:
    out = []
    for key, want in expect.items():
        try:
            found = EXPECTATIONS.get(key, _variant_key)(game, key, want)
        except NotationError as err:
            out.append(f"{key}: expected {_show(want)}, but {err}")
            continue
        except KeyError:
            out.append(f"{key}: the {game.variant.name} variant has no {key!r}")
            continue
        if found is not None:
            out.append(f"{key}: expected {_show(want)}, found {_show(found)}")
    return out


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# Each checker returns None when the expectation holds, else what was found.
Checker = Callable[[Game, str, Any], Any]


def _to_act(game: Game, key: str, want: Any) -> Any:
    found = "white" if game.state.to_act == COLOUR_BY_NAME["white"] else "black"
    return None if found == want else found


def _result(game: Game, key: str, want: Any) -> Any:
    found = game.outcome.result
    return None if found == want else found


def _at(game: Game, key: str, want: dict[str, str]) -> Any:
    layout, variant, board = game.variant.layout, game.variant, game.state.board
    wrong = {}
    for name, letter in want.items():
        found = variant.piece_letter(board[layout.square(name)])
        if found != letter:
            wrong[name] = found
    return wrong or None


def _parse_all(game: Game, texts: list[str]) -> list[Action | None]:
    return [_parse_or_none(game, t) for t in texts]


def _legal(game: Game, key: str, want: list[str]) -> Any:
    legal = set(game.legal())
    expected = _parse_all(game, want)
    if None in expected or set(a for a in expected if a is not None) != legal:
        return sorted(game.variant.format_action(a) for a in legal)
    return None


def _legal_includes(game: Game, key: str, want: list[str]) -> Any:
    missing = [t for t, a in zip(want, _parse_all(game, want), strict=True)
               if a is None or not _is_legal(game.variant, game.state, a)]
    return {"not legal": missing} if missing else None


def _legal_excludes(game: Game, key: str, want: list[str]) -> Any:
    present = [t for t, a in zip(want, _parse_all(game, want), strict=True)
               if a is not None and _is_legal(game.variant, game.state, a)]
    return {"legal": present} if present else None


def _is_legal(variant: Variant[Any], state: State, action: Action) -> bool:
    # resign/draw are always accepted, but they are not part of the legal set
    return action in variant.legal_actions(state) or (
        action.kind not in ("resign", "draw") and variant.is_legal(state, action))


def _legal_count(game: Game, key: str, want: int) -> Any:
    found = len(set(game.legal()))
    return None if found == want else found


def _in_check(game: Game, key: str, want: bool) -> Any:
    found = game.variant.in_check(game.state)
    return None if found == want else found


def _variant_key(game: Game, key: str, want: Any) -> Any:
    try:
        found = game.variant.expectation(game.state, key)
    except KeyError:
        if key != "removed":
            raise
        found = [game.variant.piece_letter(p) for p in game.state.removed]
    if key in SQUARE_SETS:
        layout = game.variant.layout
        want_set = {layout.name(layout.square(s)) for s in want}
        return None if want_set == set(found) else sorted(found)
    if key in MULTISETS:
        return None if Counter(want) == Counter(found) else sorted(found)
    return None if found == want else found


EXPECTATIONS: dict[str, Checker] = {
    "to_act": _to_act, "result": _result, "at": _at, "legal": _legal,
    "legal_includes": _legal_includes, "legal_excludes": _legal_excludes,
    "legal_count": _legal_count, "in_check": _in_check,
}


def check(paths: Iterable[str]) -> tuple[list[ScenarioResult], int]:
    """Run every scenario under ``paths``: (results, exit status)."""
    results = [run_scenario(p) for p in scenario_files(paths)]
    if any(r.invalid for r in results):
        return results, 2
    return results, 0 if all(r.passed for r in results) else 1
