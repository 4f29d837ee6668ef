#!/usr/bin/env bash
# Install Debian's Chromium when no Chromium is found, and Debian's Chromium headless shell beside it
# (idempotent). Playwright cannot download browsers here, so pagelens drives the distribution's
# Chromium through executable_path; headless sessions run the headless shell when it is installed
# (fewer, smaller processes beside the page's renderer), headed ones the full browser.
# PAGELENS_CHROMIUM set to an executable: nothing is installed (that binary is used for everything).
set -euo pipefail
if [ -n "${PAGELENS_CHROMIUM:-}" ] && [ -x "${PAGELENS_CHROMIUM}" ]; then exit 0; fi
have_full=""
for c in /usr/lib/chromium/chromium /usr/lib/chromium-browser/chromium-browser; do
  [ -x "$c" ] && have_full=1
done
command -v chromium >/dev/null 2>&1 && have_full=1
have_shell=""
if [ -x /usr/lib/chromium/chromium-headless-shell ] || command -v chromium-headless-shell >/dev/null 2>&1; then
  have_shell=1
fi
[ -n "$have_full" ] && [ -n "$have_shell" ] && exit 0
command -v apt-get >/dev/null 2>&1 || { [ -n "$have_full" ] && exit 0; echo "no Chromium and no apt-get: install Chromium, or set PAGELENS_CHROMIUM" >&2; exit 1; }
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
if [ -z "$have_full" ]; then
  echo "Chromium not found: installing Debian's chromium and chromium-headless-shell packages" >&2
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium >/dev/null
  have_full=1
else
  # the browser is there: a package index that cannot be refreshed only means no shell (never an error)
  $SUDO apt-get update -qq || echo "apt-get update failed: chromium-headless-shell not installed" >&2
fi
# the shell at the installed chromium's version only (the two share chromium-common): never upgrades
# the browser as a side effect; a shell that cannot be installed is not an error (the full browser runs)
version="$(dpkg-query -W -f='${Version}' chromium 2>/dev/null || true)"
if [ -n "$version" ]; then
  echo "installing Debian's chromium-headless-shell $version (pagelens' headless sessions run it)" >&2
  $SUDO apt-get install -y -qq "chromium-headless-shell=$version" >/dev/null \
    || echo "chromium-headless-shell $version could not be installed: headless sessions run the full chromium" >&2
fi
