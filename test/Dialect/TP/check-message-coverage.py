#!/usr/bin/env python3
"""Lists the tp verifier messages that invalid.mlir does not exercise.

A "message" is each emitOpError/emitError format in dialects/TP/IR/*.cpp
(its string literals, in order, up to the first `?` of a conditional) and
each distinct wording passed to the shared helpers (expectRank's `what`,
expectDimsMatch's message, normalizeDim's name, ...). A message is covered
when some `expected-error {{...}}` of invalid.mlir matches it, on an op of
the file's family when the message is in a family file (a message of
TPConvOps.cpp must be produced by an op defined in TPConvOps.td, so that an
"expected an input of rank" of a pooling op does not count for the
convolutions). Wordings that
are not literals (a helper passing its own parameter on) are skipped: the
call sites of that helper supply them.

  python3 test/Dialect/TP/check-message-coverage.py [-v]

prints one line per uncovered message (file:line and the pattern), then
"N messages, M uncovered"; the exit status is 1 when some are uncovered.
"""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../.."))
# RuleContext.cpp only forwards the rules' messages (emitOpError(message)).
SOURCES = sorted(p for p in glob.glob(os.path.join(ROOT, "dialects/TP/IR/*.cpp"))
                 if not p.endswith("RuleContext.cpp"))
TEST = os.path.join(HERE, "invalid.mlir")
ODS = os.path.join(ROOT, "include/tensorplay/Dialect/TP/IR")

# helper -> (index of the wording argument, default wording, message pattern)
HELPERS = {
    "expectRank": (2, None, "expected {} of rank"),
    "expectMatrix": (2, None, "expected {} of rank"),
    "expectDimsMatch": (3, None, "{}"),
    "normalizeDim": (3, "dim", "{} -?[0-9]+ is out of range"),
    "expectIntegerTarget": (2, "target", "expected {} to hold integer class"),
    "expectIndexTensor": (2, None, "expected {} to be an integer tensor"),
    "expectParam": (2, None, "{} must have shape"),
}
EMITTERS = ("emitOpError", "emitError")
# Messages no op's verifier can reach, with where they are tested instead.
UNREACHABLE = {
    r"expected\ at\ least\ one\ tensor\ operand":
        "every verifier rejects an empty operand list before the dtype rule "
        "runs; test/Unit/ResultTypeInferenceTest.cpp checks it",
    r"in\-place\ form\ needs\ an\ operand\ to\ update":
        "only result-type inference of an in-place form without operands "
        "reaches it (the verifier checks the form first)",
    r"the\ shape\ of\ result\ \#.*\ does\ not\ follow\ from\ the\ operands\ "
    r"and\ attributes;\ build\ the\ op\ with\ explicit\ result\ types":
        "only result-type inference reaches it; "
        "test/Unit/ResultTypeInferenceTest.cpp checks it (mkldnn_rnn_layer)",
}
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
CALL = re.compile(r"\b(%s)\s*\(" % "|".join(list(HELPERS) + list(EMITTERS)))


def strip_comments(text):
    # Keeps line numbers: comments become spaces.
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\]|\\.)*"',
                  lambda m: m.group(0) if m.group(0).startswith('"')
                  else blank(m), text, flags=re.S)


