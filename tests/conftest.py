"""Shared test configuration: makes ``tests/reference.py`` importable as ``reference``."""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
