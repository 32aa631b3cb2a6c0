"""Masquerade Chess hidden information: nothing a player may not know reaches them.

Two kinds of proof, both over long seeded random games:

* **Walk**: after every action, every field of every view (White, Black, spectators), every
  event visible to that audience, the public text of the action and the public position are
  walked structurally (plain data only, no key naming a secret) and searched for the secrets
  of that audience: the σ it did not choose (in every spelling we could write it) and the
  referee's generator state. :func:`check_leaks` is shared with the 1,000-game playouts.
* **Non-interference**: replaying the same actions with a *different* secret σ that gives the
  same attempt results must give that audience exactly the same views, events and texts at
  every step. A view that depended on the secret in any way (not only by spelling it out)
  would differ.
"""

from __future__ import annotations

import functools
import json
import random
import re
from dataclasses import asdict
from typing import Any

import pytest

from referee.rules.events import visible_to
from referee.rules.game import Game
from referee.rules.pieces import BLACK, KNIGHT, QUEEN, WHITE
from referee.rules.variants import make_variant
from referee.rules.variants.masquerade import MasqState, Masquerade
from referee.rules.variants.masquerade_state import Sigma, sigma_text
from tests.playout import random_game

VIEWERS = (WHITE, BLACK, None)
DENY_KEYS = ("sigma", "rng", "random", "seed", "secret", "assignment")


def spellings(sigma: tuple[int, ...]) -> list[str]:
    """Ways a σ could be written: ``KR,QK,RN,BB,NQ``, ``KRQKRNBBNQ``, ``KR QK RN BB NQ``.

    (The bare column word, ``RKNBQ``, is not searched: it occurs in FEN ranks by chance.
    The non-interference test below covers every spelling at once.)
    """
    text = sigma_text(sigma)
    return [text, text.replace(",", ""), text.replace(",", " ")]


def forbidden(state: MasqState, viewer: int | None) -> list[str]:
    """The secrets ``viewer`` must never see: the σ it did not choose, the generator."""
    return _forbidden(state.rng, state.sigma[WHITE], state.sigma[BLACK], viewer)


@functools.lru_cache(maxsize=256)
def _forbidden(rng: int, white: Sigma | None, black: Sigma | None,
               viewer: int | None) -> list[str]:
    out = [f"{rng:016x}", str(rng)]
    sigma = {WHITE: white, BLACK: black}
    known = sigma[3 - viewer] if viewer is not None else None
    for colour in (WHITE, BLACK) if viewer is None else (viewer,):
        secret = sigma[colour]
        if secret is not None and secret != known:  # the same permutation may be both σ
            out += spellings(secret)
    return out


#: A JSON key (a string followed by a colon) that names a secret.
SECRET_KEY = re.compile(r'"[^"]*(?:' + "|".join(DENY_KEYS) + r')[^"]*":', re.IGNORECASE)


def walk(value: Any, secrets: list[str], where: str) -> None:
    """Every field of ``value``: plain data only (JSON refuses anything else), no key naming
    a secret, no secret inside any key, string or number (all searched in the JSON text)."""
    text = json.dumps(value)
    assert not any(s in text for s in secrets), f"{where}: a secret in {text}"
    low = text.lower()
    if any(d in low for d in DENY_KEYS):  # rare: then look for it in a key precisely
        found = SECRET_KEY.search(text)
        assert found is None, f"{where}: key {found.group(0) if found else ''}"


def check_leaks(game: Game) -> None:
    """Walk everything each audience gets in the current state and from the last action."""
    variant, state = game.variant, game.state
    assert isinstance(state, MasqState)
    last = game.played[-1] if game.played else None
    for viewer in VIEWERS:
        view = variant.view(state, viewer)
        if viewer is not None:  # what a player is told about the opponent is the σ it chose
            theirs = state.sigma[3 - viewer]
            assert view["opponent_patterns"] == (sigma_text(theirs) if theirs else None)
        else:
            assert "opponent_patterns" not in view
        told: list[Any] = [view]
        if last is not None:
            told.append([vars(e) for e in last.events if visible_to(e, viewer)])
            told.append(variant.public_action_text(last.action, viewer))
        walk(told, forbidden(state, viewer), f"audience {viewer}")
    walk(variant.position(state, private=False), forbidden(state, None), "public position")


