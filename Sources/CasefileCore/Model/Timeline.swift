/// Every event of a report on one clock, in time order.
public struct Timeline: Sendable, Codable, Hashable {
    /// The events, sorted by timestamp; events with equal timestamps keep the order they were added in.
    public private(set) var events: [TimelineEvent]

    /// Creates a timeline, sorting the events stably by timestamp.
    public init(_ events: consuming [TimelineEvent] = []) {
        // Usually in order already; otherwise positions are sorted, not (offset, event) pairs. The timestamps are read
        // in place first: comparing events through the array copied both (retaining their strings and payloads) for
        // each of the sort's comparisons.
        let timestamps = events.withUnsafeBufferPointer { events in events.indices.map { events[$0].timestamp } }
        if timestamps.indices.dropFirst().allSatisfy({ timestamps[$0 - 1] <= timestamps[$0] }) {
            self.events = events
            return
        }
        var order = timestamps.indices.sorted { (timestamps[$0], $0) < (timestamps[$1], $1) }
        // The events are moved to their places in the array handed over (consumed: not copied when it is the caller's
        // last use), cycle by cycle, not copied into a new one.
        events.withUnsafeMutableBufferPointer { sorted in
            for start in order.indices where order[start] != start {
                // Place `position` takes the event at `order[position]`; the event swapped out of it goes on along
                // the cycle until the place that takes the event `start` had.
                var position = start
                while order[position] != start {
                    let source = order[position]
                    sorted.swapAt(position, source)
                    order[position] = position
                    position = source
                }
                order[position] = position
            }
        }
        self.events = events
    }

    /// Changes each event in place, keeping the order; `body` must not change timestamps. No copy of the events is
    /// made (a recording may hold a hundred thousand).
    mutating func updateEvents(_ body: (inout TimelineEvent) -> Void) {
        for index in events.indices { body(&events[index]) }
    }

    /// ``updateEvents(_:)``, in two halves at once when `inHalves`: `makeBody` makes the change for each half (with
    /// what it remembers from one event to the next) on the thread that changes that half.
    mutating func updateEvents(inHalves: Bool, _ makeBody: @Sendable () -> (inout TimelineEvent) -> Void) {
        guard inHalves, events.count > 1 else {
            updateEvents(makeBody())
            return
        }
        events.withUnsafeMutableBufferPointer { buffer in
            let half = buffer.count / 2
            let front = EventsPart(events: UnsafeMutableBufferPointer(rebasing: buffer[..<half]))
            let back = EventsPart(events: UnsafeMutableBufferPointer(rebasing: buffer[half...]))
            _ = SideBySide.run(concurrently: true, { front.update(makeBody()) }, { back.update(makeBody()) })
        }
    }

    /// The timestamp of the last event.
    public var lastTimestamp: Double? {
        events.last?.timestamp
    }
}

/// Some of a timeline's events, handed to the thread that changes them: the parts of one update never overlap, and
/// the update is done with them before their buffer is given back.
private struct EventsPart: @unchecked Sendable {
    let events: UnsafeMutableBufferPointer<TimelineEvent>

    func update(_ body: (inout TimelineEvent) -> Void) {
        for index in events.indices { body(&events[index]) }
    }
}

/// One thing that happened, at a time on the report's recording clock.
public struct TimelineEvent: Sendable, Hashable {
    /// Seconds since the recording started.
    public var timestamp: Double
    /// Whether the report recorded the time; `false` places the event at the end of the recording.
    public var timeIsRecorded: Bool
    /// The file and line the event was read from.
    public var file: String
    /// The 1-based line in ``file``, when the file is line-oriented.
    public var line: Int?
    /// What happened.
    public var kind: Kind

    /// The kinds of event.
    ///
    /// Each event's payload is kept in a box of its own (`indirect`): held inline, every event took the size of the
    /// largest, an exchange of some 300 bytes, and each copy of an event retained each of its strings. A recording's
    /// timeline is built, sorted, redacted and scanned event by event; with the payloads boxed an event is some 50
    /// bytes, and copying one retains one box.
    public indirect enum Kind: Sendable, Hashable {
        /// A touch phase.
        case touch(TouchEvent)
        /// A network exchange, assembled from its records.
        case network(NetworkExchange)
        /// A new screen: the root view of the top view controller changed class.
        case screen(ScreenChange)
        /// Visible changes within the same screen: texts, shown or hidden views, enabled state.
        case viewUpdate(ViewUpdate)
        /// An uncaught exception.
        case exception(AppException)
        /// A record of a custom module, kept as its JSON.
        case custom(CustomEvent)
        /// A line of an attached app log.
        case log(LogLine)
        /// An analytics event from a debug-menu dump.
        case analytics(AnalyticsEvent)
        /// A push notification from a debug-menu dump.
        case push(PushNotification)
        /// A recorded payload of a data-snapshot folder, at the file's modification time.
        case snapshot(SnapshotPayload)
    }

    /// Creates an event.
    public init(timestamp: Double, timeIsRecorded: Bool = true, file: String, line: Int?, kind: Kind) {
        self.timestamp = timestamp
        self.timeIsRecorded = timeIsRecorded
        self.file = file
        self.line = line
        self.kind = kind
    }

    /// A short lowercase name of the kind, as stored in the index: `touch`, `network`, `screen`, `view`,
    /// `exception`, `custom`, `log`, `analytics`, `push`, `snapshot`.
    public var kindName: String {
        switch kind {
        case .touch: "touch"
        case .network: "network"
        case .screen: "screen"
        case .viewUpdate: "view"
        case .exception: "exception"
        case .custom: "custom"
        case .log: "log"
        case .analytics: "analytics"
        case .push: "push"
        case .snapshot: "snapshot"
        }
    }
}

/// A record of a module Casefile does not know, such as an app's own `module_logs.json`.
public struct CustomEvent: Sendable, Codable, Hashable {
    /// The module name: `logs` for `module_logs.json`.
    public var module: String
    /// The whole record as read.
    public var record: JSONValue

    /// Creates a custom event.
    public init(module: String, record: JSONValue) {
        self.module = module
        self.record = record
    }
}

extension TimelineEvent {
    /// One line describing the event (Markdown inline code for names and URLs), as summaries and the index show it.
    public var summary: String {
        EventDescription.details(self)
    }
}
