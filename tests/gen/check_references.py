#!/usr/bin/python3
"""Cross-checks the committed fixed-point references without torch: a small numpy evaluator of
the ONNX specification (QuantizeLinear = saturate(round_half_even(x / scale) + zero_point))
runs qat_qdq.onnx / qat_qdq_bn.onnx / quantized_int8.onnx on the committed input and prints how
far the result is from PyTorch's outputs, in units of the output scale.

    /usr/bin/python3 tests/gen/check_references.py

Expected: float32 results within one output quantization step of PyTorch (torch's fake quant
multiplies by 1/scale where ONNX divides by scale, and the two convolution implementations sum
in different orders, so an element near a rounding boundary may land one step apart).
"""
import json
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))
import onnx_facts  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "models"


def attr(n, name, default=None):
    return onnx_facts.attr(n, name, default)


def bcast(v, axis, ndim):
    v = np.asarray(v)
    if v.size == 1:
        return v.reshape(())
    shape = [1] * ndim
    shape[axis] = v.size
    return v.reshape(shape)


def conv2d(x, w, b, strides, pads, group):
    n, c, h, wd = x.shape
    oc, icg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (xp.shape[2] - kh) // strides[0] + 1
    ow = (xp.shape[3] - kw) // strides[1] + 1
    out = np.zeros((n, oc, oh, ow), np.float32)
    ocg = oc // group
    for gi in range(group):
        xs = xp[:, gi * icg:(gi + 1) * icg]
        cols = np.empty((n, icg, kh, kw, oh, ow), np.float32)
        for i in range(kh):
            for j in range(kw):
                cols[:, :, i, j] = xs[:, :, i:i + strides[0] * oh:strides[0], j:j + strides[1] * ow:strides[1]]
        wg = w[gi * ocg:(gi + 1) * ocg]
        out[:, gi * ocg:(gi + 1) * ocg] = np.einsum("nckluv,ockl->nouv", cols, wg, dtype=np.float32)
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def run(model, feeds, env=None):
    env = {} if env is None else env
    env.update(feeds)
    for i in model.graph.initializer:
        env[i.name] = numpy_helper.to_array(i)
    for n in model.graph.node:
        ins = [env[i] if i else None for i in n.input]
        op = n.op_type
        if op == "Constant":
            r = numpy_helper.to_array(n.attribute[0].t)
        elif op == "Identity":
            r = ins[0]
        elif op in ("QuantizeLinear", "HzQuantize"):
            x, s, z = ins[0], ins[1], ins[2]
            axis = attr(n, "axis", 1)
            if op == "HzQuantize":
                bits = attr(n, "bits")
                lo, hi, dt = (-128, 127, np.int8) if bits == 8 else (-32768, 32767, np.int16)
            else:
                info = np.iinfo(z.dtype)
                lo, hi, dt = info.min, info.max, z.dtype
            s = bcast(s, axis, x.ndim)
            z = bcast(z, axis, x.ndim).astype(np.int32)
            q = np.rint(x.astype(np.float32) / s.astype(np.float32)) + z
            r = np.clip(q, lo, hi).astype(dt)
        elif op in ("DequantizeLinear", "HzDequantize"):
            x, s, z = ins[0], ins[1], ins[2]
            axis = attr(n, "axis", 1)
            s = bcast(s, axis, x.ndim).astype(np.float32)
            z = bcast(z, axis, x.ndim).astype(np.int32) if z is not None else 0
            r = ((x.astype(np.int32) - z).astype(np.float32) * s).astype(np.float32)
        elif op == "Clip":
            r = ins[0]
            if len(ins) > 1 and ins[1] is not None:
                r = np.maximum(r, ins[1])
            if len(ins) > 2 and ins[2] is not None:
                r = np.minimum(r, ins[2])
        elif op == "Cast":
            r = ins[0].astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[attr(n, "to")])
        elif op == "ConstantOfShape":
            v = numpy_helper.to_array(n.attribute[0].t) if n.attribute else np.zeros(1, np.float32)
            r = np.full(ins[0].astype(np.int64), v[0], v.dtype)
        elif op == "Conv":
            r = conv2d(ins[0], ins[1], ins[2] if len(ins) > 2 else None, attr(n, "strides", [1, 1]),
                       attr(n, "pads", [0, 0, 0, 0]), attr(n, "group", 1))
        elif op == "Relu":
            r = np.maximum(ins[0], 0)
        elif op == "Sigmoid":
            r = (1 / (1 + np.exp(-ins[0].astype(np.float64)))).astype(np.float32)
        elif op in ("Add", "Mul", "Div", "Sub"):
            f = {"Add": np.add, "Mul": np.multiply, "Div": np.divide, "Sub": np.subtract}[op]
            r = f(ins[0], ins[1]).astype(np.float32)
        elif op == "BatchNormalization":
            x, g, b, m, v = ins
            eps = attr(n, "epsilon", 1e-5)
            sh = (1, -1, 1, 1)
            r = ((x - m.reshape(sh)) / np.sqrt(v.reshape(sh) + np.float32(eps)) * g.reshape(sh)
                 + b.reshape(sh)).astype(np.float32)
        elif op == "MaxPool":
            k, s = attr(n, "kernel_shape"), attr(n, "strides", [1, 1])
            x = ins[0]
            oh, ow = (x.shape[2] - k[0]) // s[0] + 1, (x.shape[3] - k[1]) // s[1] + 1
            r = np.full(x.shape[:2] + (oh, ow), -np.inf, np.float32)
            for i in range(k[0]):
                for j in range(k[1]):
                    r = np.maximum(r, x[:, :, i:i + s[0] * oh:s[0], j:j + s[1] * ow:s[1]])
        elif op == "GlobalAveragePool":
            r = ins[0].mean((2, 3), keepdims=True, dtype=np.float32)
        elif op == "Flatten":
            r = ins[0].reshape(ins[0].shape[0], -1)
        elif op == "Gemm":
            b = ins[1].T if attr(n, "transB", 0) else ins[1]
            r = (ins[0] @ b).astype(np.float32)
            if len(ins) > 2 and ins[2] is not None:
                r = r + ins[2]
        else:
            raise SystemExit("unsupported op %s in %s" % (op, n.name))
        env[n.output[0]] = r
    return [env[o.name] for o in model.graph.output]


