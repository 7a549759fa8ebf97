extension Subscription: WireDecodable, WireEncodable {
    /// Reads a subscription as `init(from:)` does (same checks in the same order).
    public init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        try self.init(wire: document, at: node, slim: false)
    }

    /// Reads a subscription, or with `slim` one as a slim match carries it (no `query`, no
    /// `firesOn`: `SlimSubscription.init(from:)`), with the Codable path's checks in its order.
    init(wire document: JSONDocument, at node: Int, slim: Bool) throws(ModelError) {
        let c = try JSONMembers(document, node)
        subscriptionID = try c.nonEmpty("subscriptionID")
        subscriptionType = try c.wireEnum(SubscriptionType.self, "subscriptionType")
        container = try c.nonEmpty("container")
        database = try c.wireEnum(DatabaseScope.self, "database")
        try Self.checkType(subscriptionType, allowedIn: database)
        ownerRecordName = try c.nonEmpty("ownerRecordName")
        if !slim, let node = c.present("query") {
            query = try c.within("query") { () throws(ModelError) in try SubscriptionQuery(wire: document, at: node) }
        } else {
            query = nil
        }
        zoneID = try c.optionalZoneID("zoneID")
        firesOn = slim ? [] : try c.events("firesOn") ?? []
        firesOnce = try c.optionalBool("firesOnce") ?? false
        if let node = c.present("notificationInfo") {
            notificationInfo = try c.within("notificationInfo") { () throws(ModelError) in
                try NotificationInfo(wire: document, at: node)
            }
        } else {
            notificationInfo = NotificationInfo()
        }
        revision = try c.nonNegativeIfPresent("revision")
        if !slim {
            try validateShape()
        } else {
            try checkZoneID()
        }
    }

    /// `validateShape` of the Codable path, on the decoded value.
    private func validateShape() throws(ModelError) {
        switch subscriptionType {
        case .query:
            guard query != nil else { throw ModelError(.missingValue, "a query subscription needs a query", path: "query") }
            guard !firesOn.isEmpty else { throw ModelError(.invalidValue, Self.emptyFiresOnReason, path: "firesOn") }
            if let duplicate = firesOn.enumerated().first(where: { firesOn.firstIndex(of: $0.element) != $0.offset }) {
                throw ModelError(
                    .invalidValue, "duplicate event \"\(duplicate.element.rawValue)\"", path: "firesOn[\(duplicate.offset)]")
            }
        case .zone, .database:
            if query != nil { throw ModelError(.invalidValue, "only query subscriptions have a query", path: "query") }
            try checkZoneID()
        }
    }

    /// Writes the subscription as the synthesized `encode(to:)` does, keys in byte order.
    public func write(to writer: inout JSONWriter) throws(ModelError) {
        try write(to: &writer, slim: false)
    }

    /// Writes the subscription, or with `slim` without `query` and `firesOn` as
    /// `SlimSubscription.encode(to:)` does, keys in byte order.
    func write(to writer: inout JSONWriter, slim: Bool) throws(ModelError) {
        writer.beginObject()
        writer.member("container", container)
        writer.member("database", database)
        if !slim {
            writer.key("firesOn")
            writer.strings(firesOn.map(\.rawValue))
        }
        writer.member("firesOnce", firesOnce)
        writer.key("notificationInfo")
        notificationInfo.write(to: &writer)
        writer.member("ownerRecordName", ownerRecordName)
        if !slim, let query {
            try writer.nested("query") { (writer) throws(ModelError) in try query.write(to: &writer) }
        }
        if let revision {
            writer.key("revision")
            writer.integer(revision)
        }
        writer.member("subscriptionID", subscriptionID)
        writer.member("subscriptionType", subscriptionType)
        if let zoneID {
            writer.key("zoneID")
            writer.zoneID(zoneID)
        }
        writer.endObject()
    }
}

extension JSONMembers {
    /// `firesOn`: an optional list of event names.
    fileprivate func events(_ key: StaticString) throws(ModelError) -> [Subscription.Event]? {
        guard let node = present(key) else { return nil }
        return try within(key) { () throws(ModelError) in
            guard document.kind(node) == .array else {
                throw ModelError(.typeMismatch, "expected an array but found \(document.foundDescription(node))")
            }
            // Element by element, as Codable reads `[Event]`: the first bad element is reported.
            var events: [Subscription.Event] = []
            var element = node + 1
            for index in 0..<Int(document.nodes[node].count) {
                do throws(ModelError) {
                    events.append(try Subscription.Event(wireName: document.string(element), at: []))
                } catch {
                    throw error.prefixed(index: index)
                }
                element = Int(document.nodes[element].next)
            }
            return events
        }
    }
}

