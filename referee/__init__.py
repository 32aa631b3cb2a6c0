"""Gravekeeper's referee: one rules engine for every variant, move inference, game records."""
