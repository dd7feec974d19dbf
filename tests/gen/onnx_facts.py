"""Reads an ONNX model with python3-onnx and computes the facts the C++ tests assert.

Used by make_models.py to write tests/data/models/MANIFEST.json. The rules below are the
conventions the manifest is written in; they are deliberately simple so a test can state
them in one line (see "conventions" in the manifest).

Only python3-onnx and numpy are needed here (no torch), so the facts of any committed model
can be recomputed: /usr/bin/python3 tests/gen/onnx_facts.py FILE.onnx
"""
import json
import sys

import numpy as np
import onnx
from onnx import numpy_helper

QUANTIZE_OPS = {"QuantizeLinear", "HzQuantize"}
DEQUANTIZE_OPS = {"DequantizeLinear", "HzDequantize"}
# Ops that keep the quantization of their input (torch's convert keeps the input qparams
# for them, and a deployment compiler runs them on the integer tensor directly).
PASSTHROUGH_OPS = {"MaxPool", "GlobalAveragePool", "AveragePool", "Flatten", "Reshape",
                   "Transpose", "Squeeze", "Unsqueeze", "Identity", "Cast", "Clip"}
# Ops that form a "layer" (a compute op with weight/activation quantizers).
WEIGHTED_OPS = {"Conv", "ConvTranspose", "Gemm", "MatMul"}
BINARY_OPS = {"Add", "Mul", "Sub", "Concat"}
QLINEAR_OPS = {"QLinearConv", "QLinearMatMul"}
OTHER_LAYER_OPS = {"GridSample"}
# Ops that follow a compute op and belong to it (BN folding, bias add, fused activation):
# walking from a layer's output through these reaches its output quantizer.
FOLLOWER_OPS = {"Relu", "Clip", "BatchNormalization", "Identity", "Div", "Add", "Mul", "Sub"}

DTYPE_NAMES = {
    onnx.TensorProto.FLOAT: "float32", onnx.TensorProto.UINT8: "uint8",
    onnx.TensorProto.INT8: "int8", onnx.TensorProto.INT16: "int16",
    onnx.TensorProto.UINT16: "uint16", onnx.TensorProto.INT32: "int32",
    onnx.TensorProto.INT64: "int64", onnx.TensorProto.FLOAT16: "float16",
    onnx.TensorProto.BFLOAT16: "bfloat16",
}
HALF_TYPES = {onnx.TensorProto.FLOAT16, onnx.TensorProto.BFLOAT16}
# Output dtypes model.output_low_precision accepts (the toolchain's "high precision").
HIGH_PRECISION = {"float32", "float16", "bfloat16", "int32"}


def module_path(node_name):
    """'/conv1/bn/BatchNormalization' -> 'conv1.bn'; '/layer1/layer1.0/conv1/Conv' ->
    'layer1.0.conv1' (a scope extending the previous one replaces it); '/Add' -> ''."""
    if not node_name.startswith("/"):
        return ""
    scopes = []
    for s in node_name.split("/")[1:-1]:
        if not s:
            continue
        if scopes and s.startswith(scopes[-1] + "."):
            scopes[-1] = s
        else:
            scopes.append(s)
    return ".".join(scopes)


class Graph:
    def __init__(self, model):
        self.model = model
        g = model.graph
        self.inits = {i.name: i for i in g.initializer}
        self.producer = {}
        self.consumers = {}
        for n in g.node:
            for o in n.output:
                self.producer[o] = n
            for i in n.input:
                if i:
                    self.consumers.setdefault(i, []).append(n)
        self.graph_outputs = {o.name for o in g.output}

    def const_root(self, name):
        """Name of the initializer or Constant node a tensor comes from (through Identity)."""
        seen = 0
        while name not in self.inits and seen < 16:
            p = self.producer.get(name)
            if p is None:
                return None
            if p.op_type == "Constant":
                return p.name + ":" + name
            if p.op_type in ("Identity", "Cast"):
                name = p.input[0]
                seen += 1
                continue
            if p.op_type == "ConstantOfShape":
                return p.name + ":" + name
            return None
        return name

    def const_value(self, name):
        if not name:
            return None
        if name in self.inits:
            return numpy_helper.to_array(self.inits[name])
        p = self.producer.get(name)
        if p is None:
            return None
        if p.op_type == "Constant":
            for a in p.attribute:
                if a.name == "value":
                    return numpy_helper.to_array(a.t)
            return None
        if p.op_type == "Identity":
            return self.const_value(p.input[0])
        if p.op_type == "Cast":
            v = self.const_value(p.input[0])
            to = next(a.i for a in p.attribute if a.name == "to")
            return None if v is None else v.astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[to])
        if p.op_type == "ConstantOfShape":
            shape = self.const_value(p.input[0])
            val = np.zeros(1, np.float32)
            for a in p.attribute:
                if a.name == "value":
                    val = numpy_helper.to_array(a.t)
            return None if shape is None else np.full(shape.astype(np.int64), val[0], val.dtype)
        return None

    def is_const(self, name):
        return self.const_value(name) is not None


