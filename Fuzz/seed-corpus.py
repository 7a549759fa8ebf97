#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/corpus/<target>/ from the repository's test fixtures.

Run from the repository root: python3 Fuzz/seed-corpus.py. Each seed is named by the SHA-1
of its bytes (libFuzzer's convention), so rerunning adds only what is new; inputs that
fuzzing found (crashes, after their fix) are added by hand and kept.
"""
import base64
import glob
import hashlib
import hmac
import json
import os
import re
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")


def add(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, hashlib.sha1(data).hexdigest()), "wb") as seed:
        seed.write(data)


def files(*patterns):
    for pattern in patterns:
        yield from sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True))


def json_documents(*patterns):
    """Every JSON document in the files: whole .json files, each line of .jsonl files."""
    for path in files(*patterns):
        with open(path, "rb") as handle:
            text = handle.read()
        if path.endswith(".jsonl"):
            yield from (line for line in text.splitlines() if line.strip())
        else:
            yield text


def swift_string_literals(*patterns):
    for path in files(*patterns):
        with open(path, encoding="utf-8") as handle:
            for literal in re.findall(r'"((?:[^"\\\n]|\\.)*)"', handle.read()):
                yield literal.replace('\\"', '"').replace("\\\\", "\\")


# Predicates: the subscriptions' predicates and the predicate-like literals of the tests.
PREDICATE_WORD = re.compile(
    r"==|!=|<|>|BEGINSWITH|CONTAINS|\bIN\b|BETWEEN|distanceToLocation|\bAND\b|\bOR\b|NOT|"
    r"TRUEPREDICATE|FALSEPREDICATE|LIKE|ANY|SELF|self|%@|%K", re.IGNORECASE)
for document in json_documents("samples/subscriptions.jsonl", "Tests/CLIGolden/subscription*.json*"):
    try:
        predicate = json.loads(document).get("query", {}).get("predicate")
    except (ValueError, AttributeError):
        continue
    if isinstance(predicate, str):
        add("predicate", predicate)
for literal in swift_string_literals("Tests/HeraldPredicateTests/*.swift", "Tests/HeraldMatcherTests/*.swift"):
    if PREDICATE_WORD.search(literal) and "\\(" not in literal and len(literal) < 400:
        add("predicate", literal)

# Localization files.
for path in files("Tests/CLIGolden/**/*.strings", "samples/**/*.strings"):
    add("strings", open(path, "rb").read())
for path in files("Tests/CLIGolden/**/*.stringsdict", "samples/**/*.stringsdict"):
    add("stringsdict", open(path, "rb").read())
for path in files("Tests/CLIGolden/**/*.xcstrings", "samples/**/*.xcstrings"):
    add("string-catalog", open(path, "rb").read())



def swift_multiline_literals(*patterns):
    """The text of each \"\"\" literal, its indentation removed as Swift does (no interpolation)."""
    for path in files(*patterns):
        with open(path, encoding="utf-8") as handle:
            for body, indent in re.findall(r'"""\n(.*?)\n([ \t]*)"""', handle.read(), re.DOTALL):
                if "\\(" in body:
                    continue
                lines = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in body.split("\n")]
                yield "\n".join(lines)


for literal in swift_multiline_literals("Tests/HeraldPayloadTests/Strings*Tests.swift"):
    if "<plist" in literal or "<dict" in literal:
        add("stringsdict", literal)
    elif "=" in literal:
        add("strings", literal)
for literal in swift_multiline_literals("Tests/HeraldPayloadTests/*Catalog*Tests.swift"):
    if "sourceLanguage" in literal or "strings" in literal:
        add("string-catalog", literal)
for path in files("Tests/HeraldPayloadTests/*Catalog*Tests.swift"):
    with open(path, encoding="utf-8") as handle:
        for literal in re.findall(r'#"(.*?)"#', handle.read()):
            if "sourceLanguage" in literal:
                add("string-catalog", literal)

# Wire formats.
for document in json_documents("samples/changes.jsonl", "Tests/CLIGolden/change-*.json", "Tests/CLIGolden/record-*.json"):
    add("record-change", document)
    add("wire-codec", document)
for document in json_documents("samples/subscriptions.jsonl", "Tests/CLIGolden/subscription*.json*"):
    add("subscription", document)
    add("wire-codec", document)
for document in json_documents("Tests/CLIGolden/match*.json*"):
    add("wire-codec", document)
for document in json_documents("samples/schedules/*.json", "Tests/CLIGolden/schedule-*.json"):
    if b'"firings"' not in document:  # expected outputs, not schedules
        add("schedule", document)

# Change tokens: valid tokens for the fuzzer's key, user and container, and near misses.
KEY = bytes([7] * 32)


def token(sequence, recipient="_fuzz", container="iCloud.fuzz", version=1):
    message = b"herald.change-token" + bytes([version])
    for field in (recipient.encode(), container.encode()):
        message += struct.pack(">I", len(field)) + field
    position = struct.pack(">q", sequence)
    message += position
    mac = hmac.new(KEY, message, hashlib.sha256).digest()[:24]
    return base64.urlsafe_b64encode(bytes([version]) + position + mac).rstrip(b"=")


for sequence in (-1, 0, 1, 41, 2**31, 2**63 - 1):
    add("change-token", token(sequence))
add("change-token", token(5, recipient="_other"))
add("change-token", token(-2))
add("change-token", token(3, version=2))
add("change-token", b"")


# A dictionary of the JSON targets' member names and type names, from the seeds.
names = set()


def collect(value):
    if isinstance(value, dict):
        for key, member in value.items():
            names.add(key)
            collect(member)
    elif isinstance(value, list):
        for member in value:
            collect(member)
    elif isinstance(value, str) and len(value) < 24 and value.isidentifier():
        names.add(value)


for target in ("record-change", "subscription", "schedule", "string-catalog"):
    for path in glob.glob(os.path.join(CORPUS, target, "*")):
        try:
            collect(json.loads(open(path, "rb").read()))
        except ValueError:
            pass
with open(os.path.join(ROOT, "Fuzz", "dictionaries", "json.dict"), "w") as dictionary:
    dictionary.write("# JSON syntax and the member names of Herald's wire formats (libFuzzer -dict).\n")
    for token in ["{", "}", "[", "]", ":", ",", "null", "true", "false", "-0", "1e400", "-9223372036854775809",
                  "9223372036854775808", "0.5", "\\u0000", "\\ud800"]:
        dictionary.write('"%s"\n' % token.replace("\\", "\\\\").replace('"', '\\"'))
    for name in sorted(names):
        dictionary.write('"\\"%s\\""\n' % name.replace("\\", "\\\\").replace('"', '\\"'))
