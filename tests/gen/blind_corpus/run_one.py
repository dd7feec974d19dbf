import os, sys, time, json, importlib
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
mod = importlib.import_module(sys.argv[1])
names = sys.argv[2:]
for fn in mod.CASES:
    if names and not any(n in fn.__name__ for n in names):
        continue
    t0 = time.time()
    e = fn()
    print(json.dumps(e)[:600], "%.1fs" % (time.time() - t0), flush=True)
