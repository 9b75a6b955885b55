#!/usr/bin/env bash
# Installs SWI-Prolog (Debian package swi-prolog-nox) when `swipl` is missing.
set -euo pipefail
if command -v swipl >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: SWI-Prolog (swipl) is missing and apt-get is not available: install SWI-Prolog >= 9 by hand." >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "error: SWI-Prolog (swipl) is missing and installing it needs root: run 'sudo apt-get install swi-prolog-nox'." >&2
        exit 1
    fi
fi
echo "Installing SWI-Prolog (swi-prolog-nox) with apt-get ..."
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends swi-prolog-nox >/dev/null; }; then
    echo "error: apt-get could not install swi-prolog-nox: install SWI-Prolog >= 9 by hand." >&2
    exit 1
fi
command -v swipl >/dev/null 2>&1 || { echo "error: swi-prolog-nox installed but swipl is not on PATH." >&2; exit 1; }