def test_leak_walk_over_long_random_games() -> None:
    for options in ({}, {"masq.assignment": "random"}, {"masq.attempt_filter": "any"},
                    {"masq.promoted_capture": "true_normal",
                     "masq.castle_ignores_attacks": False}):
        variant = make_variant("masquerade", options)
        for seed in range(12):
            random_game(variant, seed, max_plies=300, on_state=check_leaks)


def test_the_walk_would_catch_a_leak() -> None:
    """The checker itself: a view that shows the viewer's own σ is caught."""
    g = random_game("masquerade", 1, max_plies=6)
    state = g.state
    assert isinstance(state, MasqState) and state.sigma[WHITE] is not None
    bad = dict(g.variant.view(state, WHITE))
    bad["hint"] = sigma_text(state.sigma[WHITE])
    try:
        walk(bad, forbidden(state, WHITE), "view")
    except AssertionError:
        return
    assert state.sigma[WHITE] == state.sigma[BLACK]  # only then is it not a secret


# ---------------------------------------------------------------------- non-interference


def audience_record(game_states: list[Any], played: list[Any], variant: Any,
                    viewer: int | None) -> list[Any]:
    """Everything ``viewer`` gets, step by step: views, visible events, action texts."""
    out: list[Any] = []
    for state, step in zip(game_states[1:], played, strict=True):
        out.append((variant.view(state, viewer),
                    [asdict(e) for e in step.events if visible_to(e, viewer)],
                    variant.public_action_text(step.action, viewer)))
    return out


def test_views_do_not_depend_on_secrets_beyond_public_results() -> None:
    variant = make_variant("masquerade")
    compared = 0
    for seed in range(30):
        game = random_game(variant, seed, max_plies=160)
        final = game.state
        assert isinstance(final, MasqState)
        texts = game.action_texts()
        pick = random.Random(seed)
        for viewer in VIEWERS:
            hidden = (WHITE, BLACK) if viewer is None else (viewer,)
            alternative = list(texts)
            changed = False
            for colour in hidden:
                real = final.sigma[colour]
                # Any other σ consistent with every public attempt result of that colour.
                others = [s for s in final.consistent[colour] if s != real]
                if not others:
                    continue
                name = "white" if colour == WHITE else "black"
                index = next(i for i, t in enumerate(texts) if t.startswith(f"assign={name}:"))
                alternative[index] = f"assign={name}:{sigma_text(pick.choice(others))}"
                changed = True
            if not changed:
                continue
            twin = Game(variant, seed=seed)
            for text in alternative:
                twin.play(text)
            assert twin.action_texts() != texts
            assert audience_record(game.state.history(), game.played, variant, viewer) == \
                audience_record(twin.state.history(), twin.played, variant, viewer), (seed, viewer)
            compared += 1
    assert compared > 40


def test_non_interference_would_catch_a_view_that_depends_on_the_secret(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker itself: a view that only hints at the viewer's own σ (never spelling it)
    differs between the twin games, so the comparison fails."""
    variant = make_variant("masquerade")
    honest = Masquerade.view

    def hinting(self: Masquerade, state: Any, viewer: int | None) -> dict[str, Any]:
        out = honest(self, state, viewer)
        own = state.sigma[viewer] if viewer is not None else None
        out["knights"] = "strong" if own is not None and own[KNIGHT] == QUEEN else "weak"
        return out

    monkeypatch.setattr(Masquerade, "view", hinting)
    game = Game(variant, seed=0)
    for text in ("assign=black:KK,QQ,RR,BB,NN", "assign=white:KK,QN,RR,BB,NQ", "b1c3"):
        game.play(text)
    twin = Game(variant, seed=0)
    for text in ("assign=black:KK,QQ,RR,BB,NN", "assign=white:KK,QQ,RR,BB,NN", "b1c3"):
        twin.play(text)
    assert audience_record(game.state.history(), game.played, variant, WHITE) != \
        audience_record(twin.state.history(), twin.played, variant, WHITE)