def attr(node, name, default=None):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def quantizer_info(g, node):
    """dtype, scale(s), zero point(s), axis, clip range of a (de)quantize node."""
    scale = g.const_value(node.input[1])
    zp = g.const_value(node.input[2]) if len(node.input) > 2 and node.input[2] else None
    if node.op_type in ("HzQuantize", "HzDequantize"):
        bits = attr(node, "bits")
        if bits is None:  # HzDequantize carries no bits: take them from its HzQuantize
            p = g.producer.get(node.input[0])
            bits = attr(p, "bits") if p is not None else None
        dtype = {8: "int8", 16: "int16"}.get(bits, "unknown")
        axis = attr(node, "axis")
    else:
        dtype = DTYPE_NAMES[onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(zp.dtype)]] if zp is not None else "uint8"
        if zp is None and attr(node, "output_dtype"):  # opset 21 QuantizeLinear without a zero point
            dtype = DTYPE_NAMES[attr(node, "output_dtype")]
        elif zp is None and node.op_type in DEQUANTIZE_OPS:  # no zero point: the input's type
            src = g.const_value(node.input[0])
            p = g.producer.get(node.input[0])
            if src is not None:
                dtype = DTYPE_NAMES[onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(src.dtype)]]
            elif p is not None and p.op_type in QUANTIZE_OPS:
                dtype = quantizer_info(g, p)["dtype"]
        axis = attr(node, "axis", 1)
        x = g.const_value(node.input[0])
        if axis < 0 and x is not None:  # counts from the end of the quantized constant's rank
            axis += x.ndim
    per_channel = scale is not None and scale.size > 1
    info = {
        "node": node.name,
        "dtype": dtype,
        "scale_tensor": node.input[1],
        "scale_root": g.const_root(node.input[1]),
        "scale_shape": list(scale.shape) if scale is not None else None,
        "granularity": ("per-channel" if per_channel else "per-tensor"),
        "axis": (axis if per_channel else None),
    }
    if scale is not None:
        info["scale"] = [float(s) for s in scale.reshape(-1)] if per_channel else float(scale.reshape(-1)[0])
    if zp is not None:
        info["zero_point"] = [int(z) for z in zp.reshape(-1)] if per_channel else int(zp.reshape(-1)[0])
    # PyTorch writes reduced ranges (e.g. 0..127) as Quantize -> Clip -> Dequantize.
    if node.op_type in QUANTIZE_OPS:
        cons = g.consumers.get(node.output[0], [])
        if len(cons) == 1 and cons[0].op_type == "Clip":
            lo = g.const_value(cons[0].input[1]) if len(cons[0].input) > 1 else None
            hi = g.const_value(cons[0].input[2]) if len(cons[0].input) > 2 else None
            info["clip"] = [None if lo is None else int(lo), None if hi is None else int(hi)]
    return info


def is_constant_dq(g, dq):
    """A dequantizer of a constant: a weight or bias. Converted models dequantize a Constant
    directly; fake-quant exports quantize a float initializer first (Q [-> Clip] -> DQ)."""
    src = dq.input[0]
    if g.is_const(src):
        return True
    p = g.producer.get(src)
    if p is not None and p.op_type == "Clip":
        p = g.producer.get(p.input[0])
    return p is not None and p.op_type in QUANTIZE_OPS and g.is_const(p.input[0])


