#!/usr/bin/env python3
"""Extract CLDR's plural samples into Swift test data for PluralRulesSampleTests.

Reads CLDR's supplemental/plurals.xml (Debian: `apt-get install unicode-cldr-core`,
/usr/share/unicode/cldr/common/supplemental/plurals.xml) and writes
Tests/HeraldPayloadTests/CLDRPluralSamples.swift: for every cardinal rule set, its locales
and, per category, the `@integer` / `@decimal` samples with ranges expanded
(`0.0~1.5` -> 0.0, 0.1, ..., 1.5: the step is one unit of the last written digit, as
CLDR's own sample tests do). Only the samples are kept, never the rule expressions, so the
test checks ICU against CLDR's examples rather than against a second implementation.

Samples written with a compact exponent (`1c6`, `1.1c3`) are left out: Herald never
formats compact numbers, so its operands always have c = e = 0 (counted in the output).

Usage: scripts/gen-plural-samples.py [plurals.xml] [output.swift]
"""
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal

SOURCE = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode/cldr/common/supplemental/plurals.xml"
OUTPUT = sys.argv[2] if len(sys.argv) > 2 else "Tests/HeraldPayloadTests/CLDRPluralSamples.swift"
MAX_RANGE = 40

LICENSE = """
COPYRIGHT AND PERMISSION NOTICE

Copyright © 1991-2022 Unicode, Inc. All rights reserved.
Distributed under the Terms of Use in https://www.unicode.org/copyright.html.

Permission is hereby granted, free of charge, to any person obtaining
a copy of the Unicode data files and any associated documentation
(the "Data Files") or Unicode software and any associated documentation
(the "Software") to deal in the Data Files or Software
without restriction, including without limitation the rights to use,
copy, modify, merge, publish, distribute, and/or sell copies of
the Data Files or Software, and to permit persons to whom the Data Files
or Software are furnished to do so, provided that either
(a) this copyright and permission notice appear with all copies
of the Data Files or Software, or
(b) this copyright and permission notice appear in associated
Documentation.

THE DATA FILES AND SOFTWARE ARE PROVIDED "AS IS", WITHOUT WARRANTY OF
ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE
WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT OF THIRD PARTY RIGHTS.
IN NO EVENT SHALL THE COPYRIGHT HOLDER OR HOLDERS INCLUDED IN THIS
NOTICE BE LIABLE FOR ANY CLAIM, OR ANY SPECIAL INDIRECT OR CONSEQUENTIAL
DAMAGES, OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE,
DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER
TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR
PERFORMANCE OF THE DATA FILES OR SOFTWARE.

Except as contained in this notice, the name of a copyright holder
shall not be used in advertising or otherwise to promote the sale,
use or other dealings in these Data Files or Software without prior
written authorization of the copyright holder.
"""

SWIFT_TYPES = """
@testable import HeraldPayload

/// One CLDR cardinal rule set: its locales and, per category, CLDR's sample numbers.
struct CLDRPluralSampleSet: Sendable {
    /// Space-separated locale identifiers sharing the rules.
    var locales: String
    /// Each category with its samples, written with their visible fraction digits.
    var samples: [(PluralCategory, [String])]
}

/// Every cardinal rule set of CLDR's plurals.xml.
enum CLDRPluralSamples {
    static let ruleSets: [CLDRPluralSampleSet] = [
"""  # a longer range keeps its two ends and every tenth value


def expand(item):
    """The numbers, as written (visible fraction digits kept), of one sample item."""
    if "~" not in item:
        return [item]
    low, high = item.split("~")
    digits = len(low.split(".")[1]) if "." in low else 0
    step = Decimal(1).scaleb(-digits)
    start, end = Decimal(low), Decimal(high)
    count = int((end - start) / step) + 1
    values = [start + step * k for k in range(count)]
    if count > MAX_RANGE:
        values = [v for k, v in enumerate(values) if k % 10 == 0 or k == count - 1]
    return [f"{v:.{digits}f}" for v in values]


def samples(text):
    """(plain samples, number of compact-exponent samples left out) of a rule's text."""
    kept, compact = [], 0
    for part in text.split("@")[1:]:
        kind, _, body = part.partition(" ")
        if kind not in ("integer", "decimal"):
            continue
        for item in body.split(","):
            item = item.strip()
            if not item or item in ("…", "..."):
                continue
            if "c" in item or "e" in item:
                compact += 1
                continue
            kept.extend(expand(item))
    return kept, compact


def main():
    root = ET.parse(SOURCE).getroot()
    cldr = root.find("plurals[@type='cardinal']")
    lines, locales_total, samples_total, compact_total = [], 0, 0, 0
    for rules in cldr.findall("pluralRules"):
        locales = rules.get("locales").split()
        locales_total += len(locales)
        forms = []
        for rule in rules.findall("pluralRule"):
            kept, compact = samples(rule.text or "")
            compact_total += compact
            samples_total += len(kept)
            quoted = ", ".join(f'"{s}"' for s in kept)
            forms.append(f"            (.{rule.get('count')}, [{quoted}]),")
        lines.append(f'        CLDRPluralSampleSet(locales: "{" ".join(locales)}", samples: [')
        lines.extend(forms)
        lines.append("        ]),")
    notice = "\n".join(("// " + line).rstrip() for line in LICENSE.strip("\n").split("\n"))
    header = (
        "// GENERATED by scripts/gen-plural-samples.py from CLDR's supplemental/plurals.xml\n"
        "// (Debian unicode-cldr-core). Do not edit; rerun the script.\n"
        f"// {locales_total} locales, {samples_total} samples; {compact_total} compact-exponent samples (`1c6`) left out.\n"
        "//\n"
        "// The samples are Unicode CLDR data:\n"
        f"{notice}\n"
        + SWIFT_TYPES
    )
    with open(OUTPUT, "w", encoding="utf-8") as out:
        out.write(header)
        out.write("\n".join(lines))
        out.write("\n    ]\n}\n")
    print(f"{OUTPUT}: {locales_total} locales, {samples_total} samples, {compact_total} compact left out")


if __name__ == "__main__":
    main()
