#!/usr/bin/env bash
# Install Debian's FreeDict bilingual dictionaries when they are missing (idempotent, quiet). pagelens' focus reads
# them (pagelens.focus.bilingual) for a goal written in another language than its page: its words are looked up and
# their translations count where the page has them. Without apt (or without the packages) the signal is simply off.
# The pairs: English to the page languages pagelens.focus.crossing can name, back to English for goals in those
# languages (a Japanese goal is cut into jpn-eng's headwords), and between the most common non-English page languages.
set -uo pipefail
DIR="${PAGELENS_DICT_DIR:-/usr/share/dictd}"
PAIRS="eng-deu eng-fra eng-spa eng-ita eng-nld eng-por eng-swe eng-pol eng-ces eng-tur eng-jpn eng-ell eng-ara
eng-fin eng-ind eng-rus eng-dan eng-hun eng-nor eng-rom eng-hin
deu-eng fra-eng spa-eng ita-eng nld-eng por-eng swe-eng dan-eng fin-eng hun-eng pol-eng ces-eng tur-eng ell-eng
ara-eng jpn-eng spa-deu fra-deu ita-deu jpn-deu deu-fra deu-ita deu-spa"
missing=""
for p in $PAIRS; do
  [ -s "$DIR/freedict-$p.index" ] || missing="$missing dict-freedict-$p"
done
[ -z "$missing" ] && exit 0
command -v apt-get >/dev/null 2>&1 || { echo "apt-get not found: the bilingual dictionaries stay off" >&2; exit 0; }
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "installing Debian's FreeDict dictionaries:$missing" >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $missing >/dev/null 2>&1 || { $SUDO apt-get update -qq >/dev/null 2>&1;
  $SUDO apt-get install -y -qq $missing >/dev/null 2>&1 || echo "could not install$missing: those pairs stay off" >&2; }
exit 0
