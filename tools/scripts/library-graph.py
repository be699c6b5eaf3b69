#!/usr/bin/env python3
"""Prints the project's library graph: each target of the build (from the
layering.json that cmake/TensorplayLayering.cmake writes) with its number of
sources and the project libraries it links directly, in dependency order.

Usage: tools/scripts/library-graph.py [build/layering.json]
"""
import json
import os
import sys


def main(path):
    entries = json.load(open(path))
    names = {e["name"] for e in entries}
    deps = {}
    for e in entries:
        seen = []
        for link in e["links"]:
            if link in names and link != e["name"] and link not in seen:
                seen.append(link)
        deps[e["name"]] = seen
    order, done = [], set()

    def visit(name):
        if name in done:
            return
        done.add(name)
        for d in deps[name]:
            visit(d)
        order.append(name)

    for name in sorted(deps):
        visit(name)
    by_name = {e["name"]: e for e in entries}
    for name in order:
        e = by_name[name]
        print("%-34s %3d sources  -> %s" % (name, len(e["sources"]),
                                           ", ".join(deps[name]) or "-"))
    print("%d targets, %d direct project links" %
          (len(order), sum(len(d) for d in deps.values())))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         os.path.join("build", "layering.json"))
