/// An event encodes as `{"type": "touch", "time": 12.48, "timeRecorded": true, "file": …, "line": …,
/// "touch": {…}}`: a `type` field and the payload under the key named by it, as `triage-v1.schema.json`
/// documents.
extension TimelineEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, time, timeRecorded, file, line
        case touch, network, screen, view, exception, custom, log, analytics, push, snapshot
    }

    /// Decodes the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        let kind: Kind =
            switch type {
            case "touch": .touch(try container.decode(TouchEvent.self, forKey: .touch))
            case "network": .network(try container.decode(NetworkExchange.self, forKey: .network))
            case "screen": .screen(try container.decode(ScreenChange.self, forKey: .screen))
            case "view": .viewUpdate(try container.decode(ViewUpdate.self, forKey: .view))
            case "exception": .exception(try container.decode(AppException.self, forKey: .exception))
            case "custom": .custom(try container.decode(CustomEvent.self, forKey: .custom))
            case "log": .log(try container.decode(LogLine.self, forKey: .log))
            case "analytics": .analytics(try container.decode(AnalyticsEvent.self, forKey: .analytics))
            case "push": .push(try container.decode(PushNotification.self, forKey: .push))
            case "snapshot": .snapshot(try container.decode(SnapshotPayload.self, forKey: .snapshot))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container, debugDescription: "unknown event type \(type)")
            }
        self.init(
            timestamp: try container.decode(Double.self, forKey: .time),
            timeIsRecorded: try container.decode(Bool.self, forKey: .timeRecorded),
            file: try container.decode(String.self, forKey: .file),
            line: try container.decodeIfPresent(Int.self, forKey: .line), kind: kind)
    }

    /// Encodes the event with a `type` field and its payload under the key of that name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kindName, forKey: .type)
        try container.encode(timestamp, forKey: .time)
        try container.encode(timeIsRecorded, forKey: .timeRecorded)
        try container.encode(file, forKey: .file)
        try container.encodeIfPresent(line, forKey: .line)
        switch kind {
        case .touch(let touch): try container.encode(touch, forKey: .touch)
        case .network(let exchange): try container.encode(exchange, forKey: .network)
        case .screen(let screen): try container.encode(screen, forKey: .screen)
        case .viewUpdate(let update): try container.encode(update, forKey: .view)
        case .exception(let exception): try container.encode(exception, forKey: .exception)
        case .custom(let custom): try container.encode(custom, forKey: .custom)
        case .log(let line): try container.encode(line, forKey: .log)
        case .analytics(let event): try container.encode(event, forKey: .analytics)
        case .push(let notification): try container.encode(notification, forKey: .push)
        case .snapshot(let payload): try container.encode(payload, forKey: .snapshot)
        }
    }
}
