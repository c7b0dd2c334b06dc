"""The ``wkappa`` command line: the root parser and error handling (app), one module per
command (score, agree, judge, plan, icc, thresholds, compare, demo), the options they share
(options), reading files (io, sniff, progress, labels, ids), writing ``--out`` (written),
counting tables (tables, clusters), text/JSON/CSV output (output, json_text) and the HTML
reports (report, icc_report, methods, provenance)."""

from __future__ import annotations

from .app import main

__all__ = ["main"]
