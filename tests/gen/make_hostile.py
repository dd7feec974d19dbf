#!/usr/bin/python3
"""Writes tests/data/hostile/: tiny files that *claim* huge sizes (a 100 GB tensor in every
storage the readers accept), so tests can check that each is refused before anything is
allocated. Run with Debian's interpreter (python3-onnx 1.12): /usr/bin/python3 tests/gen/make_hostile.py
Tests never run this: they read the committed files (each under 1 KB).
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "hostile")
# 100000 x 250000 float32 = 2.5e10 elements = 100 GB.
HUGE = [100000, 250000, 1, 1]
HUGE_BYTES = 100000 * 250000 * 4


def conv_model(weight, name, extra_nodes=()):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 250000, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    nodes = list(extra_nodes) + [helper.make_node("Conv", ["x", "w"], ["y"], name="/conv/Conv")]
    inits = [weight] if weight is not None else []
    graph = helper.make_graph(nodes, name, [x], [y], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.producer_name = "make_hostile.py"
    return model


def huge_raw():
    t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=HUGE)
    t.raw_data = np.arange(4, dtype=np.float32).tobytes()  # 16 bytes present, 100 GB claimed
    return t


def huge_external(location):
    t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=HUGE)
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", "0"), ("length", str(HUGE_BYTES))):
        e = t.external_data.add()
        e.key, e.value = k, v
    return t


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    write("huge_raw.onnx", conv_model(huge_raw(), "huge_raw").SerializeToString())
    write("huge_external.onnx", conv_model(huge_external("huge_external.bin"), "huge_external").SerializeToString())
    write("huge_external.bin", np.arange(4, dtype=np.float32).tobytes())
    # A Constant node whose value attribute claims the huge shape (converted int8 models keep
    # every weight in Constant nodes).
    const = helper.make_node("Constant", [], ["w"], name="w_const", value=huge_raw())
    write("huge_constant.onnx", conv_model(None, "huge_constant", [const]).SerializeToString())
    # Simulator inputs: a TensorProto .pb and a .npy whose header claims 100 GB.
    write("huge_tensor.pb", huge_raw().SerializeToString())
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 250000), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    write("huge_shape.npy", b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()
          + np.arange(4, dtype=np.float32).tobytes())

    # Inputs the review of the simulator readers found (crashes before the fix), replayed with
    # the fuzzers' findings by tests/hardening/fuzz_regression_test.cpp.
    reg = os.path.join(OUT, "..", "fuzz_regressions")
    os.makedirs(os.path.join(reg, "npy"), exist_ok=True)
    os.makedirs(os.path.join(reg, "tensor_pb"), exist_ok=True)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1234567890123456789012345,), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(os.path.join(reg, "npy", "dim_with_25_digits.npy"), "wb") as f:  # std::stoll threw
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
    t = TensorProto(name="x", data_type=TensorProto.FLOAT, dims=HUGE)
    t.float_data.append(1.0)  # one typed value, 100 GB claimed: was allocated before the count check
    with open(os.path.join(reg, "tensor_pb", "typed_fields_100gb.pb"), "wb") as f:
        f.write(t.SerializeToString())
    # fuzz_json_inputs layout: byte 0 odd = thresholds file, even = wizard session.
    os.makedirs(os.path.join(reg, "json_inputs"), exist_ok=True)
    deep = "{\"a\":" * 20000 + "1" + "}" * 20000  # recursive json copies overflowed the stack
    with open(os.path.join(reg, "json_inputs", "thresholds_nested_20000.json"), "wb") as f:
        f.write(b"\x01" + ('{"thresholds": {"divergence.loss_ratio": ' + deep + "}}").encode())
    session = ('{"version": 1, "start": "qat.calibration_low", "path": [{"topic": "qat.calibration_low", '
               '"node": "q_calib_low", "answer": "yes", "automatic": "yes"}]}')  # json::type_error
    with open(os.path.join(reg, "json_inputs", "session_automatic_not_bool.json"), "wb") as f:
        f.write(b"\x00" + session.encode())


if __name__ == "__main__":
    main()
