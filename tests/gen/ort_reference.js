#!/usr/bin/env node
// ONNX Runtime (CPU, npm onnxruntime-node) reference outputs for the fixed-point agreement
// tests: runs each QDQ model of tests/data/models on its committed input and writes
// MODEL.ort_<opt>.npy (float32). Run once, commit the outputs; tests never need node.
//
//   cd /tmp && npm install --ignore-scripts onnxruntime-node
//   cd /tmp && node /path/to/tests/gen/ort_reference.js
//
// Writes one file per graph optimisation level that loads: 'all' fuses QDQ into int8 kernels
// (refused for torch 1.13's [1]-shaped scales), 'basic' folds constants only, 'disabled' runs
// QuantizeLinear/DequantizeLinear and float ops as written.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require(require.resolve('onnxruntime-node', { paths: [process.cwd(), __dirname] }));

const DIR = path.resolve(__dirname, '..', 'data', 'models');
const MODELS = ['qat_qdq', 'qat_qdq_bn', 'wild/retina_qdq', 'wild/pow2_qdq', 'wild/qop_residual', 'wild/qop_residual_taps',
  'other/dyn_mlp', 'other/dyn_cnn', 'other/qgemm_dynamic', 'other/avgpool_include_pad', 'other/avgpool_ties'];
// only these for `node ort_reference.js other/dyn_mlp ...`
const ONLY = process.argv.slice(2);

function readNpyF32(file) {
  const b = fs.readFileSync(file);
  const headerLen = b.readUInt16LE(8);
  const header = b.toString('latin1', 10, 10 + headerLen);
  if (!header.includes("'<f4'")) throw new Error(`${file}: not float32`);
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').filter((s) => s.trim()).map(Number);
  const data = new Float32Array(b.buffer.slice(b.byteOffset + 10 + headerLen, b.byteOffset + b.length));
  return { shape, data };
}

function writeNpyF32(file, shape, data) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((10 + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

async function main() {
  for (const name of MODELS.filter((m) => ONLY.length === 0 || ONLY.includes(m))) {
    const x = readNpyF32(path.join(DIR, `${name}.input_0.npy`));
    for (const opt of ['all', 'basic', 'disabled']) {
      let s;
      try {
        s = await ort.InferenceSession.create(path.join(DIR, `${name}.onnx`),
          // x64quantprecision: exact u8 x s8 products on x86 without VNNI (the default kernels add
          // pairs of products in saturating int16, which full-range int8 weights overflow); it is
          // a graph transformer's setting, so only the 'all' outputs have it
          { graphOptimizationLevel: opt, intraOpNumThreads: 1, executionProviders: ['cpu'],
            extra: { session: { x64quantprecision: '1' } } });
      } catch (e) {   // torch 1.13's [1]-shaped qparams: ORT's QDQ fusion refuses them
        console.log(`${name} opt=${opt}: not loadable (${String(e.message).split('\n')[0]})`);
        continue;
      }
      const out = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', x.data, x.shape) });
      const y = out[s.outputNames[0]];
      const file = path.join(DIR, `${name}.ort_${opt}.npy`);
      writeNpyF32(file, y.dims, y.data);
      console.log(`${file}: ${y.dims} (onnxruntime ${ort.env.versions.common})`);
      // the further outputs of a taps model (every op's codes), as float32 values of the codes
      if (name.endsWith('_taps') && opt === 'disabled')
        for (const o of s.outputNames.slice(1)) {
          const t = out[o];
          writeNpyF32(path.join(DIR, `${name}.ort_${opt}.${o}.npy`), t.dims, Float32Array.from(t.data));
        }
      await s.release();
    }
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
