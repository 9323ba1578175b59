"""Includes go one way (SPEC.md §1): core's areas are read bottom-up in the order below, core includes nothing
of tools/ or server/, tools/ nothing of server/, and no set of areas includes itself round in a cycle. A scan of
every `#include "..."` in core/, tools/ and server/, so a wrong-way include fails here naming its file and line
instead of slowly turning the areas into one."""
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# core/<area>/, lowest first: an area may include only the areas before it. core/harness/** is one area.
CORE_ORDER = [
    "base",       # envelope, errors, environment, id shapes, text, time
    "scrub",      # secret and personal-data scrubbing
    "scan",       # line scanners, reading lines back, the substring finder
    "json",       # well-formedness, text and UTF-8 repair
    "regex",      # the pattern engine
    "cache",      # warm memos keyed by file stamps
    "record",     # the record model, the Transcript value, the reader seam, turns
    "harness",    # one folder per harness: readers, store listings, Claude Code's classifier
    "store",      # Claude Code's store, targets and scopes, topology and the joins across transcripts
    "search",     # the searcher: what to read of a transcript, the screens, the loads, the matched records
    "mutations",  # what a transcript changed on disk
    "triage",     # the per-session digest and state
]

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def area_of(path):
    """The area of a repository path: core/<dir>, tools/<dir>, server; None outside them."""
    parts = path.split("/")
    if parts[0] == "server":
        return "server"
    if parts[0] in ("core", "tools") and len(parts) > 2:
        return parts[0] + "/" + parts[1]
    return None


def includes(root=ROOT):
    """(file, line, included path) of every quoted include in core/, tools/ and server/."""
    out = []
    for top in ("core", "tools", "server"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, text in enumerate(f, 1):
                        m = INCLUDE.match(text)
                        if m:
                            out.append((rel, number, m.group(1)))
    return out


def edges(found):
    """area -> {included area: [file:line, ...]} for includes that cross areas."""
    graph = {}
    for rel, number, target in found:
        a, b = area_of(rel), area_of(target)
        if a is None or b is None or a == b:
            continue
        graph.setdefault(a, {}).setdefault(b, []).append(f"{rel}:{number}")
    return graph


def wrong_way(found):
    """file:line: what breaks the declared direction."""
    rank = {"core/" + name: i for i, name in enumerate(CORE_ORDER)}
    out = []
    for rel, number, target in found:
        a, b = area_of(rel), area_of(target)
        if a is None or b is None or a == b:
            continue
        where = f"{rel}:{number}: includes {target}"
        if a.startswith("core/"):
            if not b.startswith("core/"):
                out.append(f"{where} (core includes nothing of tools/ or server/)")
            elif a not in rank or b not in rank:
                out.append(f"{where} (an area missing from CORE_ORDER: place it there)")
            elif rank[b] > rank[a]:
                out.append(f"{where} ({a} is below {b} in CORE_ORDER)")
        elif a.startswith("tools/") and b == "server":
            out.append(f"{where} (tools include nothing of server/)")
    return out


def cycles(graph, keep):
    """Every strongly connected set of more than one area among those `keep` accepts, each with the includes
    that close it (Tarjan's algorithm, so a new area cannot form a cycle unnoticed)."""
    nodes = sorted({n for a, bs in graph.items() for n in [a, *bs] if keep(n)})
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, {})):
            if not keep(w):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.append(w)
                if w == v:
                    break
            if len(members) > 1:
                members.sort()
                inside = [f"{a} -> {b}: {', '.join(graph[a][b])}" for a in members for b in sorted(graph.get(a, {}))
                          if b in members]
                out.append(" <-> ".join(members) + "\n    " + "\n    ".join(inside))

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def split_pairs(found):
    """A .cpp that includes its own header (the same name) from another area: one file's halves split."""
    out = []
    for rel, number, target in found:
        if rel.endswith(".cpp") and target.endswith(".h") and os.path.basename(target)[:-2] == \
                os.path.basename(rel)[:-4] and area_of(target) != area_of(rel):
            out.append(f"{rel}:{number}: its header {target} is in {area_of(target)}")
    return out


class IncludeDirection(unittest.TestCase):
    def test_the_scanner_sees_a_wrong_way_include(self):
        found = [("core/record/x.h", 7, "core/store/store.h"), ("core/store/y.cpp", 2, "core/record/x.h"),
                 ("core/base/z.cpp", 1, "tools/common/w.h"), ("tools/list/a.cpp", 4, "server/cli.h")]
        self.assertEqual(len(wrong_way(found)), 3)
        self.assertIn("core/record/x.h:7", wrong_way(found)[0])
        self.assertEqual(len(cycles(edges(found), lambda n: True)), 1)
        self.assertEqual(len(split_pairs([("core/store/x.cpp", 1, "core/record/x.h")])), 1)

    def test_core_areas_include_only_lower_ones(self):
        found = wrong_way(includes())
        if found:
            self.fail("\n" + "\n".join(found) + "\nan area includes only those before it in CORE_ORDER: move "
                      "what both need down instead")

    def test_no_cycle_among_core_areas(self):
        found = cycles(edges(includes()), lambda n: n.startswith("core/"))
        if found:
            self.fail("include cycles:\n" + "\n".join(found))

    def test_a_cpp_and_its_header_share_an_area(self):
        found = split_pairs(includes())
        if found:
            self.fail("\n".join(found))


# A cycle through core and tools/ or server/ needs a wrong-way include the test above reports, so the folders of
# tools/ are the one other place a cycle can form.
class ToolsFolderCycles(unittest.TestCase):
    def test_no_cycle_among_tools_folders(self):
        found = cycles(edges(includes()), lambda n: n.startswith("tools/"))
        if found:
            self.fail("include cycles:\n" + "\n".join(found))


if __name__ == "__main__":
    unittest.main()
