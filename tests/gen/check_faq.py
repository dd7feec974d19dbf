#!/usr/bin/python3
"""Guard for the FAQ knowledge base in faq/ (stdlib only).

Checks the decision-tree files faq/[0-9][0-9]_*.json against the contract in faq/README.md and
against the two seed FAQs: every seed question must be encoded under its verbatim heading, and
every code snippet must be copied verbatim from a seed. The C++ validator (core/faq) is the real
gate at run time; this script catches authoring mistakes before they are committed.

Usage: check_faq.py [--faq DIR] [--seeds DIR]     exit status 0 = all good, 1 = problems listed
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))

SEED_000 = "000_c0310bce0ec06bbb.txt"
SEED_004 = "004_6404d1e51eaf44d3.txt"
MULTI_GPU_MISTAKE = "Calibration 过程使用多卡"

KNOWN_CHECKS = {
    "env.no_gpu", "calib.low_accuracy", "calib.multi_gpu", "qat.worse_than_calibration",
    "qat.start_loss_high", "qat.trend_mismatch", "qat.quantized_gap", "qat.no_quantized_eval",
    "qat.not_learning", "loss.nonfinite", "loss.divergence", "run.crashed",
    "float.not_converged", "float.overfit", "train.batch_scaled_lr_unchanged",
    "train.aggressive_lr_schedule", "config.march", "input.colour_format",
    "model.output_low_precision", "model.shared_quant_params", "model.uncalibrated_scale",
    "model.aux_branch", "model.float_fallback", "model.int16_not_applied",
    "model.custom_gridsample", "consistency.similarity_drop", "consistency.truncation",
    "consistency.rounding", "simulation.first_bad_layer", "simulation.lut_error",
}

TOPIC_ID = re.compile(r"^[a-z0-9_.]+$")
NODE_ID = re.compile(r"^[a-z0-9_]+$")
TREE_FILE = re.compile(r"^[0-9][0-9]_.*\.json$")
# Seed headings are '#' glued to the text; code comments inside snippets are '# ' with a space.
HEADING = re.compile(r"^#([^#\s].*)$")


DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
}


def schema_errors(schema, root, value, where):
    """Validate value against the subset of JSON Schema 2020-12 that faq/schema.json uses.

    Returns a list of messages; an unsupported keyword is itself reported, so the subset cannot
    silently drift from what schema.json says.
    """
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            return [f"{where}: unsupported $ref {ref}"]
        return schema_errors(root["$defs"][ref[len("#/$defs/"):]], root, value, where)
    errs = []
    for key in schema:
        if key not in ("type", "required", "properties", "additionalProperties", "items", "minItems",
                       "minLength", "pattern", "enum", "const", "minimum", "maximum", "oneOf",
                       "description", "title", "$schema", "$id", "$defs"):
            errs.append(f"{where}: schema keyword '{key}' not supported by check_faq.py")
    if "type" in schema and not TYPES[schema["type"]](value):
        return errs + [f"{where}: expected {schema['type']}"]
    if "const" in schema and value != schema["const"]:
        errs.append(f"{where}: must be {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errs.append(f"{where}: {value!r} not one of the allowed values")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errs.append(f"{where}: shorter than {schema['minLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errs.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, int) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errs.append(f"{where}: below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errs.append(f"{where}: above {schema['maximum']}")
    if isinstance(value, dict):
        for k in schema.get("required", []):
            if k not in value:
                errs.append(f"{where}: missing '{k}'")
        props = schema.get("properties", {})
        for k, v in value.items():
            if k in props:
                errs += schema_errors(props[k], root, v, f"{where}.{k}")
            elif schema.get("additionalProperties") is False:
                errs.append(f"{where}: unexpected key '{k}'")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errs.append(f"{where}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for i, v in enumerate(value):
                errs += schema_errors(schema["items"], root, v, f"{where}[{i}]")
    if "oneOf" in schema:
        results = [schema_errors(s, root, value, where) for s in schema["oneOf"]]
        passing = sum(1 for r in results if not r)
        if passing == 0:
            errs += min(results, key=len)  # the closest alternative explains the problem best
        elif passing > 1:
            errs.append(f"{where}: matches {passing} of the oneOf alternatives (want 1)")
    return errs


class Checker:
    def __init__(self):
        self.errors = []

    def err(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    def text(self, where, value):
        """A Text object: {"zh": non-empty, "en": non-empty}, nothing else."""
        if not isinstance(value, dict):
            self.err(where, "expected a Text object {zh, en}")
            return
        for lang in ("zh", "en"):
            v = value.get(lang)
            if not isinstance(v, str) or not v.strip():
                self.err(where, f"missing or empty '{lang}'")
        extra = set(value) - {"zh", "en"}
        if extra:
            self.err(where, f"unexpected keys {sorted(extra)}")

    def texts(self, where, value, required):
        if value is None and not required:
            return
        if not isinstance(value, list) or (required and not value):
            self.err(where, "expected a non-empty list of Text" if required else "expected a list")
            return
        for i, t in enumerate(value):
            self.text(f"{where}[{i}]", t)


def seed_headings(seed_text):
    """(category headings, question headings) of the main seed, in order, without '#'."""
    cats, questions = [], []
    lines = [l.rstrip("\n") for l in seed_text.splitlines()]
    for l in lines[1:]:  # line 1 is the document title
        m = HEADING.match(l)
        if not m:
            continue
        (questions if m.group(1).endswith("？") else cats).append(m.group(1))
    return cats, questions


def check_node_graph(c, where, topic, node_by_id, all_topic_ids):
    """Targets exist, every node is reachable from start, no cycles (a tree walk must end)."""
    start = topic.get("start")
    if start not in node_by_id:
        c.err(where, f"start '{start}' is not a node of this topic")
        return
    edges = {}
    for nid, node in node_by_id.items():
        outs = []
        for a in node.get("answers", []) if node.get("type") == "question" else []:
            nxt = a.get("next")
            if not isinstance(nxt, str):
                c.err(f"{where}/{nid}", f"answer '{a.get('id')}' has no next")
            elif nxt.startswith("topic:"):
                if nxt[len("topic:"):] not in all_topic_ids:
                    c.err(f"{where}/{nid}", f"answer '{a.get('id')}' jumps to unknown {nxt}")
            elif nxt not in node_by_id:
                c.err(f"{where}/{nid}", f"answer '{a.get('id')}' -> unknown node '{nxt}'")
            else:
                outs.append(nxt)
        edges[nid] = outs
    seen, stack = set(), [start]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(edges.get(n, []))
    for nid in node_by_id:
        if nid not in seen:
            c.err(where, f"node '{nid}' is not reachable from start '{start}'")
    state = {}

    def visit(n, path):
        state[n] = 1
        for m in edges.get(n, []):
            if state.get(m) == 1:
                c.err(where, "cycle: " + " -> ".join(path + [m]))
            elif m not in state:
                visit(m, path + [m])
        state[n] = 2

    visit(start, [start])


def check_question(c, where, node):
    c.text(f"{where}.text", node.get("text"))
    if "help" in node:
        c.text(f"{where}.help", node["help"])
    answers = node.get("answers")
    if not isinstance(answers, list) or len(answers) < 2:
        c.err(where, "a question needs at least two answers")
        return
    ids = [a.get("id") for a in answers]
    if len(set(ids)) != len(ids):
        c.err(where, f"duplicate answer ids {ids}")
    for a in answers:
        if not isinstance(a.get("id"), str) or not NODE_ID.match(a["id"]):
            c.err(where, f"bad answer id {a.get('id')!r}")
        c.text(f"{where}/{a.get('id')}.label", a.get("label"))
        if "auto" in a and a["auto"] not in ("found", "clear"):
            c.err(where, f"answer '{a.get('id')}' auto must be found|clear, not {a['auto']!r}")
    marks = [a["auto"] for a in answers if "auto" in a]
    if "auto" in node:
        if node["auto"] not in KNOWN_CHECKS:
            c.err(where, f"unknown auto check id '{node['auto']}'")
        if sorted(marks) != ["clear", "found"]:
            c.err(where, f"auto question needs exactly one found and one clear answer, has {marks}")
    elif marks:
        c.err(where, "answers carry auto marks but the question has no auto check")


def check_result(c, where, node, all_topic_ids, seed_texts):
    c.text(f"{where}.title", node.get("title"))
    c.texts(f"{where}.causes", node.get("causes"), required=False)
    c.texts(f"{where}.checks", node.get("checks"), required=False)
    c.texts(f"{where}.advice", node.get("advice"), required=True)
    for i, snip in enumerate(node.get("code", [])):
        w = f"{where}.code[{i}]"
        if snip.get("language") != "python":
            c.err(w, f"language must be 'python', is {snip.get('language')!r}")
        c.text(f"{w}.title", snip.get("title"))
        body = snip.get("text")
        if not isinstance(body, str) or not body.strip():
            c.err(w, "empty code text")
        elif not any(body in s for s in seed_texts.values()):
            c.err(w, "code is not a verbatim excerpt of a seed document")
    for rel in node.get("related", []):
        if rel not in all_topic_ids:
            c.err(where, f"related topic '{rel}' does not exist")
    for i, ref in enumerate(node.get("references", [])):
        c.text(f"{where}.references[{i}].name", ref.get("name"))
        if "topic" in ref and ref["topic"] not in all_topic_ids:
            c.err(where, f"reference topic '{ref['topic']}' does not exist")


def check_source(c, where, src, seed_texts, questions_000, lines_004):
    if not isinstance(src, dict):
        c.err(where, "expected {file, heading}")
        return
    f, h = src.get("file"), src.get("heading")
    if f == SEED_000:
        if h not in questions_000:
            c.err(where, f"heading not a verbatim question of {SEED_000}: {h!r}")
    elif f == SEED_004:
        if h not in lines_004:
            c.err(where, f"heading not a verbatim line of {SEED_004}: {h!r}")
    else:
        c.err(where, f"unknown seed file {f!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--faq", default=os.path.join(REPO, "faq"))
    # the seed FAQs live beside the repository (shared/seeds next to the checkout), not in it
    ap.add_argument("--seeds", default=os.environ.get("QATDOCTOR_SEEDS_DIR") or
                    os.path.join(os.path.dirname(REPO), "shared", "seeds"))
    args = ap.parse_args()
    c = Checker()

    if not os.path.isdir(args.seeds):
        sys.exit(f"check_faq: no seed folder at {args.seeds} (pass --seeds DIR or set QATDOCTOR_SEEDS_DIR)")
    seed_texts = {}
    for name in (SEED_000, SEED_004):
        with open(os.path.join(args.seeds, name), encoding="utf-8") as fh:
            seed_texts[name] = fh.read()
    cats_000, questions_000 = seed_headings(seed_texts[SEED_000])
    lines_004 = {l.strip() for l in seed_texts[SEED_004].splitlines() if l.strip()}

    schema = None
    try:
        with open(os.path.join(args.faq, "schema.json"), encoding="utf-8") as fh:
            schema = json.load(fh)
        if schema.get("$schema") != DRAFT_2020_12:
            c.err("schema.json", f"$schema must be {DRAFT_2020_12}")
    except (OSError, json.JSONDecodeError) as e:
        c.err("schema.json", f"cannot read: {e}")

    files = sorted(f for f in os.listdir(args.faq) if TREE_FILE.match(f))
    if not files:
        c.err(args.faq, "no tree files")
    docs = {}
    for name in files:
        path = os.path.join(args.faq, name)
        try:
            with open(path, encoding="utf-8") as fh:
                docs[name] = json.load(fh)
        except (OSError, json.JSONDecodeError) as e:
            c.err(path, f"does not parse: {e}")
            continue
        if schema is not None:
            c.errors += schema_errors(schema, schema, docs[name], name)

    all_topic_ids, orders, cat_ids, cat_titles = [], {}, set(), set()
    for name, doc in docs.items():
        for t in doc.get("topics", []):
            all_topic_ids.append(t.get("id"))
    dup = {t for t in all_topic_ids if all_topic_ids.count(t) > 1}
    for t in sorted(dup, key=str):
        c.err("faq", f"topic id '{t}' used more than once")
    topic_set = set(all_topic_ids)

    headings_used, auto_questions, multi_gpu = [], 0, False
    for name, doc in docs.items():
        if doc.get("schema") != 1:
            c.err(name, "schema must be 1")
        cat = doc.get("category", {})
        if not isinstance(cat.get("id"), str) or not TOPIC_ID.match(cat["id"]) or cat["id"] in cat_ids:
            c.err(name, f"bad or duplicate category id {cat.get('id')!r}")
        cat_ids.add(cat.get("id"))
        order = cat.get("order")
        if not isinstance(order, int) or name[:2] != f"{order:02d}"[-2:] or order in orders:
            c.err(name, f"category order {order!r} must be unique and match the file prefix")
        orders[order] = name
        c.text(f"{name}.category.title", cat.get("title"))
        cat_titles.add((cat.get("title") or {}).get("zh"))
        topics = doc.get("topics")
        if not isinstance(topics, list) or not topics:
            c.err(name, "no topics")
            continue
        for t in topics:
            tid = t.get("id")
            where = f"{name}/{tid}"
            if not isinstance(tid, str) or not TOPIC_ID.match(tid):
                c.err(where, "topic id must match [a-z0-9_.]+")
            check_source(c, f"{where}.source", t.get("source"), seed_texts, questions_000, lines_004)
            src = t.get("source") or {}
            if src.get("file") == SEED_000:
                headings_used.append(src.get("heading"))
            if src.get("file") == SEED_004 and MULTI_GPU_MISTAKE in (src.get("heading") or ""):
                multi_gpu = True
            for i, also in enumerate(t.get("also", [])):
                check_source(c, f"{where}.also[{i}]", also, seed_texts, questions_000, lines_004)
            for key in ("title", "symptom"):
                c.text(f"{where}.{key}", t.get(key))
            pop = t.get("popularity")
            if not isinstance(pop, int) or not 1 <= pop <= 10:
                c.err(where, f"popularity must be an integer 1..10, is {pop!r}")
            kw = t.get("keywords")
            if not isinstance(kw, list) or not kw or not all(isinstance(k, str) and k for k in kw):
                c.err(where, "keywords must be a non-empty list of strings")
            nodes = t.get("nodes")
            if not isinstance(nodes, list) or not nodes:
                c.err(where, "no nodes")
                continue
            node_by_id = {}
            for n in nodes:
                nid = n.get("id")
                if not isinstance(nid, str) or not NODE_ID.match(nid):
                    c.err(where, f"bad node id {nid!r}")
                if nid in node_by_id:
                    c.err(where, f"duplicate node id '{nid}'")
                node_by_id[nid] = n
                nw = f"{where}/{nid}"
                if n.get("type") == "question":
                    check_question(c, nw, n)
                    auto_questions += "auto" in n
                elif n.get("type") == "result":
                    check_result(c, nw, n, topic_set, seed_texts)
                else:
                    c.err(nw, f"type must be question|result, is {n.get('type')!r}")
            check_node_graph(c, where, t, node_by_id, topic_set)

    for h in questions_000:
        n = headings_used.count(h)
        if n != 1:
            c.err(SEED_000, f"question encoded {n} times (want 1): {h}")
    for h in cats_000:
        if h not in cat_titles:
            c.err(SEED_000, f"category heading has no category file: {h}")
    if not multi_gpu:
        c.err(SEED_004, f"the '{MULTI_GPU_MISTAKE}' mistake is not encoded as a topic")

    if c.errors:
        print("\n".join(c.errors))
        print(f"FAIL: {len(c.errors)} problem(s)")
        return 1
    print(f"OK: {len(docs)} files, {len(all_topic_ids)} topics, "
          f"{len(questions_000)} seed questions covered, {auto_questions} auto questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
