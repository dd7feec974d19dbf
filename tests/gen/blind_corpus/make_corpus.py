#!/usr/bin/python3
"""Build the blind corpus: run every case generator (real torch training), write the case folders under
../cases/ and ../MANIFEST.json.

    /usr/bin/python3 make_corpus.py [--jobs 2] [--only SUBSTR ...] [--keep]

Each generator trains its own tiny model (float -> calibration -> QAT -> int8 with torch.ao), checks that the
planted problem really shows in the measured numbers (PlantCheckFailed otherwise) and renders the numbers in
its layout.  Deterministic: fixed seeds, one torch thread per process.
"""
import argparse
import glob
import importlib
import json
import os
import shutil
import sys
import time
import traceback
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# in the repository: the cases and their manifest in tests/data/diagnosis_blind
BATCH = os.path.join(os.path.dirname(os.path.dirname(HERE)), "data", "diagnosis_blind")
MODULES = ["cases_mm", "cases_tv", "cases_hf", "cases_pl", "cases_timm", "cases_hat", "cases_misc"]


def all_cases():
    out = []
    for m in MODULES:
        mod = importlib.import_module(m)
        for fn in mod.CASES:
            out.append((m, fn.__name__))
    return out


def run_case(arg):
    modname, fname = arg
    import warnings
    warnings.filterwarnings("ignore")
    mod = importlib.import_module(modname)
    t0 = time.time()
    try:
        e = getattr(mod, fname)()
        e["_seconds"] = round(time.time() - t0, 1)
        return e
    except Exception:
        return {"_error": traceback.format_exc(), "_case": fname}


def sanity(root):
    """Every JSON file parses, every event file reads back with valid CRCs."""
    import tfevents
    bad = []
    for p in glob.glob(os.path.join(root, "**", "*"), recursive=True):
        if os.path.isdir(p):
            continue
        name = os.path.basename(p)
        try:
            if name.endswith(".json") and "scalars" not in name and not name[:8].isdigit():
                json.load(open(p))
            elif name.endswith(".json"):
                for line in open(p):
                    if line.strip():
                        json.loads(line)
            elif name == "log.txt" and "output" in p:
                for line in open(p):
                    json.loads(line)
            elif name.startswith("events.out.tfevents"):
                tfevents.read_events(p)
        except Exception as ex:
            bad.append((p, str(ex)))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--keep", action="store_true", help="keep existing case folders and manifest entries")
    a = ap.parse_args()
    cases = all_cases()
    if a.only:
        cases = [c for c in cases if any(s in c[1] for s in a.only)]
    cases_root = BATCH
    man_path = os.path.join(BATCH, "MANIFEST.source.json")
    old = {}
    if a.keep and os.path.exists(man_path):
        old = {c["id"]: c for c in json.load(open(man_path))["cases"]}
    if not a.keep and not a.only and os.path.isdir(cases_root):
        for d in glob.glob(os.path.join(cases_root, "c[0-9]*_*")):
            shutil.rmtree(d)
    for m, fn in cases:
        cid = fn.split("_", 1)[0]
        for d in glob.glob(os.path.join(cases_root, cid + "_*")):
            shutil.rmtree(d)
    t0 = time.time()
    with Pool(a.jobs) as pool:
        results = pool.map(run_case, cases, chunksize=1)
    errors = [r for r in results if "_error" in r]
    for r in errors:
        print("FAILED", r["_case"], "\n", r["_error"], file=sys.stderr)
    entries = dict(old)
    for r in results:
        if "_error" not in r:
            r.pop("_seconds", None)
            entries[r["id"]] = r
    import torch
    man = {"corpus": "qatdoctor blind batch1",
           "generated_by": "gen/make_corpus.py",
           "torch": torch.__version__,
           "note": "every number below was measured on a real torch.ao float/calibration/QAT/int8 run of a tiny "
                   "MobileNet-like CNN on seeded synthetic 16x16 images; layouts are rendered from those runs",
           "cases": [entries[k] for k in sorted(entries)]}
    with open(man_path, "w") as f:
        json.dump(man, f, indent=2, ensure_ascii=False)
        f.write("\n")
    # the form the diagnosis tests read (tests/rules/diagnosis_score.h): cases by id, allow a list
    scored = {"about": {"what": "the first blind corpus of issue #43 (see tests/gen/blind_corpus/README.md)",
                        "expect": "ids that must be raised (warning or error)",
                        "allow": "ids that may be raised, with allow_reasons"},
              "cases": {}}
    for c in man["cases"]:
        allow = c.get("allow", {})
        scored["cases"][c["id"]] = {"layout": c["layout"], "description": c["description"],
                                    "healthy": c["healthy"], "expect": c["expect"], "allow": sorted(allow),
                                    "allow_reasons": allow, "numbers": c.get("numbers", {})}
    with open(os.path.join(BATCH, "MANIFEST.json"), "w") as f:
        json.dump(scored, f, indent=1, ensure_ascii=False, sort_keys=True)
    bad = sanity(cases_root)
    for b in bad:
        print("BAD FILE", b, file=sys.stderr)
    print("%d cases written (%d failed) in %.0f s; manifest: %s" % (len(entries), len(errors), time.time() - t0,
                                                                     man_path))
    return 1 if errors or bad else 0


if __name__ == "__main__":
    sys.exit(main())
