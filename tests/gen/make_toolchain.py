#!/usr/bin/python3
"""Writes tests/data/toolchain/: toolchain debug text files in the layouts of
the toolchain documentation's examples (tables printed by Debian's python3-tabulate, as the
toolchain prints them), with our own small model's content, plus damaged variants, and
MANIFEST.json with what the reader must make of each file.

Run: /usr/bin/python3 tests/gen/make_toolchain.py   (needs python3-tabulate, python3-wcwidth)
"""
import csv
import io
import json
import os
import random

from tabulate import tabulate

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "toolchain")
MANIFEST = []


def write(name, text, **expect):
    with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    MANIFEST.append({"file": name, **expect})


def cls(path):
    return "<class '%s'>" % path


QAT = "horizon_plugin_pytorch.nn.qat."


def model_check_result():
    parts = ["Fusable modules are listed below:"]
    for group in ([("neck.lateral.0(shared)", cls(QAT + "conv2d.Conv2d")),
                   ("neck.lateral_add", cls(QAT + "functional_modules.FloatFunctional"))],
                  [("neck.out_conv", cls(QAT + "conv2d.Conv2d")),
                   ("neck.out_bn", cls(QAT + "batchnorm.BatchNorm2d")),
                   ("neck.out_relu", cls(QAT + "relu.ReLU"))]):
        parts.append(tabulate(group, headers=["name", "type"]))
        parts.append("")
    parts.append("Modules below are used multi times:")
    parts.append(tabulate([("neck.lateral.0", 2), ("merge_add", 3), ("dequant", 2)],
                          headers=["name", "called times"]))
    parts.append("")
    for which, rows in (("input", [(cls(QAT + "stubs.QuantStub"), 1, 0, 0),
                                   (cls(QAT + "conv2d.Conv2d"), 0, 4, 0),
                                   (cls(QAT + "functional_modules.FloatFunctional"), 1, 5, 0),
                                   (cls(QAT + "stubs.DeQuantStub"), 0, 2, 0),
                                   ("total", 2, 11, 0)]),
                        ("output", [(cls(QAT + "stubs.QuantStub"), 0, 1, 0),
                                    (cls(QAT + "conv2d.Conv2d"), 0, 4, 0),
                                    (cls(QAT + "functional_modules.FloatFunctional"), 0, 3, 0),
                                    (cls(QAT + "stubs.DeQuantStub"), 2, 0, 0),
                                    ("total", 2, 8, 0)])):
        parts.append("%s dtype statistics:" % which)
        parts.append(tabulate(rows, headers=["module type", "torch.float32", "qint8", "qint16"], tablefmt="psql"))
    parts.append("Each layer out qconfig:")
    rows = [
        ("quant", cls(QAT + "stubs.QuantStub"), "[torch.float32]", "['qint8']", "-1", "MinMaxObserver"),
        ("backbone.conv0", cls(QAT + "conv2d.Conv2d"), "['qint8']", "['qint8']", "-1", "MinMaxObserver"),
        ("neck.lateral.0", cls(QAT + "conv2d.Conv2d"), "['qint8']", "['qint8']", "-1", "MinMaxObserver"),
        ("neck.lateral.0(1)", cls(QAT + "conv2d.Conv2d"), "['qint8']", "['qint8']", "-1", "MinMaxObserver"),
        ("merge_add[add]", cls(QAT + "functional_modules.FloatFunctional"), "['qint8', 'qint8']", "['qint8']", "-1", "MinMaxObserver"),
        ("anchor_mul[mul]", cls(QAT + "functional_modules.FloatFunctional"), "['qint8', torch.float32]", "['qint8']", "-1", "MinMaxObserver"),
        ("head.cls", cls(QAT + "conv2d.Conv2d"), "['qint8']", "['qint8']", "-1", "MinMaxObserver"),
        ("head.reg", cls(QAT + "conv2d.Conv2d"), "['qint8']", "['qint16']", "-1", "MinMaxObserver"),
        ("dequant", cls(QAT + "stubs.DeQuantStub"), "['qint8']", "[torch.float32]", "qconfig = None", ""),
        ("dequant(1)", cls(QAT + "stubs.DeQuantStub"), "['qint16']", "[torch.float32]", "qconfig = None", ""),
    ]
    parts.append(tabulate(rows, headers=["Module Name", "Module Type", "Input dtype", "out dtype", "ch_axis", "observer"],
                          tablefmt="psql"))
    parts.append("Weight qconfig:")
    parts.append(tabulate([("backbone.conv0", cls(QAT + "conv2d.Conv2d"), "qint8", 0, "MinMaxObserver"),
                           ("neck.lateral.0", cls(QAT + "conv2d.Conv2d"), "qint8", 0, "MinMaxObserver"),
                           ("head.cls", cls(QAT + "conv2d.Conv2d"), "qint8", 0, "MinMaxObserver"),
                           ("head.reg", cls(QAT + "conv2d.Conv2d"), "qint16", 0, "MinMaxObserver")],
                          headers=["Module Name", "Module Type", "weight dtype", "ch_axis", "observer"], tablefmt="psql"))
    parts.append("Please check if these OPs qconfigs are expected..")
    parts.append(tabulate([("head.reg", cls(QAT + "conv2d.Conv2d"), "qint16 weight!"),
                           ("quant", cls(QAT + "stubs.QuantStub"), "Fixed input scale 3.0517578125e-05")],
                          headers=["Module Name", "Module Type", "Msg"], tablefmt="psql"))
    write("model_check_result.txt", "\n".join(parts) + "\n", kind="model_check_result",
          expect={"format": "model_check_result",
                  "layers": 10,
                  "layer_values": [{"name": "anchor_mul[mul]", "input_dtypes": ["int8", "float32"], "op": "FloatFunctional"},
                                   {"name": "head.reg", "output_dtype": "int16", "weight_dtype": "int16"},
                                   {"name": "dequant", "input_dtypes": ["int8"], "output_dtype": "float32"}],
                  "tables": ["model_check.summary", "model_check.unfused", "model_check.called_times",
                             "model_check.input_dtypes", "model_check.output_dtypes", "model_check.layer_out_qconfig",
                             "model_check.weight_qconfig", "model_check.messages"],
                  "findings": {"model.output_low_precision": ["dequant", "dequant(1)"],
                               "model.shared_quant_params": ["neck.lateral.0", "merge_add"],
                               "model.unfused": ["neck.lateral.0(shared)", "neck.out_relu"],
                               "model.float_fallback": ["anchor_mul[mul]"],
                               "qconfig.weight_not_int8": ["head.reg"],
                               "qconfig.fixed_input_scale": ["quant"]},
                  "no_findings": ["qconfig.fixed_scale", "qconfig.other"],
                  "checks_run": ["model.output_low_precision", "model.shared_quant_params", "model.unfused",
                                 "model.float_fallback", "qconfig.weight_not_int8", "qconfig.mixed_dtypes"]})