extension SubscriptionQuery {
    /// Reads a query as `init(from:)` does.
    init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        recordType = try c.nonEmpty("recordType")
        predicate = try c.nonEmptyIfPresent("predicate")
        if let node = c.present("arguments") {
            arguments = try c.within("arguments") { () throws(ModelError) in try document.jsonValues(node) }
        } else {
            arguments = nil
        }
        if let node = c.present("filterBy") {
            filterBy = try c.within("filterBy") { () throws(ModelError) in
                guard document.kind(node) == .array else {
                    throw ModelError(.typeMismatch, "expected an array but found \(document.foundDescription(node))")
                }
                var filters: [QueryFilter] = []
                var index = node + 1
                for position in 0..<Int(document.nodes[node].count) {
                    do throws(ModelError) { filters.append(try QueryFilter(wire: document, at: index)) } catch { throw error.prefixed(index: position) }
                    index = Int(document.nodes[index].next)
                }
                return filters
            }
        } else {
            filterBy = nil
        }
        if predicate != nil, filterBy != nil {
            throw ModelError(.invalidValue, "give either predicate or filterBy, not both", path: "filterBy")
        }
        if arguments != nil, predicate == nil {
            throw ModelError(.invalidValue, "arguments need a predicate", path: "arguments")
        }
    }

    func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        if let arguments {
            try writer.nested("arguments") { (writer) throws(ModelError) in try writer.value(.array(arguments)) }
        }
        if let filterBy {
            try writer.nested("filterBy") { (writer) throws(ModelError) in
                writer.beginArray()
                for (index, filter) in filterBy.enumerated() {
                    do throws(ModelError) { try filter.write(to: &writer) } catch { throw error.prefixed(index: index) }
                }
                writer.endArray()
            }
        }
        writer.member("predicate", predicate)
        writer.member("recordType", recordType)
        writer.endObject()
    }
}

extension QueryFilter {
    /// Reads a filter as `init(from:)` does.
    init(wire document: JSONDocument, at node: Int) throws(ModelError) {
        let c = try JSONMembers(document, node)
        comparator = try c.wireEnum(FilterComparator.self, "comparator")
        fieldName = try c.nonEmpty("fieldName")
        guard let valueNode = c.value("fieldValue") else { throw c.missing("fieldValue") }
        fieldValue = try c.within("fieldValue") { () throws(ModelError) in
            guard document.kind(valueNode) != .null else { throw ModelError(.missingValue, "expected an object, got null") }
            return try FieldValue(wire: document, at: valueNode)
        }
        distance = try c.optionalDouble("distance")
        if comparator == .near {
            guard case .location = fieldValue else {
                throw ModelError(.invalidValue, "NEAR compares with a LOCATION, got \(fieldValue.type.rawValue)", path: "fieldValue")
            }
            guard let distance else { throw ModelError(.missingValue, "NEAR needs a distance in metres", path: "distance") }
            guard distance >= 0 else {
                throw ModelError(.invalidValue, "distance must not be negative, got \(distance)", path: "distance")
            }
        }
    }

    func write(to writer: inout JSONWriter) throws(ModelError) {
        writer.beginObject()
        writer.member("comparator", comparator)
        if let distance {
            try writer.nested("distance") { (writer) throws(ModelError) in try writer.double(distance) }
        }
        writer.member("fieldName", fieldName)
        try writer.nested("fieldValue") { (writer) throws(ModelError) in try fieldValue.write(to: &writer) }
        writer.endObject()
    }
}

extension JSONDocument {
    /// An array of any values as `decode([JSONValue].self)` reads it (an element's error at its index).
    func jsonValues(_ node: Int) throws(ModelError) -> [JSONValue] {
        guard kind(node) == .array else {
            throw ModelError(.typeMismatch, "expected an array but found \(foundDescription(node))")
        }
        var values: [JSONValue] = []
        var index = node + 1
        for position in 0..<Int(nodes[node].count) {
            do { values.append(try jsonValue(index)) } catch { throw error.prefixed(index: position) }
            index = Int(nodes[index].next)
        }
        return values
    }
}
