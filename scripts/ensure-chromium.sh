#!/usr/bin/env bash
# Install Debian's Chromium when no Chromium is found (idempotent). Playwright cannot download
# browsers here, so pagelens drives the distribution's Chromium through executable_path.
set -euo pipefail
if [ -n "${PAGELENS_CHROMIUM:-}" ] && [ -x "${PAGELENS_CHROMIUM}" ]; then exit 0; fi
for c in /usr/lib/chromium/chromium /usr/lib/chromium-browser/chromium-browser; do
  [ -x "$c" ] && exit 0
done
command -v chromium >/dev/null 2>&1 && exit 0
echo "Chromium not found: installing Debian's chromium package" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