def tensor_dtype(g, name):
    v = g.const_value(name)
    if v is not None:
        return DTYPE_NAMES.get(onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(v.dtype)], str(v.dtype))
    for vi in list(g.model.graph.input) + list(g.model.graph.value_info):
        if vi.name == name:
            return DTYPE_NAMES.get(vi.type.tensor_type.elem_type, str(vi.type.tensor_type.elem_type))
    return "unknown"


def half_cast(node):
    """'float16' / 'bfloat16' for a Cast to a half type, else None."""
    if node.op_type != "Cast" or attr(node, "to") not in HALF_TYPES:
        return None
    return DTYPE_NAMES[attr(node, "to")]


def trace_input(g, name):
    """Walks back through pass-through ops to the dequantizer an activation comes from. A Cast to
    float16 ends the walk: what follows it computes in float16 on purpose (FakeCast)."""
    for _ in range(32):
        p = g.producer.get(name)
        if p is None:
            return None
        if p.op_type in DEQUANTIZE_OPS:
            return p
        if half_cast(p):
            return None
        if p.op_type in PASSTHROUGH_OPS:
            name = p.input[0]
            continue
        return None
    return None


def float_input_dtype(g, name):
    """An activation input that no dequantizer feeds: float16 when a Cast to float16 comes first
    walking back through pass-through ops, else float32."""
    for _ in range(32):
        p = g.producer.get(name)
        if p is None:
            break
        if half_cast(p):
            return half_cast(p)
        if p.op_type not in PASSTHROUGH_OPS:
            break
        name = p.input[0]
    return "float32"


def cast_after(g, name):
    """'float16' when the tensor's only consumer is a Cast to float16 (the output side)."""
    cons = g.consumers.get(name, [])
    return half_cast(cons[0]) if len(cons) == 1 else None


def trace_output(g, node):
    """Follows single-consumer follower ops to the output quantizer. Returns (qnode, absorbed)."""
    absorbed = []
    name = node.output[0]
    for _ in range(16):
        if name in g.graph_outputs:
            return None, absorbed
        cons = g.consumers.get(name, [])
        if len(cons) != 1:
            return None, absorbed
        c = cons[0]
        if c.op_type in QUANTIZE_OPS:
            return c, absorbed
        if c.op_type not in FOLLOWER_OPS:
            return None, absorbed
        if c.op_type in ("Div", "Add", "Mul", "Sub") and not any(g.is_const(i) for i in c.input):
            return None, absorbed  # a binary op between two activations is a layer of its own
        absorbed.append(c.name)
        name = c.output[0]
    return None, absorbed


def layer_output(g, n, absorbed):
    """The tensor a layer's result leaves in: its last absorbed follower's output, else its own."""
    if absorbed:
        return next(x for x in g.model.graph.node if x.name == absorbed[-1]).output[0]
    return n.output[0]


def is_layer(g, n):
    if n.op_type in WEIGHTED_OPS or n.op_type in QLINEAR_OPS or n.op_type in OTHER_LAYER_OPS:
        return True
    if n.op_type in BINARY_OPS:
        return sum(1 for i in n.input if i and not g.is_const(i)) >= 2
    return False


