#!/usr/bin/python3
"""Writes the checkpoint benchmark's inputs with python3-torch: two QAT-style state_dicts of
about 500 MB each (100 conv layers of 512x256x3x3 with per-channel weight fake quant and an
output quantizer with its observer, as prepare_qat names them), the second one after a small
update of every weight (a QAT step), so a diff has every weight to measure.

  usage: make_checkpoint_bench.py OUT_DIR [LAYERS]    -> OUT_DIR/bench_calib.pt, bench_qat.pt
"""
import collections
import os
import sys

import torch


def state_dict(layers, generator):
    sd = collections.OrderedDict()
    for i in range(layers):
        p = f"backbone.block{i}.conv"
        sd[p + ".weight"] = torch.randn(512, 256, 3, 3, generator=generator)
        sd[p + ".bias"] = torch.randn(512, generator=generator)
        q = p + ".weight_fake_quant"
        sd[q + ".fake_quant_enabled"] = torch.tensor([1], dtype=torch.uint8)
        sd[q + ".observer_enabled"] = torch.tensor([1], dtype=torch.uint8)
        sd[q + ".scale"] = torch.rand(512, generator=generator) * 0.01 + 1e-4
        sd[q + ".zero_point"] = torch.zeros(512, dtype=torch.int32)
        sd[q + ".activation_post_process.eps"] = torch.tensor([1.1920929e-07])
        sd[q + ".activation_post_process.min_val"] = -torch.rand(512, generator=generator)
        sd[q + ".activation_post_process.max_val"] = torch.rand(512, generator=generator)
        a = p + ".activation_post_process"
        sd[a + ".fake_quant_enabled"] = torch.tensor([1], dtype=torch.uint8)
        sd[a + ".observer_enabled"] = torch.tensor([1], dtype=torch.uint8)
        sd[a + ".scale"] = torch.tensor([0.02])
        sd[a + ".zero_point"] = torch.tensor([128], dtype=torch.int32)
        sd[a + ".activation_post_process.eps"] = torch.tensor([1.1920929e-07])
        sd[a + ".activation_post_process.min_val"] = torch.tensor(-2.5)
        sd[a + ".activation_post_process.max_val"] = torch.tensor(2.6)
    return sd


def main():
    out = sys.argv[1]
    layers = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    os.makedirs(out, exist_ok=True)
    g = torch.Generator().manual_seed(3)
    sd = state_dict(layers, g)
    torch.save(sd, os.path.join(out, "bench_calib.pt"))
    for k, v in sd.items():
        if k.endswith(".weight") or k.endswith(".bias"):
            v.add_(torch.randn(v.shape, generator=g) * 1e-3)
    torch.save(sd, os.path.join(out, "bench_qat.pt"))


if __name__ == "__main__":
    main()