def qconfig_info():
    """check_qconfig's older qconfig_info.txt: a dtype count line, the out-qconfig table without an
    observer column, a 4-column weight table, and the check table with every message kind that
    version writes (and the newer 'Mixed ...' wording)."""
    parts = ["Out dtype statistics: {'qint8': 5, torch.float32: 2, 'qint16': 1}", "", "Each layer out qconfig:"]
    rows = [("quant", cls(QAT + "stubs.QuantStub"), "torch.float32", "qint8", "-1"),
            ("stem.conv", cls(QAT + "conv2d.ConvReLU2d"), "qint8", "qint8", "-1"),
            ("stem.pool_add[add]", cls(QAT + "functional_modules.FloatFunctional"), "['qint8', 'qint8']", "qint16", "-1"),
            ("attn.sigmoid", cls(QAT + "segment_lut.SegmentLUT"), "qint8", "qint8", "-1"),
            ("attn.scale[mul]", cls(QAT + "functional_modules.FloatFunctional"), "['qint8', torch.float32]", "qint8", "-1"),
            ("head.fc", cls(QAT + "linear.Linear"), "qint8", "torch.float32", "activation = None"),
            ("dequant", cls(QAT + "stubs.DeQuantStub"), "torch.float32", "torch.float32", "qconfig = None")]
    parts.append(tabulate(rows, headers=["Module Name", "Module Type", "Input dtype", "out dtype", "ch_axis"],
                          tablefmt="psql"))
    parts += ["", "Weight qconfig:"]
    parts.append(tabulate([("stem.conv", cls(QAT + "conv2d.ConvReLU2d"), "qint8", 0),
                           ("head.fc", cls(QAT + "linear.Linear"), "qint16", 0)],
                          headers=["Module Name", "Module Type", "weight dtype", "ch_axis"], tablefmt="psql"))
    parts += ["", "", "Please check if these OPs qconfigs are expected.."]
    parts.append(tabulate([("head.fc", cls(QAT + "linear.Linear"), "activation is None. Maybe output layer?"),
                           ("head.fc", cls(QAT + "linear.Linear"), "qint16 weight!!!"),
                           ("attn.sigmoid", cls(QAT + "segment_lut.SegmentLUT"), "Fixed scale 0.0078125"),
                           ("stem.pool_add[add]", cls(QAT + "functional_modules.FloatFunctional"),
                            "input dtype ['qint8', 'qint8'] is not same with out dtype qint16"),
                           ("attn.scale[mul]", cls(QAT + "functional_modules.FloatFunctional"),
                            "Mixed input dtype ['qint8', torch.float32] and output dtype ['qint8']"),
                           ("stem.conv", cls(QAT + "conv2d.ConvReLU2d"), "actual out dtype != configured out dtype"),
                           ("stem.conv", cls(QAT + "conv2d.ConvReLU2d"), "observer reset by user hook")],
                          headers=["Module Name", "Module Type", "Msg"], tablefmt="psql"))
    write("qconfig_info.txt", "\n".join(parts), kind="model_check_result",
          expect={"format": "model_check_result",
                  "tables": ["model_check.layer_out_qconfig", "model_check.weight_qconfig", "model_check.messages"],
                  "findings": {"qconfig.output_not_quantized": ["head.fc"],
                               "qconfig.weight_not_int8": ["head.fc"],
                               "qconfig.fixed_scale": ["attn.sigmoid"],
                               "qconfig.mixed_dtypes": ["stem.pool_add[add]", "attn.scale[mul]"],
                               "qconfig.out_dtype_mismatch": ["stem.conv"],
                               "qconfig.other": ["stem.conv"]},
                  "no_findings": ["qconfig.fixed_input_scale"]})


