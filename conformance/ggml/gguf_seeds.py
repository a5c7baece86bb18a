#!/usr/bin/python3
"""gguf_seeds.py: the synthetic seeds of mutate_gguf.py (every KV value type,
every usable ggml type, alignment variants, v2, empty files) and the named
divergence examples of docs/divergences.md (conformance/ggml/divergences/).
Models and writer: generators/tfsgen (the one Python package that writes GGUF)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "generators"))
from tfsgen.gguf import (GG_BLOCKS, U64, VALID_TYPES, VT_STRING, KV, Model, Tensor, kv_array,  # noqa: E402
                         kv_scalar, serialize)


def t_for(gtype, name, rows=1, nd=2):
    blk = GG_BLOCKS[gtype][0]
    ne0 = blk if blk > 1 else 4
    dims = [ne0, rows][:nd] if nd <= 2 else [ne0, rows] + [2] * (nd - 2)
    return Tensor(name, dims, gtype)


def synthetic_seeds():
    seeds = {}
    vals = {0: 7, 1: -3, 2: 300, 3: -300, 4: 70000, 5: -70000, 6: 1.5, 7: 1, 10: 1 << 40, 11: -(1 << 40), 12: 2.25}
    kvs = [KV(b'general.architecture', VT_STRING, b'llama'), KV(b'general.name', VT_STRING, b'tfs synthetic')]
    for vt, v in vals.items():
        kvs.append(kv_scalar(b'test.scalar.%d' % vt, vt, v))
    for et, v in vals.items():
        kvs.append(kv_array(b'test.array.%d' % et, et, [v, v, v]))
    kvs.append(kv_array(b'test.array.strings', VT_STRING, [b'a', b'', b'\xc3\xa9t\xc3\xa9']))
    kvs.append(kv_array(b'test.array.empty', 4, []))
    ts = [Tensor(b'tok_embd.weight', [4, 3], 0), Tensor(b'norm.weight', [8], 1),
          Tensor(b'blk.0.attn_q.weight', [32, 2], 2), Tensor(b'blk.0.ffn.weight', [256, 1], 12),
          Tensor(b'scalar', [], 0), Tensor(b'cube.i8', [5, 2, 3], 24), Tensor(b'hyper.i32', [2, 2, 2, 2], 26)]
    seeds['syn-alltypes'] = Model(3, kvs, ts)
    # one tensor of every usable ggml type
    seeds['syn-ggmltypes'] = Model(3, [KV(b'general.architecture', VT_STRING, b'test')],
                                   [t_for(g, b'w.%d' % g, rows=1 + g % 3, nd=1 + g % 4) for g in VALID_TYPES])
    for a in (1, 8, 64, 256):
        seeds[f'syn-align{a}'] = Model(3, [kv_scalar(b'general.alignment', 4, a),
                                           KV(b'general.name', VT_STRING, b'x')],
                                       [Tensor(b'a', [3], 0), Tensor(b'b', [5], 24), Tensor(b'c', [32], 8)])
    seeds['syn-v2'] = Model(2, [kv_scalar(b'general.quantization_version', 4, 2)],
                            [Tensor(b'w', [64, 2], 8), Tensor(b'b', [7], 0)])
    seeds['syn-empty'] = Model(3, [], [])
    seeds['syn-kvonly'] = Model(3, [KV(b'tokenizer.ggml.model', VT_STRING, b'gpt2'),
                                    kv_array(b'tokenizer.ggml.tokens', VT_STRING, [b'<s>', b'</s>', b'a', b'b']),
                                    kv_array(b'tokenizer.ggml.scores', 6, [0.0, -1.0, -2.0, -3.0]),
                                    kv_scalar(b'tokenizer.ggml.add_bos_token', 7, 1)], [])
    seeds['syn-tensoronly'] = Model(3, [], [Tensor(b'x', [16, 4], 30), Tensor(b'y', [0], 0),
                                            Tensor(b'z', [128], 41), Tensor(b'w', [64], 42)])
    seeds['syn-quant'] = Model(3, [kv_scalar(b'general.file_type', 4, 15)],
                               [Tensor(b'q4k', [512, 2], 12), Tensor(b'q6k', [256], 14), Tensor(b'mx', [64, 2], 39),
                                Tensor(b'nv', [128], 40), Tensor(b'tq', [256], 34), Tensor(b'f', [10], 0)])
    return seeds


# ---------------------------------------------------------------- mutations


def examples():
    """Small named files, one per documented divergence of docs/divergences.md
    (plus two controls), committed under divergences/ with EXPECTED.tsv."""
    def base(tensors, kvs=()):
        return Model(3, [KV(b'general.architecture', VT_STRING, b'test')] + list(kvs), tensors)
    big_f32 = (U64 // 4) & ~31          # 4 * this = 2^64 - 128: padding to 256 wraps
    ex = {}
    ex['control-valid'] = serialize(base([Tensor(b'a', [8], 0), Tensor(b'b', [4], 0)]))[0]
    ex['control-bad-magic'] = b'GGUG' + ex['control-valid'][4:]
    ex['GG207-wrapped-ne-2p32x2p32-f32'] = serialize(base([Tensor(b'a', [1 << 32, 1 << 32], 0)]))[0]
    ex['GG207-wrapped-ne-2p62x2-i8'] = serialize(base([Tensor(b'a', [1 << 62, 2], 24)]))[0]
    ex['GG207-wrapped-ne-2p32x2p31-i8'] = serialize(base([Tensor(b'a', [1 << 32, 1 << 31], 24), Tensor(b'b', [4], 0)]))[0]
    ex['control-wrapped-count-both-reject-2p62x3-f32'] = serialize(base([Tensor(b'a', [1 << 62, 3], 0)]))[0]
    ex['GG212-nbytes-wraps-q8_0-2p62'] = serialize(base([Tensor(b'a', [1 << 62], 8)]))[0]
    ex['GG305-padded-size-wraps-align256'] = serialize(base([Tensor(b'huge', [big_f32], 0), Tensor(b'b', [4], 0)],
                                                            [kv_scalar(b'general.alignment', 4, 256)]))[0]
    ex['tail-padding-file-ends-after-last-tensor'] = serialize(base([Tensor(b'a', [8], 0), Tensor(b'b', [3], 0)]),
                                                               final_pad=False)[0]
    ex['alloc-abort-i8-2GiB-declared'] = serialize(base([Tensor(b'a', [1 << 31], 24)]))[0]
    ex['alloc-reason-ctx-size-overflow'] = serialize(base([Tensor(b'huge', [big_f32], 0)]))[0]
    # a file ending inside a tensor info's type field: ggml checks the type it
    # could not read (its reason then depends on stack contents)
    b, F, _ = serialize(base([Tensor(b'a', [32], 8), Tensor(b'b', [4], 0)]))
    ex['GG201-file-ends-in-type-field'] = b[:F['ti1.gtype'][0] + 2]
    return ex
