#!/usr/bin/env python3
"""Reads a captured screen of the Stacks view (stdin) and checks its call tree.

  check_tree.py sums                every open node's inclusive weight = its self + its children's
  check_tree.py roots FIXTURE       each process's inclusive weight = the fixture's sum over its rows (its
                                    last snapshot) of the weight the screen says (launches, jobs, GPU time,
                                    queue wait)
  check_tree.py names FIXTURE       every name shown is a whole name of the fixture, or cut with an
                                    ellipsis between (or after) pieces of one: no mid-word junk
  check_tree.py count               prints how many tree lines the screen shows
Exit status 0 when it holds; what failed on stdout."""
import json, re, sys

BAR = set("█▉▊▋▌▍▎▏ ")
ROW = re.compile(r"^ +([0-9.]+)(?: ms)? +([0-9.]+)(?: ms)? (.*)$")


def nodes(screen):
    """(incl, self, depth, open, name) of each tree line."""
    out = []
    for line in screen.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        rest = m.group(3)
        if len(rest) > 11 and all(c in BAR for c in rest[:10]) and rest[10] == " ":
            rest = rest[11:]  # the SHARE bar
        indent = len(rest) - len(rest.lstrip(" "))
        body = rest[indent:]
        depth_mark = re.match(r"\[(\d+)\] ", body)
        if depth_mark:  # deeper than the width shows: the depth said
            body = body[depth_mark.end():]
            depth = int(depth_mark.group(1))
            opened = body.startswith("▾")
            body = body[2:] if body[:1] in "▾▸ " else body  # a leaf's mark: two spaces
        elif body[:1] in "▾▸":
            depth, opened, body = indent // 2 + 1, body.startswith("▾"), body[2:]
        else:
            depth, opened = (indent - 2) // 2 + 1, False
        out.append((float(m.group(1)), float(m.group(2)), depth, opened, body.rstrip()))
    return out


def check_sums(ns):
    bad = 0
    for i, (incl, own, depth, opened, name) in enumerate(ns):
        if not opened:
            continue
        kids, j = 0.0, i + 1
        while j < len(ns) and ns[j][2] > depth:
            if ns[j][2] == depth + 1:
                kids += ns[j][0]
            j += 1
        if j == len(ns):
            continue  # its children may go on below the screen
        if abs(incl - (own + kids)) > 0.0015:
            print("%s: inclusive %g, self %g + children %g" % (name, incl, own, kids))
            bad += 1
    return bad == 0 and any(n[3] for n in ns)


def fixture(path):
    return json.loads(open(path).read().splitlines()[-1])["tables"]


WEIGHTS = {"launches": "launches", "jobs": "jobs", "GPU time": "gpu_time_ns", "queue wait": "queue_wait_ns"}


def check_roots(path, screen):
    said = re.search(r"Weight: ([a-zA-Z ]+) \(", screen)
    if not said or said.group(1) not in WEIGHTS:
        print("no weight said on the screen")
        return False
    weight, sums = WEIGHTS[said.group(1)], {}
    for table in ("nvidia.stacks", "drm_sched.stacks"):
        for r in fixture(path).get(table, []):
            if weight in ("launches", "jobs"):
                v = r["count"] if r["source"] == {"launches": "launch", "jobs": "job"}[weight] else 0
            else:
                v = (r[weight] or 0) / 1e6
            key = "%s %d" % (r["comm"][:31], r["pid"])
            sums[key] = sums.get(key, 0) + v
    ok, seen = True, 0
    for incl, own, depth, opened, name in nodes(screen):
        if depth != 1:
            continue
        match = [k for k in sums if k == name or ("?" in name and len(k) == len(name))]
        if not match or abs(sums[match[0]] - incl) > 0.0015:
            print("process %s: %g on screen, the fixture's rows sum to %s" % (name, incl, sums.get(match[0]) if match else None))
            ok = False
        seen += 1
    return ok and seen > 0


def check_names(path):
    names = set()
    for table in ("nvidia.stacks", "drm_sched.stacks"):
        for r in fixture(path).get(table, []):
            names.update(r["frames"].split(";"))
            names.add(r["leaf"])
            names.add("%s %d" % (r["comm"], r["pid"]))
    safe = {re.sub(r"[\x00-\x1f\x7f]", "?", n) for n in names}
    ok = True
    for incl, own, depth, opened, name in nodes(sys.stdin.read()):
        if name in safe or name in ("[empty frame]",) or re.fullmatch(r"\[\d+ more frames not shown\]", name):
            continue
        pieces = [p for p in name.split("…") if p]
        if "…" in name and pieces and all(any(p in n for n in safe) for p in pieces):
            continue
        print("not a whole name nor cut with an ellipsis: %r" % name)
        ok = False
    return ok


def main():
    what = sys.argv[1]
    if what == "count":
        print(len(nodes(sys.stdin.read())))
        return 0
    if what == "sums":
        return 0 if check_sums(nodes(sys.stdin.read())) else 1
    if what == "roots":
        return 0 if check_roots(sys.argv[2], sys.stdin.read()) else 1
    if what == "names":
        return 0 if check_names(sys.argv[2]) else 1
    return 2


sys.exit(main())
