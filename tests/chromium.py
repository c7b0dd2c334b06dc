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
