#!/usr/bin/env python3
"""The house in numbers at a commit (docs/architecture.md, "Rooms"): rooms, the arrows between
them (a file of one room naming `crate::<other room>`, comments and unit-test modules left
out, as tests/rooms.rs reads them), pairs of rooms that name each other, files and lines per
folder, and the largest files.

    python3 scripts/rooms_report.py [COMMIT ...]     # default HEAD; several: one column each
"""
import collections
import re
import subprocess
import sys


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def code(text):
    """The source without line comments and without its unit-test module."""
    at = text.find("#[cfg(test)]\nmod tests")
    if at >= 0:
        text = text[:at]
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def named_rooms(src):
    """The first segment of every `crate::` path, `use crate::{a, b::c}` lists included."""
    out = []
    for m in re.finditer(r"crate::(\{[^;]*?\};|\w+)", src):
        item = m.group(1)
        if item.startswith("{"):
            depth, start, body = 0, 0, item[1:-2]
            parts = []
            for i, c in enumerate(body):
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                elif c == "," and depth == 0:
                    parts.append(body[start:i])
                    start = i + 1
            parts.append(body[start:])
            out += [re.match(r"\s*(\w*)", p).group(1) for p in parts]
        else:
            out.append(item)
    return [r for r in out if r]


def report(commit):
    files = [f for f in git("ls-tree", "-r", "--name-only", commit, "src").split()
             if f.endswith(".rs")]
    text = {f: git("show", f"{commit}:{f}") for f in files}
    room_of = {}
    for f in files:
        parts = f.split("/")
        if len(parts) == 2 and parts[1] in ("lib.rs", "internals.rs"):
            continue
        if parts[1] == "bin":
            continue
        room_of[f] = parts[1][:-3] if len(parts) == 2 else parts[1]
    rooms = sorted(set(room_of.values()))
    edges = set()
    for f, room in room_of.items():
        for other in named_rooms(code(text[f])):
            if other in rooms and other != room:
                edges.add((room, other))
    both_ways = sorted({tuple(sorted(e)) for e in edges if (e[1], e[0]) in edges})
    per_folder = collections.Counter(f.rsplit("/", 1)[0] for f in files)
    lines = {f: text[f].count("\n") for f in files}
    room_lines = collections.Counter()
    for f, room in room_of.items():
        room_lines[room] += lines[f]
    total = sum(lines.values())
    return {
        "rooms": len(rooms),
        "arrows between rooms": len(edges),
        "pairs of rooms naming each other": len(both_ways),
        "files in src/": len(files),
        "lines in src/": total,
        "folders": len(per_folder),
        "most files in one folder": "{1} ({0})".format(*per_folder.most_common(1)[0]),
        "files at src/vulkan's top level": per_folder.get("src/vulkan", 0),
        "largest room": "{0}, {1} lines ({2:.0%})".format(
            *room_lines.most_common(1)[0], room_lines.most_common(1)[0][1] / total),
        "largest file": "{1} lines ({0})".format(*max(lines.items(), key=lambda kv: kv[1])),
        "files over 700 lines": sum(1 for n in lines.values() if n > 700),
    }


def main():
    commits = sys.argv[1:] or ["HEAD"]
    columns = [(c, report(c)) for c in commits]
    print("| | " + " | ".join(c for c, _ in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for key in columns[0][1]:
        print(f"| {key} | " + " | ".join(str(r[key]) for _, r in columns) + " |")


if __name__ == "__main__":
    main()
