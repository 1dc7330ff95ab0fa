#!/bin/sh
# Make sure a headless Chromium exists for the browser tests.
# Debian's `chromium` via apt-get when running as root and none is found;
# otherwise Playwright's own build (`python -m playwright install chromium`).
set -eu
PYTHON=${PYTHON:-python3}

for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
        echo "chromium: $(command -v "$candidate")"
        exit 0
    fi
done

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium: installing Debian's chromium with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium >/dev/null
    command -v chromium >/dev/null 2>&1 && exit 0
fi

echo "chromium: installing Playwright's Chromium"
"$PYTHON" -m playwright install chromium
