"""The package as a user installs it: the sdist and the wheel build, pass ``twine check``, carry
the LICENSE and no build-only script, and the wheel installed into a bare virtual environment
(numpy and numba only, from the package index) computes kappa, tests it, and names the extra
to install when an integration's dependency is missing."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

import wkappa as wk

pytestmark = pytest.mark.integration  # builds, a subprocess and a fresh virtual environment

ROOT = Path(__file__).resolve().parents[1]


def _run(
    *args: str | Path, cwd: Path | None = None, timeout: float = 600, bare: bool = False
) -> str:
    # bare: nothing of this checkout or environment on the path (PYTHONPATH may point to src/).
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    proc = subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        env=env if bare else None,
    )
    assert proc.returncode == 0, f"{args}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("build", reason="needs the build package (the test extra)")
    pytest.importorskip("hatchling", reason="needs hatchling (the test extra)")
    out = tmp_path_factory.mktemp("dist")
    # --no-isolation: hatchling comes from this environment, so the build needs no download.
    _run(sys.executable, "-m", "build", "--sdist", "--wheel", "--no-isolation", "--outdir", out,
         ROOT)  # fmt: skip
    return out


@pytest.mark.slow
def test_sdist_and_wheel_contents_and_metadata(dist: Path) -> None:
    pytest.importorskip("twine", reason="needs twine (the test extra)")
    wheels = list(dist.glob("*.whl"))
    sdists = list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list(dist.iterdir())
    assert wheels[0].name == f"wkappa-{wk.__version__}-py3-none-any.whl"
    _run(sys.executable, "-m", "twine", "check", "--strict", *wheels, *sdists)

    names = zipfile.ZipFile(wheels[0]).namelist()
    info = f"wkappa-{wk.__version__}.dist-info"
    assert f"{info}/licenses/LICENSE" in names, names
    assert "wkappa/data/make_data.py" not in names  # build-only, needs scikit-learn
    assert {"wkappa/data/ms_diagnosis.csv", "wkappa/data/diabetes_oof.csv"} <= set(names)
    assert "wkappa/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "docs/", "benchmarks/"))]
    metadata = zipfile.ZipFile(wheels[0]).read(f"{info}/METADATA").decode()
    assert f"Version: {wk.__version__}" in metadata
    assert "License-Expression: BSD-3-Clause" in metadata
    assert "Classifier: Programming Language :: Python :: 3.13" in metadata
    assert "Classifier: Development Status :: 4 - Beta" in metadata
    assert "Project-URL: Documentation," in metadata
    assert "Requires-Dist: xgboost-cpu" in metadata and "Requires-Dist: xgboost>" not in metadata

    with tarfile.open(sdists[0]) as sdist:
        members = sdist.getnames()
    root = f"wkappa-{wk.__version__}"
    for name in ("LICENSE", "README.md", "CHANGELOG.md", "CITATION.cff", "pyproject.toml",
                 "src/wkappa/data/make_data.py", "docs/conf.py"):  # fmt: skip
        assert f"{root}/{name}" in members, name
    assert not [m for m in members if "/docs/_build/" in m or "/docs/reference/generated/" in m]


SMOKE = textwrap.dedent(
    """
    import sys
    import warnings

    import wkappa as wk

    assert wk.__file__.startswith(sys.prefix), wk.__file__  # the installed wheel
    assert wk.qwk([4, 4, 3, 4, 4, 0, 1, 1, 2, 1], [0, 4, 1, 0, 4, 0, 1, 1, 2, 1]) == 7 / 22
    big = list(range(5)) * 1000  # the numba kernels (2,048 pairs and more)
    assert wk.qwk(big, big) == 1.0
    result = wk.kappa_test_from_table([[0, 4, 1], [0, 8, 0], [0, 1, 5]], weights="unweighted")
    assert round(result.statistic, 4) == 0.4842 and round(result.standard_error, 4) == 0.138
    try:
        import wkappa.torch  # noqa: F401
    except ImportError as exc:
        assert "pip install 'wkappa[torch]'" in str(exc), exc
    else:
        raise AssertionError("wkappa.torch imported without torch")
    try:
        result.plot()
    except ImportError as exc:
        assert "pip install 'wkappa[plot]'" in str(exc), exc
    else:
        raise AssertionError("plot() ran without matplotlib")
    try:
        import wkappa.data.make_data  # noqa: F401
    except ImportError:
        pass
    else:
        raise AssertionError("make_data.py is in the wheel")
    print("smoke ok", wk.__version__)
    """
)


@pytest.mark.slow
@pytest.mark.timeout(1200)  # pip fetches numpy and numba when its cache is cold
def test_wheel_in_a_bare_venv(dist: Path, tmp_path: Path) -> None:
    wheel = next(dist.glob("*.whl"))
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel,
         timeout=900, bare=True)  # fmt: skip
    installed = _run(python, "-m", "pip", "list", "--format=freeze", bare=True)
    names = {line.split("==")[0].lower() for line in installed.split()}
    assert {"wkappa", "numpy", "numba", "llvmlite"} <= names
    assert not names & {"pandas", "polars", "torch", "scikit-learn", "matplotlib", "rich"}
    assert "smoke ok" in _run(python, "-c", SMOKE, cwd=tmp_path, bare=True)
    version = _run(venv / "bin" / "wkappa", "--version", cwd=tmp_path, bare=True)
    assert version.strip() == f"wkappa {wk.__version__}"
