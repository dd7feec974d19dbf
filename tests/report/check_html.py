#!/usr/bin/env python3
"""Checks a report HTML file with the standard library only (tests must not need extra packages):
it parses, every non-void element is closed in order, there are no external references (the file
must stand alone), and every string given after the file name occurs in its text.
Usage: check_html.py FILE [REQUIRED_STRING...]; exit 0 when fine, 1 with the reasons printed."""
import html.parser
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        # SVG elements written self-closing (<line .../>) reach handle_startendtag, not here.
        }


class Checker(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.problems = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.problems.append(f"external reference {name}={value!r} in <{tag}>")
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack:
            self.problems.append(f"</{tag}> at {self.getpos()} closes nothing")
            return
        open_tag, pos = self.stack.pop()
        if open_tag != tag:
            self.problems.append(f"</{tag}> at {self.getpos()} closes <{open_tag}> opened at {pos}")

    def handle_data(self, data):
        self.text.append(data)


def main():
    path, required = sys.argv[1], sys.argv[2:]
    with open(path, encoding="utf-8") as f:
        source = f.read()
    checker = Checker()
    checker.feed(source)
    checker.close()
    problems = list(checker.problems)
    problems += [f"<{tag}> opened at {pos} never closed" for tag, pos in checker.stack]
    text = "".join(checker.text)
    problems += [f"missing text: {s!r}" for s in required if s not in text]
    for p in problems[:30]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
