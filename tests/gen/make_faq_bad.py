#!/usr/bin/python3
"""Writes the FAQ validator fixtures (stdlib only):

  tests/data/faq_good/10_demo.json      a small valid tree (two topics, an auto question, a topic
                                        jump, a result with code, related topics and references)
  tests/data/faq_bad/<case>/10_demo.json  the same tree with exactly one kind of mistake
  tests/data/faq_bad/MANIFEST.json      per case: the error code, JSON pointer and message the
                                        C++ validator (core/faq) must report

Run from anywhere: /usr/bin/python3 tests/gen/make_faq_bad.py
"""
import copy
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "data"))
FILE = "10_demo.json"


def t(zh, en):
    return {"zh": zh, "en": en}


GOOD = {
    "schema": 1,
    "category": {"id": "demo", "order": 10, "title": t("演示", "Demo")},
    "topics": [
        {
            "id": "demo.loss",
            "source": {"file": "000_c0310bce0ec06bbb.txt", "heading": "演示问题？"},
            "title": t("QAT 训练出现 NAN 怎么办？", "QAT loss becomes NaN: what now?"),
            "symptom": t("loss 出现 NAN", "Loss is NaN"),
            "popularity": 9,
            "keywords": ["nan", "loss"],
            "start": "q_nan",
            "nodes": [
                {"id": "q_nan", "type": "question", "auto": "loss.nonfinite",
                 "text": t("loss 中是否出现 NAN / INF？", "Does the loss contain NaN / Inf?"),
                 "help": t("查看训练日志。", "Look at the training log."),
                 "answers": [
                     {"id": "yes", "label": t("是", "Yes"), "next": "r_nan", "auto": "found"},
                     {"id": "no", "label": t("否", "No"), "next": "q_lr", "auto": "clear"}]},
                {"id": "q_lr", "type": "question",
                 "text": t("学习率是否过大？", "Is the learning rate too high?"),
                 "answers": [
                     {"id": "yes", "label": t("是", "Yes"), "next": "r_lr"},
                     {"id": "no", "label": t("否", "No"), "next": "topic:demo.export"}]},
                {"id": "r_nan", "type": "result", "title": t("loss 非有限值", "Non-finite loss"),
                 "causes": [t("浮点模型未收敛", "The float model did not converge")],
                 "checks": [t("检查浮点模型", "Check the float model")],
                 "advice": [t("降低学习率", "Lower the learning rate")],
                 "code": [{"language": "python", "title": t("示例", "Example"),
                           "text": "import torch\nx = torch.zeros(3)  # demo\n"}],
                 "related": ["demo.export"],
                 "references": [{"name": t("导出说明", "Export notes"), "topic": "demo.export"},
                                {"name": t("外部文档", "External document")}]},
                {"id": "r_lr", "type": "result", "title": t("学习率过大", "Learning rate too high"),
                 "advice": [t("使用更小的学习率", "Use a smaller learning rate")]},
            ],
        },
        {
            "id": "demo.export",
            "source": {"file": "000_c0310bce0ec06bbb.txt", "heading": "演示导出？"},
            "title": t("导出后精度下降", "Accuracy drops after export"),
            "symptom": t("导出掉点", "Export accuracy drop"),
            "popularity": 4,
            "keywords": ["export", "导出"],
            "start": "r_export",
            "nodes": [
                {"id": "r_export", "type": "result", "title": t("查表误差", "Look-up table error"),
                 "advice": [t("检查查表算子", "Check the look-up-table operators")],
                 "related": ["demo.loss"]},
            ],
        },
    ],
}


def q(doc, i=0):
    return doc["topics"][0]["nodes"][i]


def mutate_missing_en(d):
    del q(d)["text"]["en"]


def mutate_duplicate_topic(d):
    d["topics"].append(copy.deepcopy(d["topics"][1]))


def mutate_duplicate_node(d):
    q(d, 3)["id"] = "r_nan"
    q(d, 1)["answers"][0]["next"] = "r_nan"


def mutate_dangling_next(d):
    q(d, 1)["answers"].append({"id": "maybe", "label": t("不确定", "Not sure"), "next": "r_missing"})


def mutate_dangling_topic_jump(d):
    q(d, 1)["answers"][1]["next"] = "topic:demo.nowhere"


def mutate_dangling_related(d):
    d["topics"][1]["nodes"][0]["related"] = ["demo.nowhere"]


def mutate_dangling_reference(d):
    q(d, 2)["references"][0]["topic"] = "demo.nowhere"


def mutate_dangling_start(d):
    d["topics"][0]["start"] = "q_nowhere"


def mutate_unreachable(d):
    d["topics"][0]["nodes"].append({"id": "r_orphan", "type": "result", "title": t("孤立", "Orphan"),
                                    "advice": [t("无", "None")]})


