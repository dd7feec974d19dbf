"""Train every case's pipeline (and variants) for real; cache the numbers in gen/cache/."""
import os
import pickle
import sys
import time
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
CACHE = os.path.join(HERE, "cache")


def job(arg):
    cid, vname, cfg = arg
    import warnings
    warnings.filterwarnings("ignore")
    import core
    t = time.time()
    r = core.run_pipeline(cfg)
    for k in ("float_state", "calib_state"):
        r.pop(k, None)
    r["cfg"] = cfg
    r["seconds"] = time.time() - t
    with open(os.path.join(CACHE, f"{cid}.{vname}.pkl"), "wb") as f:
        pickle.dump(r, f)
    return cid, vname, r["seconds"], core.summary(r)


def main():
    import cases
    os.makedirs(CACHE, exist_ok=True)
    only = set(sys.argv[1:])
    jobs = []
    for cid, c in cases.CASES.items():
        if only and cid not in only:
            continue
        jobs.append((cid, "main", c["cfg"]))
        for vname, m in c["variants"].items():
            jobs.append((cid, vname, cases.mod(c["cfg"], **m)))
    t = time.time()
    with Pool(2) as p:
        for cid, v, sec, s in p.imap_unordered(job, jobs):
            print(f"{cid:24s} {v:5s} {sec:5.1f}s {s}", flush=True)
    print(f"trained {len(jobs)} pipelines in {time.time() - t:.0f}s")


if __name__ == "__main__":
    main()
