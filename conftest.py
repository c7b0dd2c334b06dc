"""Root pytest configuration: what doctest collection must not import."""

import os

# wkappa.keras's doctests and the Keras how-to run in this process on the PyTorch backend
# (torch is loaded for the torch tests anyway); tests/test_keras.py runs every backend in
# its own subprocess, since Keras reads KERAS_BACKEND once, when it is first imported.
os.environ.setdefault("KERAS_BACKEND", "torch")

# Each pytest-xdist worker keeps its own numba cache. numba's on-disk cache is not safe for
# processes that compile new overloads of one kernel at the same time: two writers can pair one
# signature's index entry with the other's machine code (numba issue #10128), and the next
# call fails with "can't unbox array from PyObject". Set before anything imports numba; the
# processes a test starts (the CLI, the compile warm-up) inherit it.
if os.environ.get("PYTEST_XDIST_WORKER") and "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(
        os.path.dirname(os.path.abspath(__file__)),
        ".pytest_cache",
        "numba",
        os.environ["PYTEST_XDIST_WORKER"],
    )

collect_ignore = ["src/wkappa/__main__.py", "docs/conf.py"]
# docs/: only the Markdown pages are doctested (--doctest-glob=*.md); the build scripts and
# the built site are not test modules.
collect_ignore_glob = ["docs/scripts/*", "docs/_build/*", "docs/_generated/*"]