def model_check_result_clean():
    parts = ["All fusable modules are fused in model!", "Each module called times:",
             tabulate([("quant", 1), ("stem.conv", 1), ("stem.relu", 1), ("attn.softmax", 1), ("head", 1),
                       ("dequant", 1)], headers=["name", "called times"]), ""]
    parts.append("Each layer out qconfig:")
    obs = "MinMaxObserver(averaging_constant=0.01)"
    rows = [
        ("quant", cls(QAT + "stubs.QuantStub"), "[torch.float32]", "['qint8']", "-1", obs),
        ("stem.conv", cls(QAT + "conv2d.Conv2d"), "['qint8']", "[torch.float32]", "activation = None", ""),
        ("stem.relu", cls(QAT + "relu.ReLU"), "[torch.float32]", "['qint8']", "-1", obs),
        ("attn.softmax", cls(QAT + "segment_lut.SegmentLUT"), "['qint8']", "[torch.float16]",
         "fakecast to torch.float16", "FakeCast(dtype=torch.float16, min_val=-3.1, max_val=2.9)"),
        ("head", cls(QAT + "conv2d.Conv2d"), "[torch.float16]", "[torch.float32]", "activation = None", ""),
        ("dequant", cls(QAT + "stubs.DeQuantStub"), "[torch.float32]", "[torch.float32]", "qconfig = None", ""),
    ]
    parts.append(tabulate(rows, headers=["Module Name", "Module Type", "Input dtype", "out dtype", "ch_axis", "observer"],
                          tablefmt="psql"))
    parts.append("Weight qconfig:")
    parts.append(tabulate([("stem.conv", cls(QAT + "conv2d.Conv2d"), "qint8", 0, "MinMaxObserver()"),
                           ("head", cls(QAT + "conv2d.Conv2d"), "qint8", 0, "MinMaxObserver()")],
                          headers=["Module Name", "Module Type", "weight dtype", "ch_axis", "observer"], tablefmt="psql"))
    write("model_check_result_j6.txt", "\n".join(parts) + "\n", kind="model_check_result",
          expect={"format": "model_check_result", "layers": 6,
                  "layer_values": [{"name": "attn.softmax", "output_dtype": "float16"},
                                   {"name": "head", "output_dtype": "float32", "weight_dtype": "int8"}],
                  "no_findings": ["model.output_low_precision", "model.shared_quant_params", "model.unfused",
                                  "model.float_fallback"],
                  "checks_run": ["model.output_low_precision", "model.shared_quant_params", "model.unfused",
                                 "model.float_fallback"]})


COMPARE_HEADERS = ["", "mod_name", "base_op_type", "analy_op_type", "shape", "quant_dtype", "qscale", "Cosine", "MSE",
                   "L1", "KL", "SQNR", "Atol", "Rtol", "base_model_min", "analy_model_min", "base_model_max",
                   "analy_model_max", "base_model_mean", "analy_model_mean", "base_model_var", "analy_model_var",
                   "max_atol_diff", "max_qscale_diff"]


def compare_rows():
    # (name, dtype, qscale, cosine, base range, analysed range, max_qscale_diff)
    layers = [
        ("quant", "qint8", 0.0156, 0.99998, (-1.98, 1.97), (-1.98, 1.97), 0.50),
        ("backbone.conv0", "qint8", 0.0421, 0.99971, (0.0, 5.31), (0.0, 5.30), 0.51),
        ("backbone.conv1", "qint8", 0.0388, 0.99952, (0.0, 4.90), (0.0, 4.88), 0.55),
        ("neck.fuse_add", "qint8", 0.0610, 0.99930, (0.0, 7.74), (0.0, 7.70), 0.62),
        ("head.cls", "qint8", 0.0213, 0.96120, (-8.21, 9.64), (-2.71, 2.70), 44.9),
        ("head.score", "qint8", 0.0079, 0.93010, (-1.00, 1.00), (-0.99, 1.00), 0.71),
        ("head.sigmoid", "qint16", 0.0000305, 0.95330, (0.0, 1.0), (0.0, 1.0), 0.52),
        ("dequant", "torch.float32", "", 0.95330, (0.0, 1.0), (0.0, 1.0), ""),
    ]
    rows = []
    for i, (name, dtype, qs, cosv, base, analy, qdiff) in enumerate(layers):
        mean_b = (base[0] + base[1]) / 4
        rows.append([i, name, "torch.nn.modules.conv.Conv2d" if "conv" in name or "head.c" in name else "torch.nn.Module",
                     "horizon_plugin_pytorch.nn.qat.conv2d.Conv2d", "torch.Size([4, 16, 8, 8])", dtype, qs,
                     cosv, round((1 - cosv) * 3, 7), round((1 - cosv) * 2, 7), round((1 - cosv) / 10, 7),
                     round(10 + cosv * 20, 7), round(qs * 3 if qs != "" else 0.01, 7), 0.01, base[0], analy[0], base[1],
                     analy[1], mean_b, mean_b * 0.98, 1.2, 1.1, round(qs * 45 if qs != "" else 0.1, 7), qdiff])
    return rows, layers


