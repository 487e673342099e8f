#!/usr/bin/env python3
"""Fetch fio 3.33's example job files for e2e/fio_examples.py: Debian's source tarball of
fio 3.33 from Debian's archive, checked against the SHA-256 its .dsc lists, with only its
examples/ kept, in ~/.cache/iojob/fio-3.33-examples (or $XDG_CACHE_HOME's). None of fio's
files are kept in this repository; a second run finds them cached. Prints the directory, or
a note on stderr (and exits 0) when the archive cannot be reached: the test then skips."""
import hashlib
import io
import os
import sys
import tarfile
import urllib.request

URL = "http://deb.debian.org/debian/pool/main/f/fio/fio_3.33.orig.tar.gz"
SHA256 = "d2410e13e0f379d061d077cc5ae325835bb7c6186aa7bafc1df954cbc9b014fc"


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "iojob", "fio-3.33-examples")


def main():
    dest = cache_dir()
    if os.path.isdir(dest) and os.listdir(dest):
        print(dest)
        return
    try:
        with urllib.request.urlopen(URL, timeout=60) as r:
            data = r.read()
    except OSError as e:
        print("iojob: fio's examples not fetched (%s): e2e-fio_examples will skip" % e,
              file=sys.stderr)
        return
    if hashlib.sha256(data).hexdigest() != SHA256:
        print("iojob: %s does not match its SHA-256: not used" % URL, file=sys.stderr)
        return
    tmp = dest + ".part"
    os.makedirs(tmp, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
        for m in t.getmembers():
            parts = m.name.split("/")
            if m.isfile() and len(parts) == 3 and parts[1] == "examples":
                with t.extractfile(m) as src, open(os.path.join(tmp, parts[2]), "wb") as out:
                    out.write(src.read())
    os.rename(tmp, dest)
    print(dest)


if __name__ == "__main__":
    main()
