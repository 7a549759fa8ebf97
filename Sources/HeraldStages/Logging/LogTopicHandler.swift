import Foundation
import HeraldModel
import Logging

/// A swift-log handler that puts structured lines into a `LogTopicSink` for the `logs` topic.
/// Cheap and non-blocking: it copies the event into the sink; encoding and shipping happen
/// on the `LogShipper`.
public struct LogTopicHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let instance: String
    private let sink: LogTopicSink

    public init(label: String, instance: String, sink: LogTopicSink, logLevel: Logger.Level = .info) {
        self.label = label
        self.instance = instance
        self.sink = sink
        self.logLevel = logLevel
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        if let error = event.error { merged["error"] = .string("\(error)") }
        sink.append(LogLine(
            time: EpochMilliseconds.now(),
            level: event.level.rawValue,
            label: label,
            message: event.message.description,
            metadata: merged.mapValues(\.flatText),
            source: event.source,
            instance: instance,
            file: event.file,
            line: event.line))
    }
}
