"""The variants, registered by name.

The registry is a constant map from name to ``"module:Class"``; a variant's module is imported
only when it is first asked for, so importing :mod:`referee` loads no rules at all. Adding a
variant is its own module(s) plus one line here.

Variants from elsewhere (a test's small variant, an experiment) are named in the environment
variable ``GRAVEKEEPER_VARIANTS`` as ``name=module:Class`` entries separated by commas. It is
read at each lookup, so there is no registry to mutate: a process (and the commands it starts)
sees the variants its environment names.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import import_module
from typing import Any, Final

from referee.rules.errors import UnknownVariantError, VariantNotImplementedError
from referee.rules.variant import Variant

VARIANTS: Final[Mapping[str, str]] = {
    "standard": "referee.rules.variants.standard:Standard",
    "deadmans": "referee.rules.variants.deadmans:DeadMans",
    "ghost": "referee.rules.variants.ghost:Ghost",
    "die": "referee.rules.variants.die:Die",
    "afterlife": "referee.rules.variants.afterlife:Afterlife",
    "zombie": "referee.rules.variants.zombie:Zombie",
    "masquerade": "referee.rules.variants.masquerade:Masquerade",
}


#: The environment variable naming extra variants (``name=module:Class,...``).
EXTRA_VARIANTS_ENV: Final = "GRAVEKEEPER_VARIANTS"


def known_variants() -> Mapping[str, str]:
    """:data:`VARIANTS` and the extra ones named in ``GRAVEKEEPER_VARIANTS``.

    Raises:
        UnknownVariantError: an entry of the variable is not ``name=module:Class``.
    """
    extra = os.environ.get(EXTRA_VARIANTS_ENV, "").strip()
    if not extra:
        return VARIANTS
    out = dict(VARIANTS)
    for entry in extra.split(","):
        name, eq, target = (part.strip() for part in entry.partition("="))
        module, colon, cls = target.partition(":")
        if not (eq and colon and name and module and cls):
            raise UnknownVariantError(
                f"{EXTRA_VARIANTS_ENV}: {entry.strip()!r} is not name=module:Class")
        out[name.lower()] = target
    return out


def variant_class(name: str) -> type[Variant[Any]]:
    """The class of the variant called ``name``.

    Raises:
        UnknownVariantError: no variant has that name.
        VariantNotImplementedError: the variant is known but its rules are not built yet.
    """
    variants = known_variants()
    target = variants.get(name.strip().lower())
    if target is None:
        known = ", ".join(variants)
        raise UnknownVariantError(f"unknown variant {name!r} (known: {known})")
    module_name, _, class_name = target.partition(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as err:
        # the module itself (or its package) is missing, not something it imports
        if err.name is None or not (module_name + ".").startswith(err.name + "."):
            raise
        raise VariantNotImplementedError(
            f"variant {name!r} is not implemented yet in this build ({target})") from None
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Variant)):
        raise VariantNotImplementedError(f"variant {name!r}: {target} is not a Variant class")
    return cls


def make_variant(name: str, options: Mapping[str, Any] | None = None) -> Variant[Any]:
    """A ready variant: ``make_variant("deadmans", {"dmc.pawn_home": "original_file"})``.

    Raises:
        UnknownVariantError, VariantNotImplementedError, OptionError.
    """
    return variant_class(name)(options)
