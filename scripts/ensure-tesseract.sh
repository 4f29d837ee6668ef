#!/usr/bin/env bash
# Install Debian's Tesseract OCR when it is missing (idempotent). pagelens' vision extra
# (pytesseract) calls the `tesseract` binary for its OCR cross-check of values read off screenshots.
set -euo pipefail
if [ -n "${PAGELENS_TESSERACT:-}" ] && [ -x "${PAGELENS_TESSERACT}" ]; then exit 0; fi
command -v tesseract >/dev/null 2>&1 && exit 0
echo "tesseract not found: installing Debian's tesseract-ocr package" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -qq tesseract-ocr >/dev/null 2>&1 || { $SUDO apt-get update -qq; $SUDO apt-get install -y -qq tesseract-ocr >/dev/null; }
