#!/usr/bin/env bash
# Fetches the keyword leg's cross-language lexicon: FreeDict's bilingual dictionaries as
# Debian packages them (dict-freedict-*, GPL-2+), and Mueller's English-Russian dictionary
# (mueller7-dict, GPL-2+; FreeDict's eng-rus has 1,700 words, Mueller's 42,000), versions and
# SHA-256 pinned, from the Debian archive's pool; builds one `from-to.tsv` per direction
# between English and Italian, German, French, Spanish, Portuguese, Dutch and Russian
# (src/rag/lexicon/build.ts; Russian has English-Russian dictionaries only, read backwards
# for ru→en). ~43 MB of packages (German's two are 38), ~25 MB of lexicon files; the build
# takes ~35 s. retrieve and ask read it from the model cache's `lexicon` folder (docs/rag.md).
# Idempotent: a lexicon folder written by this version of the script is left as it is.
# Usage: scripts/fetch-lexicon.sh [lexicon-dir]   (needs curl, and dpkg-deb or ar + tar)
set -euo pipefail

POOL=https://deb.debian.org/debian/pool/main
VERSION=2022.04.21-1
MUELLER_DEB=mueller7-dict_2002.02.27-13_all.deb
MUELLER_SHA256=0f7f184219bc99f680ee41149fcb132e0a659897a6fea9279a18399bea2b4c6f
# Each FreeDict package: its pair (dict-freedict-PAIR) and the SHA-256 of its .deb.
PACKAGES=(
  'ita-eng f0d7a5dd47cefd2e7e8e3be19dc78df6607989324bb1ad8bc61b9a657c3a4774'
  'eng-ita aef18ac10bd7582f99b819f634edad0dc0060e59a06f3f041a40203c53e9bb22'
  'deu-eng 52fa2ba6c73ebe84df0e4a7b8612a94a45e6026a157fc75f5ae36c4a1106e3db'
  'eng-deu e85da1519a4d5efdbd7a5a169e828b97920f91e899f45d56fd5b2266a05b5906'
  'fra-eng fb853d1f3da00ddddfe60dc3b88b5aaca122eecf3ba5c219131bea479d6274db'
  'eng-fra b8db6774b640ae8a372bee119b4304d88e6fd471a283d1326d7ec0abcc8b930e'
  'spa-eng debf5f88fcdaebe824704664cdbb42b6c14f82ab4adda4e91bc388b16200eefc'
  'eng-spa 1b6a624048eddad805dcf0473a74e53420fbe391e7f2638090bddf625e9ad2b6'
  'por-eng 6c688a9148bde82a6fbd6b2e3a80c1cec3eb4b3ec2d37901c94dc90bfb008950'
  'eng-por ef942ae345dda5f504b256a9df131993350737f70a1e55c58f49e4ae3196ec3f'
  'nld-eng 827dbf561be0ea04a70a049d8604a82aa2c709e7b744fe1096bd2c8008b0527d'
  'eng-nld 82bc479217e728e95d61aedc4dfb8472b4a9db23412e9754b8f24a9a2d50e943'
  'eng-rus 0683c8eda017ff1082815c3bd918a7c9f1516b18621fcdf0ef46a9a1b9d61ea3'
)
# Bump when the folder this writes changes: an older folder is then built again.
FETCH_VERSION=2

dir="${1:-${MAILSIFT_MODEL_CACHE:-$HOME/.cache/mailsift/models}/lexicon}"
if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ] && [ ! -f "$dir/mailsift-lexicon.json" ]; then
  echo "fetch-lexicon: $dir exists and is not a lexicon folder; refusing to replace it" >&2
  exit 1
fi
if grep -q "\"fetchVersion\": $FETCH_VERSION," "$dir/mailsift-lexicon.json" 2>/dev/null; then
  echo "fetch-lexicon: $dir is ready"
  exit 0
fi
command -v curl >/dev/null || { echo "fetch-lexicon: needs curl" >&2; exit 1; }

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# Build beside the target, so the final rename stays on one filesystem and a killed run
# never leaves a half-written folder that looks ready. Downloaded packages stay there until
# the folder is built, so a rerun after a failure fetches only what is missing.
work="$(dirname "$dir")/.build-$(basename "$dir")"
mkdir -p "$work/debs" "$work/dictd"

# Downloads a package of the pool once ($1: its path there), checks its SHA-256 ($2) and
# copies its dictd files named $3 (.index and .dict.dz) into $work/dictd.
fetch_dictd() {
  local deb="$work/debs/$(basename "$1")"
  if [ ! -f "$deb" ]; then
    curl --fail --location --silent --show-error --retry 3 --output "$deb.part" "$POOL/$1"
    mv "$deb.part" "$deb"
  fi
  if ! echo "$2  $deb" | sha256sum --check --quiet; then
    rm -f "$deb"
    echo "fetch-lexicon: $(basename "$deb") does not have the pinned SHA-256; removed it, run again" >&2
    exit 1
  fi
  rm -rf "$work/x"
  mkdir -p "$work/x"
  if command -v dpkg-deb >/dev/null; then
    dpkg-deb -x "$deb" "$work/x"
  else
    (cd "$work/x" && ar x "$deb" && tar -xf data.tar.*)
  fi
  cp "$work/x/usr/share/dictd/$3.index" "$work/x/usr/share/dictd/$3.dict.dz" "$work/dictd/"
  rm -rf "$work/x"
}

for entry in "${PACKAGES[@]}"; do
  pair="${entry% *}"
  fetch_dictd "f/freedict/dict-freedict-${pair}_${VERSION}_all.deb" "${entry##* }" "freedict-$pair"
done
fetch_dictd "m/mueller/$MUELLER_DEB" "$MUELLER_SHA256" mueller7

# The builder is TypeScript (src/rag/lexicon/build.ts): compiled first on a fresh checkout,
# or when its sources changed since the last build.
builder="$root/dist/src/rag/lexicon/build.js"
if [ ! -f "$builder" ] || [ -n "$(find "$root/src/rag/lexicon" -name '*.ts' -newer "$builder")" ]; then
  (cd "$root" && npx tsc -p tsconfig.build.json)
fi
rm -rf "$work/out"
node "$builder" "$work/dictd" "$work/out" >/dev/null
cat >"$work/out/mailsift-lexicon.json" <<JSON
{
  "name": "lexicon",
  "fetchVersion": $FETCH_VERSION,
  "source": "Debian dict-freedict-* $VERSION (FreeDict, GPL-2.0-or-later): ${PACKAGES[*]%% *}; Debian $MUELLER_DEB (GPL-2.0-or-later)"
}
JSON
mkdir -p "$(dirname "$dir")"
rm -rf "$dir"
mv "$work/out" "$dir"
rm -rf "$work"
echo "fetch-lexicon: lexicon ready in $dir"