def mutate_cycle(d):
    q(d, 1)["answers"][1]["next"] = "q_nan"


def mutate_no_advice(d):
    q(d, 3)["advice"] = []


def mutate_unknown_check(d):
    q(d)["auto"] = "loss.bogus"


def mutate_auto_answers(d):
    del q(d)["answers"][1]["auto"]


def mutate_marks_without_auto(d):
    q(d, 1)["answers"][0]["auto"] = "found"


def mutate_bad_order(d):
    d["category"]["order"] = 20


def mutate_bad_type(d):
    q(d, 3)["type"] = "answer"


def mutate_unexpected_key(d):
    q(d, 1)["hepl"] = t("拼写错误", "typo")


CASES = [
    # case, mutation, code, pointer, message substring
    ("missing_en", mutate_missing_en, "faq.missing_text", "/topics/0/nodes/0/text/en", "missing or empty 'en' text"),
    ("duplicate_topic", mutate_duplicate_topic, "faq.duplicate_id", "/topics/2/id", "topic id 'demo.export' already used"),
    ("duplicate_node", mutate_duplicate_node, "faq.duplicate_id", "/topics/0/nodes/3/id", "node id 'r_nan' used twice"),
    ("dangling_next", mutate_dangling_next, "faq.dangling", "/topics/0/nodes/1/answers/2/next", "unknown node 'r_missing'"),
    ("dangling_topic_jump", mutate_dangling_topic_jump, "faq.dangling", "/topics/0/nodes/1/answers/1/next", "unknown topic 'demo.nowhere'"),
    ("dangling_related", mutate_dangling_related, "faq.dangling", "/topics/1/nodes/0/related/0", "unknown topic 'demo.nowhere'"),
    ("dangling_reference", mutate_dangling_reference, "faq.dangling", "/topics/0/nodes/2/references/0/topic", "unknown topic 'demo.nowhere'"),
    ("dangling_start", mutate_dangling_start, "faq.dangling", "/topics/0/start", "unknown node 'q_nowhere'"),
    ("unreachable", mutate_unreachable, "faq.unreachable", "/topics/0/nodes/4", "node 'r_orphan' is not reachable"),
    ("cycle", mutate_cycle, "faq.cycle", "/topics/0/nodes/1/answers/1/next", "leads back to 'q_nan'"),
    ("no_advice", mutate_no_advice, "faq.no_advice", "/topics/0/nodes/3", "result 'r_lr' has no advice"),
    ("unknown_check", mutate_unknown_check, "faq.unknown_check", "/topics/0/nodes/0/auto", "unknown check id 'loss.bogus'"),
    ("auto_answers", mutate_auto_answers, "faq.auto_answers", "/topics/0/nodes/0/answers", "exactly one 'found' and one 'clear'"),
    ("marks_without_auto", mutate_marks_without_auto, "faq.auto_answers", "/topics/0/nodes/1/answers", "no 'auto' check"),
    ("bad_order", mutate_bad_order, "faq.bad_order", "/category/order", "does not match the file prefix '10'"),
    ("bad_type", mutate_bad_type, "faq.schema", "/topics/0/nodes/3/type", "type must be 'question' or 'result'"),
    ("unexpected_key", mutate_unexpected_key, "faq.schema", "/topics/0/nodes/1", "unexpected key 'hepl'"),
]


def write(folder, doc_text):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, FILE), "w", encoding="utf-8") as fh:
        fh.write(doc_text)


def dump(doc):
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def main():
    write(os.path.join(DATA, "faq_good"), dump(GOOD))
    bad = os.path.join(DATA, "faq_bad")
    shutil.rmtree(bad, ignore_errors=True)
    manifest = []
    for name, mutate, code, pointer, message in CASES:
        doc = copy.deepcopy(GOOD)
        mutate(doc)
        write(os.path.join(bad, name), dump(doc))
        manifest.append({"case": name, "file": FILE, "code": code, "pointer": pointer, "message": message})
    # Damage the text itself: a cut-off file and a hostile nesting depth.
    write(os.path.join(bad, "truncated"), dump(GOOD)[:700])
    manifest.append({"case": "truncated", "file": FILE, "code": "faq.parse", "pointer": "", "message": "invalid JSON"})
    write(os.path.join(bad, "too_deep"), '{"schema": 1, "topics": ' + "[" * 5000 + "]" * 5000 + "}\n")
    manifest.append({"case": "too_deep", "file": FILE, "code": "faq.too_deep", "pointer": "", "message": "nested deeper than"})
    with open(os.path.join(bad, "MANIFEST.json"), "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(f"wrote faq_good and {len(manifest)} faq_bad cases")


if __name__ == "__main__":
    main()
