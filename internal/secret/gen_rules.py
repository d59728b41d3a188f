#!/usr/bin/env python3
"""Converts gitleaks' default rule file (config/gitleaks.toml) into gitleaks.json.

Run once per gitleaks update, from this folder:

    git -C <gitleaks checkout> show v8.30.1:config/gitleaks.toml > /tmp/gitleaks.toml
    python3 gen_rules.py /tmp/gitleaks.toml v8.30.1 > gitleaks.json

Python's tomllib (3.11+) reads the TOML, so ccvet needs no TOML library at
run time: the JSON keeps every field the Go side uses, in file order.
"""
import json
import sys
import tomllib


def allowlist(a):
    out = {}
    for k in ("description", "condition", "regexTarget", "regexes", "stopwords", "paths", "commits"):
        if k in a:
            out[k] = a[k]
    return out


def main():
    src, version = sys.argv[1], sys.argv[2]
    with open(src, "rb") as fh:
        d = tomllib.load(fh)
    rules = []
    for r in d["rules"]:
        out = {"id": r["id"], "description": r.get("description", "")}
        for k in ("regex", "path", "secretGroup", "entropy", "keywords"):
            if k in r:
                out[k] = r[k]
        als = list(r.get("allowlists", []))
        if "allowlist" in r:
            als.insert(0, r["allowlist"])
        if als:
            out["allowlists"] = [allowlist(a) for a in als]
        rules.append(out)
    g = d.get("allowlists", [])
    if "allowlist" in d:
        g = [d["allowlist"]] + list(g)
    doc = {
        "source": "https://github.com/gitleaks/gitleaks/blob/" + version + "/config/gitleaks.toml",
        "version": version,
        "allowlists": [allowlist(a) for a in g],
        "rules": rules,
    }
    json.dump(doc, sys.stdout, indent=1, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
