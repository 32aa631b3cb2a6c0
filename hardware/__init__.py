"""Gravekeeper hardware package."""
