#!/usr/bin/env python3
"""Assemble every kernel of a tp-lower-to-nvvm module with ptxas.

Reads the output of `tp-opt --tp-lower-to-nvvm="format=isa ..."` (the
gpu.binary ops carry PTX text), writes each kernel's PTX to a temporary
file, runs `ptxas -arch=<arch> -v` on it and prints one line per kernel:
its registers, shared memory, stack and spill bytes. Exits non-zero when
ptxas rejects a kernel or a kernel is over the budget (--max-registers,
--max-shared, any spill), so that lit tests and gpu-check.sh can use it.

Usage: ptxas-check.py [--arch sm_90] [--ptxas PATH] [--max-registers N]
                      [--max-shared BYTES] FILE.mlir
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

BINARY = re.compile(r'gpu\.binary @([\w$.]+)')
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
USAGE = re.compile(r'Used (\d+) registers')
SHARED = re.compile(r'(\d+) bytes smem')
STACK = re.compile(r'(\d+) bytes stack frame, (\d+) bytes spill stores, '
                   r'(\d+) bytes spill loads')


def unescape(text):
    """Decodes an MLIR string literal's escapes (\\XX hex, \\\\, \\")."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == '\\' and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in '\\"':
                out.append(ord(nxt))
                i += 2
                continue
            if nxt == 'n':
                out.append(10)
                i += 2
                continue
            out += bytes.fromhex(text[i + 1:i + 3])
            i += 3
            continue
        out += c.encode()
        i += 1
    return out.decode()


def kernels(path):
    """(binary name, PTX text) for every gpu.binary of the file."""
    found = []
    with open(path) as f:
        for line in f:
            m = BINARY.search(line)
            if not m:
                continue
            ptx = [unescape(s) for s in STRING.findall(line)]
            ptx = [s for s in ptx if '.target' in s and '.entry' in s]
            if not ptx:
                sys.exit(f'ptxas-check: @{m.group(1)} holds no PTX (run '
                         'tp-lower-to-nvvm with format=isa)')
            found.append((m.group(1), ptx[0]))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('file')
    parser.add_argument('--arch', default='sm_90')
    parser.add_argument('--ptxas', default=None)
    parser.add_argument('--max-registers', type=int, default=128)
    parser.add_argument('--max-shared', type=int, default=48 * 1024)
    args = parser.parse_args()
    ptxas = args.ptxas or shutil.which('ptxas') or '/usr/local/cuda/bin/ptxas'
    if not os.path.exists(ptxas):
        sys.exit(f'ptxas-check: no ptxas at {ptxas}')
    found = kernels(args.file)
    if not found:
        sys.exit(f'ptxas-check: {args.file} has no gpu.binary')
    failures = 0
    print(f'{"kernel":40} {"regs":>5} {"smem":>6} {"stack":>6} {"spill":>6}')
    with tempfile.TemporaryDirectory() as tmp:
        for name, ptx in found:
            src = os.path.join(tmp, name + '.ptx')
            with open(src, 'w') as f:
                f.write(ptx)
            run = subprocess.run(
                [ptxas, f'-arch={args.arch}', '-v', src, '-o',
                 os.path.join(tmp, name + '.cubin')],
                capture_output=True, text=True)
            report = run.stdout + run.stderr
            if run.returncode != 0:
                print(f'{name}: ptxas failed:\n{report}')
                failures += 1
                continue
            regs = max((int(r) for r in USAGE.findall(report)), default=0)
            smem = max((int(s) for s in SHARED.findall(report)), default=0)
            stack = STACK.findall(report)
            frame = max((int(s[0]) for s in stack), default=0)
            spill = max((int(s[1]) + int(s[2]) for s in stack), default=0)
            over = []
            if regs > args.max_registers:
                over.append(f'registers > {args.max_registers}')
            if smem > args.max_shared:
                over.append(f'shared memory > {args.max_shared}')
            if spill:
                over.append('spills')
            print(f'{name:40} {regs:5} {smem:6} {frame:6} {spill:6}'
                  + ('  OVER BUDGET: ' + ', '.join(over) if over else ''))
            failures += bool(over)
    print(f'ptxas-check: {len(found)} kernels for {args.arch}, '
          f'{failures} failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
