"""Command-line flags for the headless Chromium the browser tests drive (HTML report, docs)."""

# No sandbox, GPU, network services or first-run work: a quiet browser in a container.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def chromium_binary() -> str | None:
    """Debian's ``chromium`` (or ``chromium-browser``), None when not installed."""
    import shutil

    return shutil.which("chromium") or shutil.which("chromium-browser")


def run_chromium(profile_dir: object, *args: str) -> object:
    """Run the headless browser once with its own profile directory; the completed process
    (stdout: what ``--dump-dom`` printed)."""
    import subprocess

    binary = chromium_binary()
    assert binary is not None
    return subprocess.run(
        [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile_dir}", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