def compare_per_layer():
    rows, layers = compare_rows()
    text = tabulate(rows, headers=COMPARE_HEADERS, tablefmt="psql", floatfmt=".7f", missingval="") + "\n"
    expect = {"format": "compare_per_layer", "tables": ["compare_per_layer"],
              "values": [{"table": "compare_per_layer", "row": 4, "column": "mod_name", "value": "head.cls"},
                         {"table": "compare_per_layer", "row": 4, "column": "COSINE", "value": "0.9612000"},
                         {"table": "compare_per_layer", "row": 7, "column": "qscale", "value": ""}],
              "rows": {"compare_per_layer": len(rows)},
              "findings": {"consistency.similarity_drop": ["head.cls"],
                           "consistency.truncation": ["head.cls"],
                           "consistency.rounding": ["head.score"]},
              "checks_run": ["consistency.similarity_drop", "consistency.truncation", "consistency.rounding"]}
    write("compare_per_layer_out.txt", text, kind="compare_per_layer", expect=expect)

    # The .csv twin: pandas-style, upper-case metric names as OE-Skills quotes them.
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["", "mod_name", "quant_dtype", "qscale", "COSINE", "ATOL", "base_model_min", "base_model_max",
                "analy_model_min", "analy_model_max", "max_qscale_diff"])
    for r in rows:
        w.writerow([r[0], r[1], r[5], r[6], r[7], r[12], r[14], r[16], r[15], r[17], r[23]])
    write("compare_per_layer_out.csv", buf.getvalue(), kind="compare_per_layer",
          expect={"format": "compare_per_layer", "rows": {"compare_per_layer": len(rows)},
                  "findings": {"consistency.similarity_drop": ["head.cls"], "consistency.truncation": ["head.cls"]}})

    # Shorter metric set, columns in another order plus an unknown extra column; a fused
    # intermediate row with empty metric cells and a functional call without mod_name.
    short_headers = ["", "mod_name", "base_op_type", "analy_op_type", "shape", "quant_dtype", "qscale", "Cosine", "L1",
                     "Atol", "max_qscale_diff", "clamp_ratio", "base_model_min", "analy_model_min", "base_model_max",
                     "analy_model_max", "base_model_mean", "analy_model_mean"]
    short = [
        [0, "quant", "QuantStub", "QuantStub", "torch.Size([2, 3, 8, 8])", "qint8", 0.0157, 0.9999812, 0.0019, 0.0078, 0.5, "0.0%", -2.0, -2.0, 1.99, 1.99, 0.0, 0.0],
        [1, "stem.conv", "Conv2d", "Conv2d", "torch.Size([2, 8, 8, 8])", "qint8", "", "", "", "", "", "", -3.1, -3.1, 3.2, 3.2, 0.1, 0.1],
        [2, "stem.relu", "ReLU", "ReLU", "torch.Size([2, 8, 8, 8])", "qint8", 0.0252, 0.9998130, 0.004, 0.0126, 0.5, "0.0%", 0.0, 0.0, 3.2, 3.2, 0.6, 0.6],
        [3, "", "torch.Tensor.topk", "torch.Tensor.topk", "torch.Size([2, 5])", "qint8", 0.0252, 0.9997000, 0.004, 0.0126, 0.5, "0.0%", 0.0, 0.0, 3.2, 3.2, 1.6, 1.6],
    ]
    write("compare_per_layer_short.txt",
          tabulate(short, headers=short_headers, tablefmt="psql", missingval="") + "\n", kind="compare_per_layer",
          expect={"format": "compare_per_layer", "rows": {"compare_per_layer": 4},
                  "values": [{"table": "compare_per_layer", "row": 1, "column": "cosine", "value": ""},
                             {"table": "compare_per_layer", "row": 3, "column": "mod_name", "value": ""},
                             {"table": "compare_per_layer", "row": 3, "column": "clamp_ratio", "value": "0.0%"}],
                  "no_findings": ["consistency.similarity_drop", "consistency.truncation", "consistency.rounding"],
                  "checks_run": ["consistency.similarity_drop", "consistency.truncation"]})

    # Only the metrics; the ranges are missing: similarity still works, the range checks say so.
    minimal = [[i, r[1], r[5], r[7]] for i, r in enumerate(rows)]
    write("compare_per_layer_no_ranges.txt",
          tabulate(minimal, headers=["", "mod_name", "quant_dtype", "Cosine"], tablefmt="psql") + "\n",
          kind="compare_per_layer",
          expect={"format": "compare_per_layer", "warnings": ["column 'base_model_min' not found"],
                  "findings": {"consistency.similarity_drop": ["head.cls"]},
                  "no_findings": ["consistency.truncation"]})

    # Chinese module names: tabulate pads them by display width (wcwidth).
    zh = [[0, "输入量化", "qint8", 0.9999, -1.0, -1.0, 1.0, 1.0],
          [1, "主干.卷积1", "qint8", 0.9996, 0.0, 0.0, 4.0, 3.98],
          [2, "检测头.分类", "qint8", 0.9100, -6.0, -6.0, 6.0, 5.97],
          [3, "dequant", "torch.float32", 0.9100, -6.0, -6.0, 6.0, 5.97]]
    write("compare_per_layer_zh.txt",
          tabulate(zh, headers=["", "mod_name", "quant_dtype", "Cosine", "base_model_min", "analy_model_min",
                                "base_model_max", "analy_model_max"], tablefmt="psql") + "\n",
          kind="compare_per_layer",
          expect={"format": "compare_per_layer",
                  "values": [{"table": "compare_per_layer", "row": 2, "column": "mod_name", "value": "检测头.分类"},
                             {"table": "compare_per_layer", "row": 2, "column": "base_model_max", "value": "6"}],
                  "findings": {"consistency.similarity_drop": ["检测头.分类"], "consistency.rounding": ["检测头.分类"]}})

    # Damaged: cut in the middle of a row, no closing border.
    lines = text.splitlines()
    cut = "\n".join(lines[:8]) + "\n" + lines[8][: len(lines[8]) // 2] + "\n"
    write("compare_per_layer_truncated.txt", cut, kind="compare_per_layer",
          expect={"format": "compare_per_layer", "rows": {"compare_per_layer": 5},
                  "warnings": ["ends without its closing '|'", "ends without its closing border"],
                  "findings": {"consistency.similarity_drop": ["head.cls"]}})


def sensitivity():
    rows = [("head.cls", "activation", cls(QAT + "conv2d.Conv2d"), 0.0364, "qint8", "36720(31.20%)"),
            ("neck.fuse_add", "activation", cls(QAT + "functional_modules.FloatFunctional"), 0.0121, "qint8", "0(0%)"),
            ("head.cls", "weight", cls(QAT + "conv2d.Conv2d"), 0.0087, "qint8", "36720(31.20%)"),
            ("backbone.conv0", "weight", cls(QAT + "conv2d.Conv2d"), 0.0011, "qint8", "13824(11.75%)"),
            ("quant", "activation", cls(QAT + "stubs.QuantStub"), 0.0, "qint8", "0(0%)")]
    write("output_pred_logits_L1_sensitive_ops.txt",
          tabulate(rows, headers=["op_name", "sensitive_type", "op_type", "L1", "quant_dtype", "flops"]) + "\n",
          kind="sensitive_ops",
          expect={"format": "sensitive_ops", "rows": {"sensitivity": 5},
                  "values": [{"table": "sensitivity", "row": 0, "column": "L1", "value": "0.0364"},
                             {"table": "sensitivity", "row": 4, "column": "flops", "value": "0(0%)"}],
                  "findings": {"consistency.sensitive_ops": ["head.cls", "neck.fuse_add"]}})
    # Chinese op names in the simple layout (columns found by display width).
    zh = [("检测头.分类卷积", "activation", "Conv2d", 0.0364, "qint8"),
          ("融合加法", "activation", "FloatFunctional", 0.0121, "qint8"),
          ("stem", "weight", "Conv2d", 0.0, "qint8")]
    write("output_zh_ATOL_sensitive_ops.txt",
          tabulate(zh, headers=["op_name", "sensitive_type", "op_type", "ATOL", "quant_dtype"]) + "\n",
          kind="sensitive_ops",
          expect={"format": "sensitive_ops",
                  "values": [{"table": "sensitivity", "row": 1, "column": "op_name", "value": "融合加法"},
                             {"table": "sensitivity", "row": 1, "column": "ATOL", "value": "0.0121"},
                             {"table": "sensitivity", "row": 0, "column": "op_type", "value": "Conv2d"}],
                  "findings": {"consistency.sensitive_ops": ["检测头.分类卷积"]}})


def statistic():
    rows = [(0, "quant", "quant", "input", "torch.float32", "", -2.0, 1.99, 0.01, 0.33, "torch.Size([2, 3, 8, 8])"),
            (0, "quant", "quant", "output", "qint8", 0.0157, -2.0, 1.99, 0.01, 0.33, "torch.Size([2, 3, 8, 8])"),
            (1, "backbone.conv0", "backbone.conv0", "weight", "qint8", 0.0031, -0.39, 0.38, 0.0, 0.01, "torch.Size([8, 3, 3, 3])"),
            (1, "backbone.conv0", "backbone.conv0", "output", "qint8", 0.0421, 0.0, 5.31, 0.8, 1.1, "torch.Size([2, 8, 8, 8])"),
            (2, "attn.div", "attn", "output", "qint16", 0.0001, float("-inf"), float("inf"), float("nan"), float("nan"), "torch.Size([2, 4, 16])"),
            (3, "head.cls", "head.cls", "output", "qint8", 0.0213, -8.2, 9.6, 0.2, 2.5, "torch.Size([2, 5, 4, 4])")]
    write("statistic.txt", tabulate(rows, headers=["Index", "Op Name", "Mod Name", "Attr", "Dtype", "Scale", "Min",
                                                   "Max", "Mean", "Var", "Shape"], tablefmt="psql") + "\n",
          kind="statistic",
          expect={"format": "statistic", "rows": {"statistic": 6},
                  "values": [{"table": "statistic", "row": 4, "column": "Max", "value": "inf"}],
                  "findings": {"statistic.nonfinite": ["attn.div"]}})
    old = [(0, "quant", cls(QAT + "stubs.QuantStub"), "input", -2.0, 1.99, 0.01, 0.33, "", "torch.float32"),
           (0, "quant", cls(QAT + "stubs.QuantStub"), "output", -2.0, 1.99, 0.01, 0.33, 0.0157, "qint8"),
           (1, "conv", cls(QAT + "conv2d.Conv2d"), "input-0", -2.0, 1.99, 0.01, 0.33, 0.0157, "qint8"),
           (1, "conv", cls(QAT + "conv2d.Conv2d"), "output", 0.0, 5.3, 0.8, 1.1, 0.0421, "qint8")]
    headers = ["Module Index", "Module Name", "Module Type", "Input/Output/Attr", "Min", "Max", "Mean", "Var", "Scale",
               "Dtype"]
    by_range = sorted(old, key=lambda r: r[5] - r[4], reverse=True)
    text = (tabulate(old, headers=headers, tablefmt="psql") + "\n\nStatistics sorted by range:\n"
            + tabulate(by_range, headers=headers, tablefmt="psql") + "\n")
    write("statistic_profile_featuremap.txt", text, kind="statistic",
          expect={"format": "statistic", "table_count": {"statistic": 2}, "no_findings": ["statistic.nonfinite"],
                  "checks_run": ["statistic.nonfinite"]})
    # Damaged: a row missing cells and a row with too many.
    lines = tabulate(rows[:4], headers=["Index", "Op Name", "Mod Name", "Attr", "Dtype", "Scale", "Min", "Max", "Mean",
                                        "Var", "Shape"], tablefmt="psql").splitlines()
    lines[4] = lines[4][: lines[4].rfind("|", 0, len(lines[4]) - 1) - 30].rstrip() + " |"
    lines[5] = lines[5] + " 7 | extra |"
    write("statistic_ragged.txt", "\n".join(lines) + "\n", kind="statistic",
          expect={"format": "statistic", "rows": {"statistic": 4},
                  "warnings": ["missing cells left empty", "extra cells dropped"]})


def similarity():
    banner = "-" * 63
    note = "\n".join([banner, "Note:", "* Suffix '(I)' means this layer is Identity in one model",
                      "* Suffix '(I vs I)' means this layer is Identity in both models",
                      "* Suffix '(i)'(i >= 1) means this op is shared i times", banner])
    headers = ["Index", "Module Name", "Module Type", "Similarity", "qscale", "Acc Error\n(float atol)",
               "Acc Error\n(N out_qscale)", "Op Error with Same\nInput (N out_qscale)"]
    rows = [(0, "quant", cls(QAT + "stubs.QuantStub"), 0.9999991, 0.0156250, 0.0078125, 0, 0),
            (1, "backbone.conv0", cls(QAT + "conv2d.Conv2d"), 0.9998870, 0.0421000, 0.0421000, 1, 1),
            (2, "backbone.act(I)", cls("torch.nn.modules.linear.Identity"), 0.9998870, "", 0.0421000, 1, 0),
            (3, "neck.lut.reciprocal", cls(QAT + "segment_lut.SegmentLUT"), 0.9712000, 0.0000610, 0.9830000, 16113, 16102),
            (4, "neck.lut.reciprocal(1)", cls(QAT + "segment_lut.SegmentLUT"), 0.9690000, 0.0000610, 1.0100000, 16557, 9),
            (5, "dequant", cls(QAT + "stubs.DeQuantStub"), 0.9690000, "", 1.0100000, 0, 0)]
    text = note + "\n" + tabulate(rows, headers=headers, tablefmt="psql", floatfmt=".7f") + "\n"
    write("similarity.txt", text, kind="similarity",
          expect={"format": "similarity", "rows": {"similarity": 6},
                  "columns": {"similarity": ["Acc Error (float atol)", "Op Error with Same Input (N out_qscale)"]},
                  "values": [{"table": "similarity", "row": 3, "column": "Module Name", "value": "neck.lut.reciprocal"},
                             {"table": "similarity", "row": 2, "column": "qscale", "value": ""}],
                  "findings": {"consistency.similarity_drop": ["neck.lut.reciprocal"]}})
    write("similarity_empty.txt", "", kind="similarity", expect={"error": "similarity_empty.txt: the file is empty"})


def weights_and_devices():
    rows = [("backbone.conv0.weight", 0.9999981, 0.0015624), ("head.cls.weight", 0.9993120, 0.0106000)]
    write("weight_comparison.txt", tabulate(rows, headers=["Weight Name", "Similarity", "Atol"], tablefmt="psql",
                                            floatfmt=".7f") + "\n", kind="weight_comparison",
          expect={"format": "weight_comparison", "rows": {"weight_comparison": 2},
                  "values": [{"table": "weight_comparison", "row": 1, "column": "atol", "value": "0.0106000"}],
                  "checks_run": ["weights.unchanged", "weights.drifted"],
                  "no_findings": ["weights.unchanged", "weights.drifted"]})
    # calibration vs QAT checkpoints whose weights never moved; the old docs' spelling of the name
    same = [("backbone.conv0.weight", 1.0, 0.0), ("backbone.conv0.bias", 1.0, 0.0), ("head.cls.weight", 1.0, 0.0)]
    write("weight_comparsion.txt", tabulate(same, headers=["Weight Name", "Similarity", "Atol"], tablefmt="psql",
                                            floatfmt=".7f", numalign="left"), kind="weight_comparison",
          expect={"format": "weight_comparison", "rows": {"weight_comparison": 3},
                  "findings": {"weights.unchanged": ["backbone.conv0.weight"]}, "no_findings": ["weights.drifted"]})
    far = [("backbone.conv0.weight", 0.9999912, 0.0010000), ("head.cls.weight", 0.8123456, 0.4200000)]
    write("weight_comparison_drift.txt", tabulate(far, headers=["Weight Name", "Similarity", "Atol"],
                                                  tablefmt="psql", floatfmt=".7f", numalign="left"),
          kind="weight_comparison",
          expect={"format": "weight_comparison", "findings": {"weights.drifted": ["head.cls.weight"]},
                  "no_findings": ["weights.unchanged"]})
    dev = [("quant", "BPU", "module"), ("backbone.conv0", "BPU", "module"), ("head.topk", "CPU", "method"),
           ("head.nms", "CPU", "function"), ("dequant", "BPU", "module")]
    write("deploy_device.txt", tabulate(dev, headers=["name", "deploy device", "type"]) + "\n", kind="deploy_device",
          expect={"format": "deploy_device", "rows": {"deploy_device": 5},
                  "findings": {"model.cpu_fallback": ["head.topk", "head.nms"]}})
    # as check_deploy_device writes it: the stubs (and the dequantizers fx inserts) are always on
    # the CPU, where the model enters and leaves the BPU; only head.nms fell back
    real = [("quant", "CPU", "module"), ("backbone.conv0", "BPU", "module"), ("backbone.act", "BPU", "module"),
            ("prelu_input_dequant", "CPU", "module"), ("head.nms", "CPU", "function"), ("add_1", "BPU", "method"),
            ("dequant", "CPU", "module")]
    write("deploy_device_stubs.txt", tabulate(real, headers=["name", "deploy device", "type"]),
          kind="deploy_device",
          expect={"format": "deploy_device", "rows": {"deploy_device": 7},
                  "findings": {"model.cpu_fallback": ["head.nms"]},
                  "evidence_excludes": {"model.cpu_fallback": ["quant", "dequant", "prelu_input_dequant"]}})
    rng = random.Random(7)
    junk = bytes(rng.randrange(256) for _ in range(600)) + b"\x00\x00name  deploy device\n"
    with open(os.path.join(OUT, "deploy_device_binary.txt"), "wb") as f:
        f.write(junk)
    MANIFEST.append({"file": "deploy_device_binary.txt", "kind": "deploy_device",
                     "expect": {"error": "deploy_device_binary.txt: binary data at byte"}})
    write("compare_per_layer_notes.txt", "Ran compare_per_layer on the calib model.\nNo table here, just notes.\n",
          kind="compare_per_layer",
          expect={"error": "compare_per_layer_notes.txt: no compare_per_layer table found (expected columns 'mod_name')"})
    write("model_check_result_garbage.txt", "Traceback (most recent call last):\n  File \"train.py\", line 3\n",
          kind="model_check_result", expect={"error": "model_check_result_garbage.txt: no model_check_result sections found"})


def fixed_width(rows, headers, title=""):
    """A table as horizon_nn's printer lays it out: each column as wide as its longest cell + 2,
    left-aligned; the first at most 50 wide, longer names cut at the front to '...' + the last 47;
    a '=' line with the title centred, the header, one '-' rule, the rows."""
    def cut(v):
        v = str(v)
        return v if len(v) <= 50 else "..." + v[-47:]
    rows = [[cut(r[0])] + [str(c) for c in r[1:]] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) + 2 for i, h in enumerate(headers)]
    widths[0] = min(max(widths[0], 10), 52)
    total = sum(widths)
    line = lambda cells: "".join(str(c).ljust(w) for c, w in zip(cells, widths))
    side = (total - len(title)) // 2
    return "\n".join(["=" * side + title + "=" * side, line(headers), "-" * total] + [line(r) for r in rows])


