"""Small data sets shipped with wkappa for the ``wkappa demo`` command (see ``README.md`` here)."""
