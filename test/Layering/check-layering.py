#!/usr/bin/env python3
"""Checks the library layering of the build.

Reads the layering.json CMake writes (cmake/TensorplayLayering.cmake): every
library and executable of the project with its sources, its direct link
dependencies and the public headers it owns. A target may include (with
#include "tensorplay/...") only headers owned by itself or by a library it
links, directly or through the libraries it links; every public header has
an owner. Private headers next to a source (#include "Foo.h") are scanned as
part of the target. Prints each violation and exits 1, or prints a summary.
"""
import json
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
GENEX = re.compile(r"^\$<LINK_ONLY:([^>]+)>$")


def main(layering_path, src_root):
    entries = json.load(open(layering_path))
    # Paths may be relative to the source root (the test inputs' are).
    for e in entries:
        e["dir"] = os.path.join(src_root, e["dir"])
        e["headers"] = [os.path.join(src_root, h) for h in e["headers"]]
    targets = {e["name"]: e for e in entries}
    include_root = os.path.join(src_root, "include")

    # Owned paths relative to include/: a directory or a file.
    owned = []
    for e in entries:
        for path in e["headers"]:
            owned.append((os.path.relpath(path, include_root), e["name"]))
    problems = []
    for rel, owner in owned:
        if not os.path.exists(os.path.join(include_root, rel)):
            problems.append("%s owns %s, which does not exist" % (owner, rel))

    def owners_of(header):
        # Generated X.h.inc / X.cpp.inc belong with X.h.
        if header.endswith(".inc"):
            header = header[:-len(".inc")]
            if header.endswith(".cpp"):
                header = header[:-len(".cpp")] + ".h"
        best, names = -1, set()
        for rel, owner in owned:
            if header == rel or header.startswith(rel.rstrip("/") + "/"):
                if len(rel) > best:
                    best, names = len(rel), {owner}
                elif len(rel) == best:
                    names.add(owner)
        return names

    def links_of(name):
        out = []
        for link in targets[name]["links"]:
            m = GENEX.match(link)
            link = m.group(1) if m else link
            if link in targets:
                out.append(link)
        return out

    closure = {}

    def reachable(name):
        if name not in closure:
            seen, todo = {name}, [name]
            while todo:
                for dep in links_of(todo.pop()):
                    if dep not in seen:
                        seen.add(dep)
                        todo.append(dep)
            closure[name] = seen
        return closure[name]

    checked_files = 0
    checked_includes = 0
    for name, e in sorted(targets.items()):
        if not e["dir"].startswith(src_root):
            continue
        files = []
        for s in e["sources"]:
            if s.startswith("$<"):
                continue
            path = s if os.path.isabs(s) else os.path.join(e["dir"], s)
            if os.path.splitext(path)[1] in (".cpp", ".cu", ".h", ".c") and \
                    os.path.exists(path):
                files.append(os.path.normpath(path))
        seen = set()
        while files:
            path = files.pop()
            if path in seen:
                continue
            seen.add(path)
            checked_files += 1
            text = open(path, encoding="utf-8", errors="replace").read()
            for header in INCLUDE.findall(text):
                local = os.path.join(os.path.dirname(path), header)
                if not header.startswith("tensorplay/"):
                    if os.path.exists(local) and local.startswith(src_root) \
                            and not local.startswith(include_root):
                        files.append(os.path.normpath(local))
                    continue
                checked_includes += 1
                owners = owners_of(header)
                rel = os.path.relpath(path, src_root)
                if not owners:
                    problems.append("%s: %s includes %s, which no library "
                                    "owns (tensorplay_target_headers)"
                                    % (name, rel, header))
                elif not owners & reachable(name):
                    problems.append("%s: %s includes %s (of %s) but %s does "
                                    "not link %s" % (
                                        name, rel, header,
                                        ", ".join(sorted(owners)), name,
                                        " or ".join(sorted(owners))))
    for p in problems:
        print("layering violation: " + p)
    if problems:
        return 1
    print("layering: %d targets, %d files, %d tensorplay includes checked, "
          "no violations" % (len(targets), checked_files, checked_includes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], os.path.abspath(sys.argv[2])))
