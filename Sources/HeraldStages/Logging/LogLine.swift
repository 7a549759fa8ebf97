import Foundation
import Logging

/// One structured log line as shipped to the `logs` topic (JSON, one object per message).
public struct LogLine: Sendable, Codable, Equatable {
    /// Milliseconds since 1970.
    public var time: Int64
    public var level: String
    public var label: String
    public var message: String
    public var metadata: [String: String]
    public var source: String
    public var instance: String
    public var file: String
    public var line: UInt

    public init(
        time: Int64, level: String, label: String, message: String, metadata: [String: String],
        source: String, instance: String, file: String, line: UInt
    ) {
        self.time = time
        self.level = level
        self.label = label
        self.message = message
        self.metadata = metadata
        self.source = source
        self.instance = instance
        self.file = file
        self.line = line
    }
}

extension Logger.MetadataValue {
    /// A flat string rendering for the JSON log line.
    var flatText: String {
        switch self {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let values): "[" + values.map(\.flatText).joined(separator: ", ") + "]"
        case .dictionary(let values):
            "{" + values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.flatText)" }.joined(separator: ", ") + "}"
        }
    }
}
