#!/usr/bin/env bash
# Install Debian's Tesseract OCR when it is missing (idempotent). pagelens' vision extra
# (pytesseract) calls the `tesseract` binary for its OCR cross-check of values read off screenshots.
# The vision pages also build their obfuscating font from a free TrueType font (DejaVu, see
# pagelens.bench.vision_font): install fonts-dejavu-core when no DejaVu font is there.
set -euo pipefail
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
install() {
  $SUDO apt-get install -y -qq "$1" >/dev/null 2>&1 || { $SUDO apt-get update -qq; $SUDO apt-get install -y -qq "$1" >/dev/null; }
}
if ! { [ -n "${PAGELENS_TESSERACT:-}" ] && [ -x "${PAGELENS_TESSERACT}" ]; } && ! command -v tesseract >/dev/null 2>&1; then
  echo "tesseract not found: installing Debian's tesseract-ocr package" >&2
  install tesseract-ocr
fi
if ! ls /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf >/dev/null 2>&1; then
  echo "DejaVu fonts not found: installing Debian's fonts-dejavu-core package" >&2
  install fonts-dejavu-core
fi
