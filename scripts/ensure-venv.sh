#!/usr/bin/env bash
# Debian splits venv out of Python: install python3-venv when `python3 -m venv` is missing.
set -euo pipefail
if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" -ne 0 ]; then
    echo "error: 'python3 -m venv' failed; install the venv module (Debian: apt-get install python3-venv)." >&2
    exit 1
fi
echo "Installing python3-venv with apt-get ..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-venv >/dev/null \
    || { echo "error: apt-get could not install python3-venv." >&2; exit 1; }
