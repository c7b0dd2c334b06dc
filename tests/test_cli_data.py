"""The bundled demo data: reproducible from its documented source, scored as published, and
the demo runs with no network at all."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import wkappa as wk
from wkappa.data import make_data

pytestmark = pytest.mark.integration  # a real engine, training run or subprocess

DATA = Path(wk.__file__).parent / "data"


def test_make_data_reproduces_the_shipped_files(tmp_path):
    pytest.importorskip("sklearn")
    make_data.main([str(tmp_path)])
    for name in ("ms_diagnosis.csv", "diabetes_oof.csv"):
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name


def test_ms_diagnosis_is_the_published_table():
    frame = pl.read_csv(DATA / "ms_diagnosis.csv")
    assert frame.height == 218 and frame["patient"].n_unique() == 218
    for sample, published in make_data.MS_TABLES.items():
        part = frame.filter(pl.col("patients") == sample)
        table = wk.confusion_table(
            part["new_orleans_neurologist"], part["winnipeg_neurologist"], labels=[1, 2, 3, 4]
        )
        assert table.tolist() == [list(row) for row in published]


def test_cli_matches_statsmodels_on_the_published_tables():
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    proc = subprocess.run(
        [sys.executable, "-m", "wkappa", "score", DATA / "ms_diagnosis.csv",
         "--true", "new_orleans_neurologist", "--pred", "winnipeg_neurologist",
         "--by", "patients", "--weights", "unweighted", "--format", "json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    groups = {g["group"]: g for g in json.loads(proc.stdout)["groups"]}
    for sample, published in make_data.MS_TABLES.items():
        peer = inter_rater.cohens_kappa(np.array(published))
        assert groups[sample]["statistic"] == pytest.approx(peer.kappa, rel=1e-12)
        assert groups[sample]["standard_error"] == pytest.approx(peer.std_kappa, rel=1e-9)
    # Landis & Koch (1977) report an unweighted kappa of 0.208 for the Winnipeg patients.
    assert round(groups["Winnipeg"]["statistic"], 3) == 0.208


def test_diabetes_oof_grades_and_scores():
    frame = pl.read_csv(DATA / "diabetes_oof.csv")
    assert frame.height == 442
    assert sorted(frame["grade"].unique().to_list()) == [0, 1, 2, 3, 4]
    fit = wk.optimize_thresholds(frame["grade"], frame["oof_score"])
    rounded = np.clip(np.rint(frame["oof_score"].to_numpy()), 0, 4)
    assert fit.statistic > wk.qwk(frame["grade"], rounded)


@pytest.mark.slow
def test_demo_runs_without_network():
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "-rn", "true"], capture_output=True)
    if unshare is None or probe.returncode != 0:
        pytest.skip("cannot make a network namespace here (unshare -rn)")
    proc = subprocess.run(
        [unshare, "-rn", sys.executable, "-m", "wkappa", "demo"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "0.3181818181818182" in proc.stdout and "By patients:" in proc.stdout
    assert "proven optimal" in proc.stdout


@pytest.mark.slow
def test_the_wheel_ships_the_data(tmp_path):
    pytest.importorskip("hatchling")
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(root), "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    import zipfile

    (wheel,) = tmp_path.glob("wkappa-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("ms_diagnosis.csv", "diabetes_oof.csv", "README.md"):
        assert f"wkappa/data/{name}" in names
    assert "wkappa/data/make_data.py" not in names  # build-only: needs scikit-learn
    assert "wkappa/__main__.py" in names and "wkappa/_cli/app.py" in names