def mapper_logs():
    """hb_mapper checker (2023: Node ON Subgraph Type) and makertbin (1.24: with Cosine Similarity,
    Threshold, DataType, '--' placeholders) logs; the description line carries the log prefix, the
    table lines do not. Two CPU nodes sit between BPU nodes in each."""
    stamp = "2026-11-30 09:14:%02d,%03d INFO "
    rows = [("images", "BPU", "id(0)", "HzSQuantizedPreprocess"),
            ("/backbone/stem/conv/Conv", "BPU", "id(0)", "HzSQuantizedConv"),
            ("/backbone/stem/act/Mul", "BPU", "id(0)", "HzLut"),
            ("/neck/attn/Softmax", "CPU", "--", "Softmax"),
            ("/neck/attn/MatMul", "BPU", "id(1)", "HzSQuantizedMatmul"),
            ("/neck/attn/Reshape_3", "CPU", "--", "Reshape"),
            ("/head/cls/Conv", "BPU", "id(2)", "HzSQuantizedConv"),
            ("/head/post/TopK", "CPU", "--", "TopK")]
    checker = "\n".join([stamp % (1, 204) + "Start hb_mapper....", stamp % (1, 205) + "hb_mapper version 1.16.2",
                         stamp % (3, 877) + "End model checking....",
                         stamp % (3, 880) + "The converted model node information:",
                         fixed_width(rows, ["Node", "ON", "Subgraph", "Type"]),
                         stamp % (3, 881) + "The converted model output:"]) + "\n"
    write("hb_mapper_checker.log", checker, kind="hb_mapper_nodes",
          expect={"format": "hb_mapper_nodes", "rows": {"hb_mapper_nodes": 8},
                  "values": [{"table": "hb_mapper_nodes", "row": 3, "column": "Subgraph", "value": "--"}],
                  "findings": {"mapper.cpu_split": ["/neck/attn/Softmax", "/neck/attn/Reshape_3"]},
                  "evidence_excludes": {"mapper.cpu_split": ["/head/post/TopK"]}})
    long = "/backbone/stage2/blocks.1/attn/Split_output_0_calibrated_Requantize"
    mk = [("images", "BPU", "id(0)", "HzSQuantizedPreprocess", "0.999912", "127.0", "int8"),
          ("/backbone/stage1/conv/Conv", "BPU", "id(0)", "HzSQuantizedConv", "0.998104", "3.81562", "int8"),
          (long, "BPU", "id(0)", "HzRequantize", "--", "--", "int8"),
          ("/backbone/stage2/attn/Softmax", "CPU", "--", "Softmax", "--", "--", "float"),
          ("/backbone/stage2/attn/MatMul_1", "BPU", "id(1)", "HzSQuantizedMatmul", "0.990377", "9.20771", "int16"),
          ("/head/reg/Conv", "BPU", "id(1)", "HzSQuantizedConv", "0.986520", "14.0913", "int8")]
    out = [("output0", "0.991234", "0.118220", "0.000610", "2.417770")]
    makertbin = "\n".join([stamp % (9, 11) + "Start Model Convert....",
                           "2026-11-30 09:15:20,004 file: print_info_dict.py func: print_info_dict line No: 72 "
                           "The main quantized node information:",
                           fixed_width(mk, ["Node", "ON", "Subgraph", "Type", "Cosine Similarity", "Threshold",
                                            "DataType"]),
                           "2026-11-30 09:15:20,006 file: print_info_dict.py func: print_info_dict line No: 72 "
                           "The quantized model output:",
                           fixed_width(out, ["Output", "Cosine Similarity", "L1 Distance", "L2 Distance",
                                             "Chebyshev Distance"]),
                           stamp % (21, 500) + "End Model Convert"]) + "\n"
    write("hb_mapper_makertbin.log", makertbin, kind="hb_mapper_nodes",
          expect={"format": "hb_mapper_nodes", "rows": {"hb_mapper_nodes": 6},
                  "values": [{"table": "hb_mapper_nodes", "row": 2, "column": "Node", "value": "..." + long[-47:]},
                             {"table": "hb_mapper_nodes", "row": 4, "column": "Cosine Similarity", "value": "0.990377"}],
                  "findings": {"mapper.cpu_split": ["/backbone/stage2/attn/Softmax"]}})
    sens = [("/head/reg/Conv", "0.91823", "0.05121"), ("/backbone/stage2/attn/MatMul_1", "0.97112", "0.02034"),
            ("/backbone/stage1/conv/Conv", "0.99651", "0.00212"), ("images", "0.99990", "0.00011")]
    write("sensitivity_of_node.log", fixed_width(sens, ["Node", "cosine-similarity", "mse"], "node") + "\n",
          kind="node_sensitivity",
          expect={"format": "node_sensitivity", "rows": {"node_sensitivity": 4},
                  "findings": {"ptq.sensitive_nodes": ["/head/reg/Conv", "/backbone/stage2/attn/MatMul_1"]}})


