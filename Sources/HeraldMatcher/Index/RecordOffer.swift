import HeraldModel
import HeraldPredicate

/// The candidates a record brings in one query bucket: every posting hash its fields offer
/// to the bucket's lookups (`RecordLookups`), looked up in one pass over the posting table,
/// and the range stabs of its numeric fields. Each field of the record is read once.
struct RecordOffer {
    let lookups: RecordLookups
    let hasher: PostingHasher
    let ranges: [RangeIndex]

    /// Appends the candidates of a record's fields to `result` (unsorted, maybe repeated).
    func collect(_ fields: [String: FieldValue], postings: PostingTable, into result: inout [Int32]) {
        var hashes = PostingHashes(capacity: 64)
        defer { hashes.deallocate() }
        let hasher = hasher
        lookups.lookups.withUnsafeBufferPointer { all in
            lookups.lengths.withUnsafeBufferPointer { lengths in
                ranges.withUnsafeBufferPointer { ranges in
                    let offer = FieldOffer(hasher: hasher, lookups: all, lengths: lengths, ranges: ranges)
                    let every = lookups.everyField
                    if every != nil || fields.count <= 4 * lookups.fields.count {
                        // Walk the record once (an all-fields token search reads every field),
                        // finding each name among the bucket's (`FieldNameTable`: no SipHash).
                        for (name, value) in fields {
                            let field = lookups.fields.value(of: name)
                            switch value {
                            case .string(let text):
                                if every != nil || field != nil { offer.offer(text, field, every: every, into: &hashes, &result) }
                            default:
                                if let every {
                                    RecordKeys.forEachTokenHash(of: value, number: every, hasher: hasher) { hashes.append($0) }
                                }
                                if let field { offer.offer(value, field, into: &hashes, &result) }
                            }
                        }
                    } else {
                        // A record with many more fields than the bucket asks about.
                        for (name, field) in lookups.fields.entries {
                            guard let value = fields[name] else { continue }
                            if case .string(let text) = value {
                                offer.offer(text, field, every: nil, into: &hashes, &result)
                            } else {
                                offer.offer(value, field, into: &hashes, &result)
                            }
                        }
                    }
                }
            }
        }
        postings.append(hashes.buffer, to: &result)
    }
}

/// The bucket's lookups as buffers, for the walk of one record: a value without references,
/// so closures and calls copy and retain nothing.
private struct FieldOffer {
    let hasher: PostingHasher
    let lookups: UnsafeBufferPointer<RecordLookups.Lookup>
    let lengths: UnsafeBufferPointer<Int>
    let ranges: UnsafeBufferPointer<RangeIndex>

    /// The hashes a STRING field's value offers to its lookups (if `field`) and to an
    /// all-fields token search (probe `every`). A `SimpleText` (most strings) is read from one
    /// access to its bytes, checked once: every lookup walks the same bytes (each walk
    /// fetching the bytes and checking them again was a fifth of offering a record). Other
    /// text takes the general path.
    func offer(
        _ text: String, _ field: RecordLookups.Field?, every: Int32?, into hashes: inout PostingHashes, _ result: inout [Int32]
    ) {
        var bytes = text
        let offered = bytes.withUTF8 { bytes -> Bool in
            guard SimpleText.isSimple(bytes: bytes) else { return false }
            if let every { hasher.forEachToken(every, ofASCII: bytes) { hashes.append($0) } }
            // A string stabs no range and has no cells.
            guard let field else { return true }
            for position in field.lookups {
                let lookup = lookups[position]
                let number = lookup.number
                let lowercasing = lookup.options.contains(.caseInsensitive)
                switch lookup.kind {
                case .prefix, .suffix:
                    hasher.forEachAffix(
                        number, ofSimpleBytes: bytes, lengths: UnsafeBufferPointer(rebasing: lengths[lookup.lengths]),
                        reversed: lookup.kind == .suffix, lowercasing: lowercasing
                    ) { hashes.append($0) }
                case .gram:
                    hasher.forEachGram(
                        number, ofSimpleBytes: bytes, lengths: UnsafeBufferPointer(rebasing: lengths[lookup.lengths]),
                        lowercasing: lowercasing
                    ) { hashes.append($0) }
                case .token:
                    hasher.forEachToken(number, ofASCII: bytes) { hashes.append($0) }
                case .value:
                    // ASCII folds to itself, lower-cased under `[c]` (`Comparison.Options.fold`).
                    hashes.append(hasher.hash(number, asciiBytes: bytes, lowercasing: lowercasing))
                case .cell:
                    break
                }
            }
            return true
        }
        guard !offered else { return }
        let value = FieldValue.string(text)
        if let every { RecordKeys.forEachTokenHash(of: value, number: every, hasher: hasher) { hashes.append($0) } }
        if let field { offer(value, field, into: &hashes, &result) }
    }

    /// The hashes one field's value offers to its lookups, and its range stabs.
    func offer(_ value: FieldValue, _ field: RecordLookups.Field, into hashes: inout PostingHashes, _ result: inout [Int32]) {
        if field.rangeIndex >= 0 { stab(value, ranges[field.rangeIndex], into: &result) }
        guard !field.lookups.isEmpty else { return }
        // A `SimpleText` string never comes here (`offer(_:_:every:into:_:)` walks its bytes).
        var folded: [String] = []
        for position in field.lookups {
            let lookup = lookups[position]
            let number = lookup.number
            switch lookup.kind {
            case .prefix, .suffix, .gram:
                let walked = UnsafeBufferPointer(rebasing: lengths[lookup.lengths])
                if lookup.folds {
                    folded.removeAll(keepingCapacity: true)
                    IndexKey.forEachString(of: value, folding: lookup.options) { folded.append($0) }
                }
                let wanted = Array(walked)
                for text in folded {
                    if lookup.kind == .gram {
                        hasher.forEachGram(number, of: text, lengths: wanted) { hashes.append($0) }
                    } else {
                        hasher.forEachAffix(number, of: text, lengths: wanted, reversed: lookup.kind == .suffix) { hashes.append($0) }
                    }
                }
            case .token:
                RecordKeys.forEachTokenHash(of: value, number: number, hasher: hasher) { hashes.append($0) }
            case .value:
                // An ASCII string hashes as its folded form without making it.
                if case .string(let text) = value,
                    let hash = hasher.hash(number, ascii: text, lowercasing: lookup.options.contains(.caseInsensitive)) {
                    hashes.append(hash)
                    continue
                }
                let hasher = hasher
                IndexKey.forEachKey(of: value, folding: lookup.options) { hashes.append(hasher.hash(number, $0)) }
            case .cell:
                let hasher = hasher
                RecordKeys.forEach(Probe(.cell, field: nil, length: lookup.level), of: value) { hashes.append(hasher.hash(number, $0)) }
            }
        }
    }

    /// The slots of the intervals of `index` that contain the value's numbers
    /// (`IndexKey.forEachNumber`, without a closure for a scalar).
    private func stab(_ value: FieldValue, _ index: RangeIndex, into result: inout [Int32]) {
        switch value {
        case .int64(let integer), .timestamp(let integer): index.stab(Double(integer), into: &result)
        case .double(let number): if !number.isNaN { index.stab(number, into: &result) }
        case .list: IndexKey.forEachNumber(of: value) { index.stab($0, into: &result) }
        default: break
        }
    }
}
