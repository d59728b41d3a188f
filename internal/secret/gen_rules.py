#!/usr/bin/env python3
"""Converts gitleaks' default rule file (config/gitleaks.toml) into gitleaks.json.

Run once per gitleaks update, from this folder:

    git -C <gitleaks checkout> show v8.30.1:config/gitleaks.toml > /tmp/gitleaks.toml
    python3 gen_rules.py /tmp/gitleaks.toml v8.30.1 > gitleaks.json

Python's tomllib (3.11+) reads the TOML, so ccvet needs no TOML library at
run time: the JSON keeps every field the Go side uses, in file order.

One change of form, none of meaning: an allowlist regex that is a plain
literal of 20 or more letters, digits, "_" or "-" is a sample key (the
gcp-api-key rule lists 16 Google API keys), and a key must not be
committed. It is stored as its length and SHA-256 under "hashes"; the Go
side allows a target holding a substring of that length and digest, as the
regex (which matches wherever the literal occurs) did.
"""
import hashlib
import json
import re
import sys
import tomllib

KEY_LITERAL = re.compile(r"[A-Za-z0-9_-]{20,}")


def allowlist(a):
    out = {}
    for k in ("description", "condition", "regexTarget", "regexes", "stopwords", "paths", "commits"):
        if k in a:
            out[k] = a[k]
    if "regexes" in out:
        keys = [r for r in out["regexes"] if KEY_LITERAL.fullmatch(r)]
        if keys:
            out["regexes"] = [r for r in out["regexes"] if not KEY_LITERAL.fullmatch(r)]
            if not out["regexes"]:
                del out["regexes"]
            out["hashes"] = [{"length": len(r), "sha256": hashlib.sha256(r.encode()).hexdigest()} for r in keys]
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