def qconfig_setter():
    """QconfigSetter's save_dir files. Their layout is not published (see faq/README.md): these use
    the forms the reader accepts, the dict dumped as a Python literal with bare dtype names and the
    change log one change per line in the wordings listed there."""
    dtypes = "\n".join([
        "# QconfigSetter: configured dtypes per module (input / weight / output)",
        "qconfig_dtypes = {",
        "    'quant': {'input': [torch.float32], 'output': qint8},",
        "    'backbone.conv0': {'input': [qint8], 'weight': qint8, 'output': qint8},",
        "    'neck.lateral.0': {'input': [qint8], 'weight': qint8, 'output': qint16},",
        "    'merge_add': {'input': (qint16, qint8), 'output': qint16},",
        "    \"head.reg\": {\"input\": [\"qint8\"], \"weight\": \"qint16\", \"output\": \"qint16\"},",
        "    'dequant': {'input': [qint16], 'output': None},",
        "}", ""])
    write("qconfig_dtypes.pt.py", dtypes, kind="qconfig_dtypes",
          expect={"format": "qconfig_dtypes", "layers": 6, "rows": {"qconfig_dtypes": 6},
                  "layer_values": [{"name": "neck.lateral.0", "output_dtype": "int16", "weight_dtype": "int8"},
                                   {"name": "merge_add", "input_dtypes": ["int16", "int8"], "output_dtype": "int16"},
                                   {"name": "head.reg", "weight_dtype": "int16"},
                                   {"name": "dequant", "output_dtype": "float32"}]})
    write("qconfig_dtypes_call.pt.py", "qconfig_dtypes = {\n    'conv': __import__('os').system('ls'),\n}\n",
          kind="qconfig_dtypes",
          expect={"error": "qconfig_dtypes_call.pt.py:2: a call (__import__(...)) is not a literal"})
    write("qconfig_dtypes_cut.pt.py", "{\n    'conv': {'input': [qint8], 'output': qint16},\n    'fc': {'in",
          kind="qconfig_dtypes", expect={"error": "qconfig_dtypes_cut.pt.py:3: a string is not closed"})
    changes = "\n".join([
        "neck.lateral.0: output qint16 -> qint8 (conv+add fused: the conv takes no int16 input)",
        "merge_add input qint16 -> qint8, reason: input shared with neck.lateral.0",
        "[head.cls] weight_dtype: qint8 => qint16",
        "template DefaultTemplate applied",
        ""])
    write("qconfig_changelogs.txt", changes, kind="qconfig_changelog",
          expect={"format": "qconfig_changelog", "rows": {"qconfig_changelog": 3},
                  "values": [{"table": "qconfig_changelog", "row": 0, "column": "reason",
                              "value": "conv+add fused: the conv takes no int16 input"},
                             {"table": "qconfig_changelog", "row": 1, "column": "field", "value": "input"},
                             {"table": "qconfig_changelog", "row": 2, "column": "module", "value": "head.cls"}],
                  "warnings": ["qconfig_changelogs.txt:4: not a change"],
                  "findings": {"qconfig.int16_fallback": ["neck.lateral.0", "merge_add"]},
                  "evidence_excludes": {"qconfig.int16_fallback": ["head.cls"]}})


def main():
    os.makedirs(OUT, exist_ok=True)
    model_check_result()
    qconfig_info()
    model_check_result_clean()
    compare_per_layer()
    sensitivity()
    statistic()
    similarity()
    weights_and_devices()
    mapper_logs()
    qconfig_setter()
    with open(os.path.join(OUT, "MANIFEST.json"), "w", encoding="utf-8") as f:
        json.dump({"generator": "tests/gen/make_toolchain.py (Debian python3-tabulate)", "files": MANIFEST}, f,
                  ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
