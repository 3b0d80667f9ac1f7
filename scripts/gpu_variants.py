#!/usr/bin/env python3
"""Write the kernels of bench/gpu/variants.toml into DIR, each beside the kernel it varies
(scripts/gpu_bench.sh --variants). A replacement that does not occur in its kernel is an
error: the variant would time the original.

    python3 scripts/gpu_variants.py DIR [KERNEL ...]   # KERNEL: more originals to copy
"""
import os
import re
import shutil
import sys
import tomllib


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open("bench/gpu/variants.toml", "rb") as f:
        variants = tomllib.load(f)["variant"]
    originals = set(sys.argv[2:])
    for v in variants:
        src = open(f"bench/gpu/kernels/{v['of']}.cl").read()
        text = src
        for old, new in v["replace"]:
            if old not in text:
                sys.exit(f"gpu_variants.py: {v['name']}: {old!r} is not in {v['of']}.cl")
            text = text.replace(old, new)
        text = re.sub(rf"(//@bench(?:-cpu)? ){v['of']}\b", rf"\g<1>{v['name']}", text)
        text = re.sub(rf"\bvoid {v['of']}\(", f"void {v['name']}(", text)
        text = f"// {v['of']} with {v['why']} (bench/gpu/variants.toml).\n" + text
        with open(os.path.join(out, f"{v['name']}.cl"), "w") as f:
            f.write(text)
        originals.add(v["of"])
    for k in sorted(originals):
        shutil.copy(f"bench/gpu/kernels/{k}.cl", out)


if __name__ == "__main__":
    main()
