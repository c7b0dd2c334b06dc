"""Root pytest configuration: what doctest collection must not import."""

collect_ignore = ["src/wkappa/__main__.py"]
