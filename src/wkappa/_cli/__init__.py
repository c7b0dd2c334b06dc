"""The ``wkappa`` command line: argument parsing (main), reading files (io), counting tables
(tables), text/JSON/CSV output (output), thresholds and compare, the HTML report, the demo."""

from __future__ import annotations

from .app import main

__all__ = ["main"]
