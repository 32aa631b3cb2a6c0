"""Gravekeeper firmware_bridge package."""
