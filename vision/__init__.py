"""Gravekeeper vision package."""