def main():
    print(json.dumps(compare(), indent=1))


def compare():
    manifest = json.loads((OUT / "MANIFEST.json").read_text())
    x = np.load(OUT / "qat_qdq.input_0.npy")
    results = {}
    for name, ref_key in (("qat_qdq", "torch_fake"), ("qat_qdq_bn", "torch_fake"), ("qat_qdq_highprec", "torch_fake"),
                          ("quantized_int8", "torch_int8"), ("qat_qdq", "float")):
        model = onnx.load(str(OUT / (name + ".onnx")))
        if ref_key == "float":  # drop every Q/DQ pair: the float mode of the same graph
            model = strip_qdq(model)
        out = run(model, {model.graph.input[0].name: x})[0]
        refs = manifest["files"][name + ".onnx"].get("references") or \
            manifest["files"]["qat_qdq.onnx"]["references"]
        ref = np.load(OUT / refs[ref_key])
        scale = manifest["files"]["qat_qdq.onnx" if name == "quantized_int8" else name + ".onnx"]["layers"][-1]["output_scale"]
        scale = scale or 1.0  # high-precision output: steps reported against 1.0
        d = np.abs(out - ref)
        results["%s vs %s" % (name, ref_key)] = {
            "max_abs": float(d.max()), "max_steps": float(d.max() / scale),
            "bit_exact_elements": int((out == ref).sum()), "elements": int(ref.size)}
    # layer by layer: the numpy evaluation's activation codes vs PyTorch's fake-quant codes
    for name in ("qat_qdq", "qat_qdq_bn"):
        model = onnx.load(str(OUT / (name + ".onnx")))
        env = {}
        run(model, {model.graph.input[0].name: x}, env)
        g = onnx_facts.Graph(model)
        per_layer = {}
        for mod, info in manifest["files"][name + ".onnx"]["references"]["layers"].items():
            dq = g.producer[info["onnx_tensor"]]
            src = g.producer[dq.input[0]]  # Clip (reduced range) or QuantizeLinear
            codes = env[src.output[0]].astype(np.int32)
            ref = np.load(OUT / info["torch_fake_q"]).astype(np.int32)
            per_layer[mod] = {"differing_codes": int((codes != ref).sum()), "elements": int(ref.size)}
        results["%s layer codes vs torch_fake_q" % name] = per_layer
    results["evaluator"] = ("tests/gen/check_references.py: numpy, float32, QuantizeLinear as "
                            "saturate(rint(x / scale) + zero_point); 'float' = the graph with its Q/DQ pairs removed")
    return results


def strip_qdq(model):
    """Replaces every Q -> [Clip ->] DQ chain by its float input."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = onnx_facts.Graph(m)
    rename = {}
    keep = []
    for n in m.graph.node:
        if n.op_type in ("DequantizeLinear",):
            src = g.producer.get(n.input[0])
            if src is not None and src.op_type == "Clip":
                src = g.producer.get(src.input[0])
            if src is not None and src.op_type == "QuantizeLinear":
                rename[n.output[0]] = src.input[0]
                continue
        keep.append(n)
    for n in keep:
        for i, name in enumerate(n.input):
            while name in rename:
                name = rename[name]
            n.input[i] = name
    out_names = {o.name for o in m.graph.output}
    for o in out_names & set(rename):
        keep.append(onnx.helper.make_node("Identity", [rename[o]], [o]))
    del m.graph.node[:]
    m.graph.node.extend(keep)
    return m


if __name__ == "__main__":
    main()
