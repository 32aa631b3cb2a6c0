"""The rules: one engine for every variant, notation, records, PGN, perft, conformance.

This layer imports nothing outside ``referee.rules`` (no sensors, hardware or camera): the rules
of a game are the same whatever sees or shows it.
"""
