"""Flips one byte in the middle of each compile cache entry that holds an
object (markers are a header only): damage a reader must notice."""
import glob
import os
import sys

for path in glob.glob(os.path.join(sys.argv[1], "*.tpo")):
    size = os.path.getsize(path)
    if size <= 200:
        continue
    with open(path, "r+b") as f:
        f.seek(size // 2)
        byte = f.read(1)[0]
        f.seek(size // 2)
        f.write(bytes([byte ^ 0xFF]))
    print("damaged", os.path.basename(path))
