#!/usr/bin/env bash
# Install Debian's FreeDict bilingual dictionaries when they are missing (idempotent, quiet). pagelens' focus reads
# them (pagelens.focus.bilingual) for a goal written in another language than its page: its words are looked up and
# their translations count where the page has them. Without apt (or without the packages) the signal is simply off.
# The pairs: English to the page languages of the development sets, and back to English for goals in those languages
# (pagelens.focus.bilingual.PAIRS). PAGELENS_DICTS_WIDE=1 adds the pairs of the wider reading (RulesConfig.bilingual_wide,
# off: BENCHMARKS.md, "Focus, thirty-fifth pass").
set -uo pipefail
DIR="${PAGELENS_DICT_DIR:-/usr/share/dictd}"
PAIRS="eng-deu eng-fra eng-spa eng-ita eng-nld eng-por eng-swe eng-pol eng-ces eng-tur eng-jpn eng-ell eng-ara
deu-eng fra-eng spa-eng ita-eng nld-eng por-eng"
[ "${PAGELENS_DICTS_WIDE:-0}" = "1" ] && PAIRS="$PAIRS eng-fin eng-ind eng-rus eng-dan eng-hun eng-nor eng-rom eng-hin
swe-eng dan-eng fin-eng hun-eng pol-eng ces-eng tur-eng ell-eng ara-eng jpn-eng spa-deu fra-deu ita-deu jpn-deu
deu-fra deu-ita deu-spa"
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
