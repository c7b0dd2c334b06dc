"""``wkappa score --report``: one self-contained HTML file, checked as text and in a real
headless Chromium (Debian's ``chromium``; ``make test`` installs it when missing)."""

from __future__ import annotations

import base64
import html
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import wkappa as wk
from chromium import CHROMIUM_FLAGS

pytestmark = pytest.mark.integration  # a real engine, training run or subprocess

DATA = Path(wk.__file__).parent / "data" / "ms_diagnosis.csv"
TRUE, PRED = "new_orleans_neurologist", "winnipeg_neurologist"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    proc = subprocess.run(
        [sys.executable, "-m", "wkappa", "score", DATA, "--true", TRUE, "--pred", PRED,
         "--by", "patients", "--report", path, "--quiet"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return path


@pytest.fixture(scope="module")
def expected():
    import polars as pl

    frame = pl.read_csv(DATA)
    result = wk.kappa_test(frame[TRUE], frame[PRED])
    return result, result.confidence_interval(0.95)


def test_report_is_self_contained(report, expected):
    page = report.read_text()
    result, (low, high) = expected
    # Nothing is fetched: no external URL in src/href, every image an inline PNG.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<link" not in page and "@import" not in page
    images = re.findall(r'<img[^>]*src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 3  # all rows and both samples
    for encoded in images:
        assert base64.b64decode(encoded)[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"{result.statistic:.4f}" in page
    assert f"[{low:.4f}, {high:.4f}]" in page
    assert "New Orleans" in page and "Winnipeg" in page and "<style>" in page


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _browser(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    binary = _chromium()
    assert binary is not None
    profile = tmp_path / "profile"
    return subprocess.run(
        [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_report_renders_in_headless_chromium(report, expected, tmp_path):
    if _chromium() is None:
        pytest.skip(
            "Debian's chromium is not installed and `make chromium` could not install it "
            "(apt-get update && apt-get install -y chromium)"
        )
    url = report.resolve().as_uri()
    shot = tmp_path / "report.png"
    proc = _browser(tmp_path, "--window-size=1200,2000", f"--screenshot={shot}", url)
    assert proc.returncode == 0, proc.stderr[-2000:]
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000

    # The DOM after the load event: the page's script wrote each image's natural width.
    proc = _browser(tmp_path, "--virtual-time-budget=10000", "--dump-dom", url)
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    widths = re.search(r'data-loaded-widths="([^"]*)"', dom)
    assert widths is not None, "the load handler did not run"
    loaded = [int(w) for w in widths.group(1).split(",")]
    assert len(loaded) == 3 and all(w > 0 for w in loaded), loaded

    text = html.unescape(
        re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", dom, flags=re.S)
    )
    text = " ".join(text.split())
    result, (low, high) = expected
    assert f"KAPPA {result.statistic:.4f}" in text.upper()
    assert f"[{low:.4f}, {high:.4f}]" in text
