#!/usr/bin/env python3
"""Every job option of fio 3.33, and each of its aliases, is in iojob's table: implemented,
or refused with the reason (a job that sets it fails and says why); so is each option of
fio HEAD's listed in fio_head_options.txt. None is refused as
"not built yet", and the README's "How iojob differs from fio" names each refused one.
Where fio is installed, the kept list (fio_options.txt) is checked against its
--cmdhelp=all, so the list cannot drift from the fio the other tests compare with."""
import os
import re
import shutil
import subprocess

from common import SRC, Checks, run

LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fio_options.txt")
HEAD_LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fio_head_options.txt")


def fio_list(path=LIST):
    """{name: [aliases]} as kept in fio_options.txt (or path)."""
    names = {}
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                w = line.split()
                names[w[0]] = w[1:]
    return names


def check_list_is_fios(c, names):
    fio = shutil.which("fio")
    if not fio:
        c.skip("fio is not installed: the kept list is not compared with fio's")
        return
    out = subprocess.run([fio, "--version"], capture_output=True, text=True).stdout.strip()
    if out != "fio-3.33":
        c.skip("fio here is %s, not fio-3.33: the kept list is not compared" % out)
        return
    out = subprocess.run([fio, "--cmdhelp=all"], capture_output=True, text=True).stdout
    listed = {re.split(r"\s*:", line.strip())[0] for line in out.splitlines() if ":" in line}
    c.check(listed == set(names), "fio_options.txt differs from fio --cmdhelp=all: only in "
            "fio %s, only in the list %s" % (sorted(listed - set(names)),
                                             sorted(set(names) - listed)))


def refusal(name):
    """(known, reason or None) for name as iojob --cmdhelp=NAME tells it."""
    code, out, _ = run(["--cmdhelp=" + name])
    if code != 0:
        return False, None
    m = re.search(r"^\s+refused: (.*)$", out, re.M)
    return True, m.group(1) if m else None


def readme_differences():
    with open(os.path.join(SRC, "README.md")) as f:
        text = f.read()
    m = re.search(r"^## How iojob differs from fio\n(.*?)^## ", text, re.M | re.S)
    return m.group(1) if m else ""


def main():
    c = Checks("fio_options")
    names = fio_list()
    c.check(len(names) > 200, "fio_options.txt lists only %d options" % len(names))
    check_list_is_fios(c, names)
    differences = readme_differences()
    refused = []
    head = fio_list(HEAD_LIST)
    c.check(not set(head) & set(names), "fio HEAD's list repeats 3.33's %s" %
            sorted(set(head) & set(names)))
    names = dict(names, **head)
    for name, aliases in sorted(names.items()):
        known, why = refusal(name)
        c.check(known, "fio's option '%s' is not in iojob's table" % name)
        entry = run(["--cmdhelp=" + name])[1].split()[:1]
        for alias in aliases:
            code, out, _ = run(["--cmdhelp=" + alias])
            c.check(code == 0 and out.split()[:1] == entry,
                    "fio's alias '%s' of '%s' is not iojob's" % (alias, name))
        if why is None:
            continue
        refused.append(name)
        c.check(why != "not built yet", "option '%s' is a placeholder, refused as 'not built "
                "yet'" % name)
        c.check("`%s`" % name in differences, "README's 'How iojob differs from fio' does not "
                "name the refused option '%s'" % name)
    print("%d of fio's %d options (3.33's and %d of HEAD's) implemented, %d refused with a "
          "reason" % (len(names) - len(refused), len(names), len(head), len(refused)))
    c.finish()


if __name__ == "__main__":
    main()
