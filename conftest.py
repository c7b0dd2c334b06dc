"""Root pytest configuration: what doctest collection must not import."""

collect_ignore = ["src/wkappa/__main__.py", "docs/conf.py"]
# docs/: only the Markdown pages are doctested (--doctest-glob=*.md); the build scripts and
# the built site are not test modules.
collect_ignore_glob = ["docs/scripts/*", "docs/_build/*", "docs/_generated/*"]
