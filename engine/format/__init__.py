"""Scenario documents on disk and in JSON: checked reading, parsing, migrating, writing,
sidecars."""
