"""Root pytest configuration: what doctest collection must not import."""

import os

# wkappa.keras's doctests and the Keras how-to run in this process on the PyTorch backend
# (torch is loaded for the torch tests anyway); tests/test_keras.py runs every backend in
# its own subprocess, since Keras reads KERAS_BACKEND once, when it is first imported.
os.environ.setdefault("KERAS_BACKEND", "torch")

collect_ignore = ["src/wkappa/__main__.py", "docs/conf.py"]
# docs/: only the Markdown pages are doctested (--doctest-glob=*.md); the build scripts and
# the built site are not test modules.
collect_ignore_glob = ["docs/scripts/*", "docs/_build/*", "docs/_generated/*"]