def layer_facts(g, n):
    layer = {"node": n.name, "op": n.op_type, "module": module_path(n.name)}
    if n.domain:
        layer["domain"] = n.domain
    if n.op_type in QLINEAR_OPS:
        # QLinearConv: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp[, B] (QLinearMatMul: no B)
        ws = g.const_value(n.input[4])
        ys = g.const_value(n.input[6])
        zy = g.const_value(n.input[7])
        layer["input_dtypes"] = [tensor_dtype(g, n.input[2])]
        layer["weight_dtype"] = tensor_dtype(g, n.input[5])
        if ws is not None:
            layer["weight_granularity"] = "per-channel" if ws.size > 1 else "per-tensor"
            layer["weight_axis"] = (0 if n.op_type == "QLinearConv" else 1) if ws.size > 1 else None
            layer["weight_scale_range"] = [float(ws.min()), float(ws.max())]
        layer["output_dtype"] = tensor_dtype(g, n.input[7])
        layer["output_scale"] = float(ys.reshape(-1)[0]) if ys is not None else None
        layer["output_zero_point"] = int(zy.reshape(-1)[0]) if zy is not None else None
        if len(n.input) > 8 and n.input[8]:
            layer["bias_dtype"] = tensor_dtype(g, n.input[8])
        return layer
    act_inputs, weight_q, bias = [], None, None
    for idx, i in enumerate(n.input):
        if not i:
            continue
        dq = g.producer.get(i)
        if dq is not None and dq.op_type in DEQUANTIZE_OPS and is_constant_dq(g, dq):
            qi = quantizer_info(g, dq)
            if idx == 1 and n.op_type in WEIGHTED_OPS:
                weight_q = qi
            else:
                bias = qi  # converted models dequantize an int32 bias too
            continue
        if n.op_type in WEIGHTED_OPS and idx >= 1:
            if idx == 1:  # a float weight: its own float type (float16 weights stay float16)
                v = g.const_value(i)
                fd = tensor_dtype(g, i) if v is not None and v.dtype.kind == "f" else "float32"
                weight_q = {"dtype": fd, "granularity": None}
            continue
        src = trace_input(g, i)
        act_inputs.append(quantizer_info(g, src)["dtype"] if src is not None else float_input_dtype(g, i))
    layer["input_dtypes"] = act_inputs
    if n.op_type in WEIGHTED_OPS:
        layer["weight_dtype"] = weight_q["dtype"]
        layer["weight_granularity"] = weight_q.get("granularity")
        layer["weight_axis"] = weight_q.get("axis")
        if "scale" in weight_q:
            s = np.asarray(weight_q["scale"], dtype=np.float64).reshape(-1)
            layer["weight_scale_range"] = [float(s.min()), float(s.max())]
    if bias is not None:
        layer["bias_dtype"] = bias["dtype"]
    q, absorbed = trace_output(g, n)
    layer["absorbed"] = absorbed
    if q is None:
        # Computes in its first activation input's float type unless a Cast to float16 follows.
        first = act_inputs[0] if act_inputs else "float32"
        layer["output_dtype"] = (cast_after(g, layer_output(g, n, absorbed))
                                 or (first if first in ("float16", "bfloat16") else "float32"))
        layer["output_scale"] = None
    else:
        qi = quantizer_info(g, q)
        layer["output_dtype"] = qi["dtype"]
        layer["output_scale"] = qi["scale"]
        layer["output_zero_point"] = qi.get("zero_point")
        layer["output_quantizer"] = q.name
        layer["output_scale_tensor"] = qi["scale_root"]
        if "clip" in qi:
            layer["output_clip"] = qi["clip"]
    return layer


def reaches_output(g):
    """Names of nodes from which some graph output can be reached."""
    live = set()
    stack = list(g.graph_outputs)
    seen = set()
    while stack:
        t = stack.pop()
        if t in seen:
            continue
        seen.add(t)
        p = g.producer.get(t)
        if p is None:
            continue
        live.add(p.name)
        stack.extend(i for i in p.input if i)
    return live


def value_info_json(vi):
    t = vi.type.tensor_type
    dims = [d.dim_value if d.HasField("dim_value") else d.dim_param for d in t.shape.dim]
    return {"name": vi.name, "dtype": DTYPE_NAMES.get(t.elem_type, str(t.elem_type)), "shape": dims}


