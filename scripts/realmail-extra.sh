#!/usr/bin/env bash
# Recreates an extra real-mail corpus (bench/crosslang/README.md) from a BerliOS Mailman
# archive as kept by the GitHub organisation BackupTheBerlios (`<list>-maillist` repositories,
# one pipermail `YYYY-Month.txt.gz` a month). Each named month is written, gunzipped and
# otherwise untouched, as OUT_DIR/<YYYY-Month>.mbox. The mail itself is public list mail that
# is never committed here; only this script and the questions are.
# Usage: scripts/realmail-extra.sh GIT_DIR OUT_DIR YYYY-Month...
#   e.g. scripts/realmail-extra.sh /work/.mirror/BackupTheBerlios+usbprog-pub-maillist/repo \
#          /work/realmail-extra/usbprog-pub 2007-June 2007-July 2007-August
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 GIT_DIR OUT_DIR YYYY-Month..." >&2; exit 2; }
git_dir=$1 out=$2
shift 2
mkdir -p "$out"
for month in "$@"; do
  git --git-dir "$git_dir" show "HEAD:$month.txt.gz" | gunzip > "$out/$month.mbox"
done
