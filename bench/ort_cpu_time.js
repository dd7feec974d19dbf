#!/usr/bin/env node
// ONNX Runtime's CPU time per inference (user + sys of this process, process.cpuUsage), next to
// its wall time: on a shared, loaded machine CPU time is the figure to compare against
// simulate_bench's own CPU time. Run from the folder where onnxruntime-node is installed.
//
// usage: node ort_cpu_time.js MODEL.onnx [--threads 1] [--opt all|disabled] [--runs 20] [--warmup 3] [--input IN.bin]
// Prints one JSON line: {"opt", "threads", "cpu_ms_median", "wall_ms_median", "wall_ms_min"}.
'use strict';
const fs = require('fs');
const ort = require(require.resolve('onnxruntime-node', { paths: [process.cwd(), __dirname] }));

const a = { model: null, threads: 1, opt: 'all', runs: 20, warmup: 3, input: null };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const k = argv[i];
  if (k === '--threads') a.threads = Number(argv[++i]);
  else if (k === '--opt') a.opt = argv[++i];
  else if (k === '--runs') a.runs = Number(argv[++i]);
  else if (k === '--warmup') a.warmup = Number(argv[++i]);
  else if (k === '--input') a.input = argv[++i];
  else a.model = k;
}
const median = (xs) => { const s = [...xs].sort((p, q) => p - q); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function main() {
  const session = await ort.InferenceSession.create(a.model, {
    intraOpNumThreads: a.threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: a.opt,
    executionProviders: ['cpu'] });
  const shape = session.inputMetadata && session.inputMetadata[0] && session.inputMetadata[0].shape
    ? session.inputMetadata[0].shape.map((d) => (typeof d === 'number' ? d : 1)) : [1, 3, 224, 224];
  const n = shape.reduce((p, q) => p * q, 1);
  let data = new Float32Array(n);
  if (a.input) { const b = fs.readFileSync(a.input); data = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); }
  else for (let i = 0; i < n; i++) data[i] = Math.sin(i * 0.37);
  const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', data, shape) };
  for (let i = 0; i < a.warmup; i++) await session.run(feeds);
  const cpu = [], wall = [];
  for (let i = 0; i < a.runs; i++) {
    const c0 = process.cpuUsage(), t0 = performance.now();
    await session.run(feeds);
    const t1 = performance.now(), c1 = process.cpuUsage(c0);
    wall.push(t1 - t0);
    cpu.push((c1.user + c1.system) / 1000);
  }
  console.log(JSON.stringify({ opt: a.opt, threads: a.threads, cpu_ms_median: median(cpu), wall_ms_median: median(wall),
                               wall_ms_min: Math.min(...wall) }));
}
main().catch((e) => { console.error(e); process.exit(1); });
