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
import uuid

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


# Compact matches (Sources/HeraldModel/Compact), without their first byte (FuzzCompactMatch
# puts it back): the layout of Match.compactEncoded, written here rather than by Swift so the
# seeds need no build.
def compact_match(recipient, kind, reason, subscription, change, fields, info, revision=None):
    def varint(n):
        out = bytearray()
        while n >= 0x80:
            out.append((n & 0x7F) | 0x80)
            n >>= 7
        out.append(n)
        return bytes(out)
    def text(value):
        data = value.encode("utf-8")
        return varint(len(data)) + data
    def optional(value):
        return b"\0" if value is None else varint(len(value.encode("utf-8")) + 1) + value.encode("utf-8")
    def strings(values):
        return varint(len(values)) + b"".join(text(v) for v in values)
    def int64(n):
        return struct.pack("<q", n)
    sub_id, sub_type, container, database, owner, zone = subscription
    out = text(recipient) + text(kind) + optional(reason)
    out += text(sub_id) + text(sub_type) + text(container) + text(database) + text(owner)
    out += (b"\1" + text(zone[0]) + text(zone[1])) if zone else b"\0"
    out += b"\0"  # firesOnce
    alert_key, alert_args, desired, collapse = info
    out += optional(None) + optional(alert_key) + strings(alert_args) + optional(None) + optional(None) + strings([])
    out += optional(None) + optional(None) + strings([]) + optional(None) + optional(None) + optional("default")
    out += b"\1\0\0" + strings(desired) + optional(None) + optional(collapse)
    out += b"\0" if revision is None else b"\1" + int64(revision)  # the subscription's revision (form 4)
    change_id, record_type, record_name, timestamp = change
    out += text(change_id) + text(container) + text(database) + text("_defaultZone") + text(owner)
    out += text(record_type) + text(record_name) + text("update") + varint(len(fields))
    for name, (tag, payload) in fields:
        out += text(name) + bytes([tag]) + payload
    out += optional("_u2") + optional(None) + int64(timestamp) + optional(None) + b"\0"
    namespace = uuid.UUID(bytes=bytes([0xC2, 0xA9, 0xF3, 0xD8, 0x6F, 0x1E, 0x4B, 0x7A, 0x9D, 0x0C, 0x5E, 0x8B, 0x1A, 0x2F, 0x4C, 0x60]))
    out += text(str(uuid.uuid5(namespace, "%s/%s/%s" % (change_id, owner, sub_id))))
    return out


TAGS = b'{"type":"STRING_LIST","value":["urgent","home"]}'
add("compact-match", compact_match(
    "_u1", "query", "recordUpdated", ("urgent", "query", "iCloud.com.example.notes", "private", "_u1", None),
    ("c1", "Note", "n-1", 1795300000000),
    [("title", (1, b"\x09Groceries")), ("priority", (2, struct.pack("<q", 5))), ("ratio", (3, struct.pack("<d", 0.5))),
     ("tags", (0, bytes([len(TAGS)]) + TAGS))],
    ("NOTE_CHANGED", ["title"], ["priority", "ratio", "tags"], None), revision=1795300000000123))
add("compact-match", compact_match(
    "_u9", "recordZone", None, ("zone-sub", "zone", "iCloud.com.example.notes", "private", "_u9", ("Shared", "_u9")),
    ("c2", "Item", "i-7", 0), [("when", (4, struct.pack("<q", 1795300000000)))], (None, [], ["when"], "when")))


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
