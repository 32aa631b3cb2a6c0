"""The variants are the one source of their squares: the built-in rig files must map exactly the
squares of the variant they are named after (the rigs add only wiring: modules, cell order,
buttons, LEDs), and the picture places every square somewhere distinct."""

from __future__ import annotations

import pytest

from firmware_bridge.rig import BUILTIN_RIGS, builtin_rig
from referee.app.present import picture_spots
from referee.rules.variants import VARIANTS, make_variant


@pytest.mark.parametrize("name", BUILTIN_RIGS)
def test_builtin_rig_maps_exactly_the_variant_squares(name: str) -> None:
    layout = make_variant(name).layout
    assert builtin_rig(name).squares == frozenset(layout.name(sq) for sq in range(layout.size))


@pytest.mark.parametrize("name", BUILTIN_RIGS)
def test_a_rig_drops_only_prefixes_its_variant_does_not_write(name: str) -> None:
    layout = make_variant(name).layout
    implicit = {region.name for region in layout.regions if region.implicit}
    assert set(builtin_rig(name).implicit_regions) <= implicit


def test_one_fallback_among_rigs_with_the_same_modules() -> None:
    by_modules: dict[tuple[str, ...], list[bool]] = {}
    for name in BUILTIN_RIGS:
        rig = builtin_rig(name)
        by_modules.setdefault(tuple(sorted(m.name for m in rig.modules)), []).append(rig.fallback)
    assert all(len(flags) == 1 or flags.count(True) == 1 for flags in by_modules.values())


def test_every_variant_has_a_builtin_rig() -> None:
    assert set(BUILTIN_RIGS) == set(VARIANTS)


@pytest.mark.parametrize("name", VARIANTS)
def test_every_square_has_its_own_place(name: str) -> None:
    spots = picture_spots(make_variant(name).layout)
    assert len({(s.panel, s.x, s.y) for s in spots.values()}) == len(spots)