def scan(text, start, stop_chars):
    """Returns the index of the first of `stop_chars` at depth 0 from start."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i = STRING.match(text, i).end()
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0 and c in stop_chars:
                return i
            depth -= 1
        elif depth == 0 and c in stop_chars:
            return i
        i += 1
    return i


def split_args(text, open_paren):
    """The top-level arguments of the call whose '(' is at open_paren."""
    args, i = [], open_paren + 1
    while True:
        end = scan(text, i, ",)")
        args.append(text[i:end].strip())
        if end >= len(text) or text[end] == ")":
            return args, end
        i = end + 1


def fragments(expr):
    """The literal parts of an expression, adjacent literals joined: a list
    of variants, one per branch of `cond ? "a" : "b"` conditionals (parts
    after any other conditional are dropped)."""
    tokens, i = [], 0
    while i < len(expr):
        if expr[i] == '"':
            m = STRING.match(expr, i)
            s = bytes(m.group(1), "utf-8").decode("unicode_escape")
            if tokens and tokens[-1][0] == "lit" and not expr[
                    tokens[-1][2]:i].strip():
                tokens[-1] = ("lit", tokens[-1][1] + s, m.end())
            else:
                tokens.append(("lit", s, m.end()))
            i = m.end()
            continue
        if expr[i] in "?:" and expr[i:i + 2] != "::" and expr[
                i - 1:i + 1] != "::":
            tokens.append((expr[i], None, i + 1))
        i += 1
    variants, k = [[]], 0
    while k < len(tokens):
        kind, text, _ = tokens[k]
        if kind == "lit":
            for v in variants:
                v.append(text)
            k += 1
        elif (kind == "?" and k + 3 < len(tokens) + 1 and k + 3 <= len(tokens)
              and [t[0] for t in tokens[k + 1:k + 4]] == ["lit", ":", "lit"]):
            variants = [v + [b] for v in variants
                        for b in (tokens[k + 1][1], tokens[k + 3][1])]
            k += 4
        elif kind == "?":
            break
        else:
            k += 1
    return variants


def pattern(parts):
    return ".*".join(re.escape(p) for p in parts if p)


def op_families():
    """Maps each op mnemonic to the stem of the .td defining it (TPConvOps):
    from `def X : Class<"mnemonic"`, and for ops defined through a class
    that builds the mnemonic (TP_AvgPoolOp<2>), from their examples."""
    families = {}
    for td in glob.glob(os.path.join(ODS, "TP*Ops.td")):
        stem = os.path.splitext(os.path.basename(td))[0]
        text = open(td).read()
        for m in re.finditer(r'^def\s+\w+\s*:\s*\w+<\s*"([a-z_0-9]+)"',
                             text, re.M):
            families[m.group(1)] = stem
        for m in re.finditer(r'^def\s+\w+\s*:\s*\w+<\s*\d+,\s*"[^"]*= tp\.([a-z_0-9]+)\b',
                             text, re.M):
            families.setdefault(m.group(1), stem)
    return families


def messages():
    """Yields (file:line, family, regex) for every message of the sources;
    family is the .td stem of a family file, else None."""
    for path in SOURCES:
        text = strip_comments(open(path).read())
        rel = os.path.relpath(path, ROOT)
        stem = os.path.splitext(os.path.basename(path))[0]
        family = stem if os.path.exists(os.path.join(ODS, stem + ".td")) \
            else None
        for m in CALL.finditer(text):
            name, paren = m.group(1), m.end() - 1
            line = text.count("\n", 0, m.start()) + 1
            where = "%s:%d" % (rel, line)
            args, end = split_args(text, paren)
            if name in EMITTERS:
                # The format: the call's literal, then the streamed ones.
                stmt_end = scan(text, end + 1, ";")
                for parts in fragments(",".join(args) + ")" +
                                       text[end + 1:stmt_end]):
                    if parts:
                        yield where, family, pattern(parts)
                continue
            index, default, template = HELPERS[name]
            if re.search(r"^\s*[A-Za-z:]+\s+\*?\s*%s\s*\(" % name,
                         text[text.rfind("\n", 0, m.start()) + 1:m.end()]):
                continue  # the helper's definition
            if len(args) > index:
                variants = fragments(args[index])
            else:
                variants = [[default]] if default else []
            for parts in variants:
                if parts:  # else a parameter passed on
                    yield where, family, template.format(
                        pattern(parts))


def expected_errors():
    """(op mnemonic or None, text) of each expected-error of the test."""
    lines = open(TEST).read().split("\n")
    out = []
    for number, line in enumerate(lines):
        for m in re.finditer(r"expected-error\s*(@([+-][0-9]+))?[^{]*\{\{(.*?)\}\}",
                             line):
            target = number + (int(m.group(2)) if m.group(2) else 0)
            op = None
            if 0 <= target < len(lines):
                found = re.search(r'"?tp\.([a-z_0-9]+)', lines[target])
                op = found.group(1) if found else None
            out.append((op, m.group(3)))
    return out


def main():
    verbose = "-v" in sys.argv
    families = op_families()
    errors = expected_errors()
    seen, uncovered = set(), []
    for where, family, regex in messages():
        if (family, regex) in seen:
            continue
        seen.add((family, regex))
        if regex in UNREACHABLE:
            if verbose:
                print("skipped   %s: %s (%s)" % (where, regex,
                                                UNREACHABLE[regex]))
            continue
        covered = any(re.search(regex, text) and
                      (family is None or families.get(op) == family)
                      for op, text in errors)
        if not covered:
            uncovered.append((where, regex))
        elif verbose:
            print("covered   %s: %s" % (where, regex))
    for where, regex in uncovered:
        print("uncovered %s: %s" % (where, regex))
    print("%d messages, %d uncovered" % (len(seen), len(uncovered)))
    return 1 if uncovered else 0


if __name__ == "__main__":
    sys.exit(main())
