import HeraldModel

/// The values of one notification's holes (``PayloadTemplate/Hole``), each written as JSON
/// once into one buffer and copied from there into both layouts (the APNs order and the
/// sorted one); only `af` is written twice, once per order.
struct HoleBytes {
    /// Every hole's bytes, one after another.
    private var writer: JSONWriter
    /// Where each hole's bytes are.
    private var ranges = HoleRanges()

    /// Writes the values of `holes` for one notification (`match` and `values` borrowed: an
    /// initializer's parameters are otherwise owned, copies of the whole match and values).
    init(
        _ holes: [PayloadTemplate.Hole], desiredKeys: DesiredKeyOrder?, match: borrowing Match, zone: ZoneID,
        values: borrowing PayloadValues, badge: Int?
    ) {
        writer = JSONWriter(capacity: 256)
        for hole in holes {
            writer.beginFragment()
            let start = writer.count
            switch hole {
            case .titleLocArgs: writer.strings(values.title.texts)
            case .subtitleLocArgs: writer.strings(values.subtitle.texts)
            case .locArgs: writer.strings(values.alert.texts)
            case .badge: writer.integer(Int64(badge ?? 0))
            case .nid: writer.string(match.notificationID)
            case .zid: writer.string(zone.zoneName)
            case .zoid: writer.string(zone.ownerRecordName)
            case .rid: writer.string(match.change.recordName)
            case .fo: writer.integer(Int64(match.queryNotificationReason.map(NotificationComposer.pushCode(of:)) ?? 0))
            case .desiredKeys:
                guard let desiredKeys, desiredKeys.write(values.desiredKeys, sorted: false, into: &writer) else { continue }
                ranges[hole.rawValue] = start..<writer.count
                writer.beginFragment()
                let sortedStart = writer.count
                _ = desiredKeys.write(values.desiredKeys, sorted: true, into: &writer)
                ranges[HoleRanges.sortedDesiredKeys] = sortedStart..<writer.count
                continue
            }
            ranges[hole.rawValue] = start..<writer.count
        }
    }

    /// Where the bytes of `hole` are in ``bytes`` (`af` in sorted order when `sorted`);
    /// empty when it has no value.
    func range(of hole: PayloadTemplate.Hole, sorted: Bool) -> Range<Int> {
        ranges[hole == .desiredKeys && sorted ? HoleRanges.sortedDesiredKeys : hole.rawValue]
    }

    /// Calls `body` with the holes' bytes (not copied).
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        writer.withUnsafeBufferPointer(body)
    }
}