def facts(model):
    g = Graph(model)
    graph = model.graph
    ops = {}
    for n in graph.node:
        key = (n.domain + "::" if n.domain else "") + n.op_type
        ops[key] = ops.get(key, 0) + 1
    out = {
        "ir_version": model.ir_version,
        "opset": next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None),
        "opset_imports": {(o.domain or "ai.onnx"): o.version for o in model.opset_import},
        "node_count": len(graph.node),
        "initializer_count": len(graph.initializer),
        "op_counts": dict(sorted(ops.items())),
        "inputs": [value_info_json(v) for v in graph.input if v.name not in g.inits],
        "outputs": [value_info_json(v) for v in graph.output],
    }
    layers = [layer_facts(g, n) for n in graph.node if is_layer(g, n)]
    out["layers"] = layers

    # Activation quantizers (not weights): grouped by the initializer their scale comes from.
    act_q = [n for n in graph.node if n.op_type in QUANTIZE_OPS and not g.is_const(n.input[0])]
    groups = {}
    for n in act_q:
        root = g.const_root(n.input[1])
        groups.setdefault(root, []).append(n.name)
    out["activation_quantizers"] = len(act_q)
    out["shared_scale_groups"] = [{"scale_tensor": k, "quantizers": v} for k, v in groups.items() if len(v) > 1]
    out["default_scale_quantizers"] = [
        n.name for n in act_q
        if np.all(g.const_value(n.input[1]) == 1.0)
        and (len(n.input) < 3 or not n.input[2] or np.all(g.const_value(n.input[2]) == 0))]
    live = reaches_output(g)
    out["dead_nodes"] = [n.name for n in graph.node if n.name not in live and n.op_type != "Constant"]
    out["dead_quantizers"] = [n.name for n in graph.node if n.name not in live
                              and n.op_type in QUANTIZE_OPS | DEQUANTIZE_OPS]

    # Float islands: ops that are not quantizers, not pass-through, not layers and not part of a
    # layer, that sit downstream of a dequantizer and whose output does not go into a quantizer.
    absorbed = {a for l in layers for a in l.get("absorbed", [])}
    layer_names = {l["node"] for l in layers}
    islands = []
    for n in graph.node:
        if n.op_type in QUANTIZE_OPS | DEQUANTIZE_OPS | PASSTHROUGH_OPS or n.op_type in ("Constant", "ConstantOfShape"):
            continue
        if n.name in layer_names or n.name in absorbed:
            continue
        if not any(trace_input(g, i) is not None for i in n.input if i):
            continue
        cons = g.consumers.get(n.output[0], [])
        if cons and all(c.op_type in QUANTIZE_OPS for c in cons):
            continue
        if n.output[0] in g.graph_outputs:
            continue
        islands.append(n.name)
    out["float_island_nodes"] = islands
    out["output_layers"] = output_layers(g, layers)
    return out


def output_layers(g, layers):
    """For each graph output: the layer that produces it and the dtype it leaves that layer in.

    A graph output is low precision when it is the dequantized result of a layer's 8/16-bit
    output quantizer (or a QLinear op's quantized output); a layer whose result reaches the
    output without a quantizer is high precision (float / int32 accumulator)."""
    by_quantizer = {l.get("output_quantizer"): l for l in layers if l.get("output_quantizer")}
    by_node = {l["node"]: l for l in layers}
    res = {}
    for o in g.graph_outputs:
        name, found = o, None
        for _ in range(32):
            p = g.producer.get(name)
            if p is None:
                break
            if p.name in by_node:
                found = by_node[p.name]
                break
            if p.op_type in QUANTIZE_OPS and p.name in by_quantizer:
                found = by_quantizer[p.name]
                break
            if p.op_type in DEQUANTIZE_OPS | PASSTHROUGH_OPS | FOLLOWER_OPS:
                name = p.input[0]
                continue
            break
        if found is None:
            res[o] = None
        else:
            res[o] = {"layer": found["node"], "module": found["module"], "dtype": found["output_dtype"]}
    return dict(sorted(res.items()))


def derive_lints(f, expect=None):
    """The model lints a file must trigger, by the rules the manifest states."""
    lints = set()
    for o in f["output_layers"].values():
        if o is not None and o["dtype"] not in HIGH_PRECISION:
            lints.add("model.output_low_precision")
    if f["shared_scale_groups"]:
        lints.add("model.shared_quant_params")
    if f["default_scale_quantizers"]:
        lints.add("model.uncalibrated_scale")
    if f["dead_quantizers"]:
        lints.add("model.aux_branch")
    if f["float_island_nodes"]:
        lints.add("model.float_fallback")
    if any(k.endswith("::GridSample") and k.startswith("horizon") for k in f["op_counts"]):
        lints.add("model.custom_gridsample")
    if expect:
        actual = {l["module"]: l["output_dtype"] for l in f["layers"]}
        if any(actual.get(k) != v for k, v in expect.items()):
            lints.add("model.int16_not_applied")
    return sorted(lints)


if __name__ == "__main__":
    print(json.dumps(facts(onnx.load(sys.argv[1])), indent=1))
