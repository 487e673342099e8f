#!/usr/bin/env python3
"""Fetch fio 3.33's example job files (e2e/fio_examples.py) or its own test scripts
(t/*.py, e2e/fio_scripts.py): Debian's source tarball of fio 3.33 from Debian's archive,
checked against the SHA-256 its .dsc lists, with only that folder kept, in
~/.cache/iojob/fio-3.33-examples or fio-3.33-t (or $XDG_CACHE_HOME's). None of fio's files
are kept in this repository; a second run finds them cached. Usage: fio_source.py
[examples|t]. Prints the directory, or a note on stderr (and exits 0) when the archive
cannot be reached: the test then skips."""
import hashlib
import io
import os
import sys
import tarfile
import urllib.request

URL = "http://deb.debian.org/debian/pool/main/f/fio/fio_3.33.orig.tar.gz"
SHA256 = "d2410e13e0f379d061d077cc5ae325835bb7c6186aa7bafc1df954cbc9b014fc"


def cache_dir(what):
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "iojob", "fio-3.33-" + what)


def wanted(parts, what):
    """examples/*: the job files; t/*.py: the test scripts."""
    return len(parts) == 3 and parts[1] == what and (what != "t" or parts[2].endswith(".py"))


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "examples"
    if what not in ("examples", "t"):
        sys.exit("usage: fio_source.py [examples|t]")
    dest = cache_dir(what)
    if os.path.isdir(dest) and os.listdir(dest):
        print(dest)
        return
    try:
        with urllib.request.urlopen(URL, timeout=60) as r:
            data = r.read()
    except OSError as e:
        print("iojob: fio's %s not fetched (%s): the tests of them will skip" % (what, e),
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
            if m.isfile() and wanted(parts, what):
                with t.extractfile(m) as src, open(os.path.join(tmp, parts[2]), "wb") as out:
                    out.write(src.read())
    os.rename(tmp, dest)
    print(dest)


if __name__ == "__main__":
    main()
