extension IndexJSON {
    /// A timeline event as JSON text: the bytes its `Encodable` form gives.
    ///
    /// The kinds a recording holds by the thousand (touches, screens, view updates, network exchanges) are written
    /// field by field: through `Encodable`, each event's text cost about 15 µs, and the events of the 1,000-input bench
    /// inbox 0.06 s of one core (0.01 s now). The other kinds, and an event holding a number JSON cannot hold, go
    /// through `Encodable`.
    public static func text(_ event: TimelineEvent) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(320)
        try append(event, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the bytes of ``text(_:)-(TimelineEvent)`` to `bytes`: a report's events are written one after another
    /// into one buffer (``EventDetailCodec``), with no string made and copied for each of a long recording's 10,000.
    public static func append(_ event: TimelineEvent, to bytes: inout [UInt8]) throws {
        if EventWriter.append(event, to: &bytes) { return }
        bytes += try encodedText(event).utf8
    }
}

/// Writes the timeline events `IndexJSON` writes field by field. Every object's fields are in the order of their keys'
/// bytes, as the `Encodable` form sorts them.
private enum EventWriter {
    /// Appends the event's text to `bytes`; returns false, with `bytes` as they were, when the event is left to
    /// `Encodable`.
    static func append(_ event: TimelineEvent, to bytes: inout [UInt8]) -> Bool {
        let start = bytes.count
        var json = JSONObjectWriter()
        // The writer writes into the caller's buffer, handed over and back rather than copied.
        swap(&json.output, &bytes)
        defer { swap(&json.output, &bytes) }
        guard write(event, &json), !json.refused else {
            json.output.removeSubrange(start...)
            return false
        }
        return true
    }

    /// Writes the event; returns false for a kind left to `Encodable`.
    private static func write(_ event: TimelineEvent, _ json: inout JSONObjectWriter) -> Bool {
        json.open()
        json.field("file", event.file)
        json.field("line", event.line)
        switch event.kind {
        case .network(let exchange):
            json.key("network")
            write(exchange, &json)
            common(event, &json)
        case .screen(let screen):
            json.key("screen")
            write(screen, &json)
            common(event, &json)
        case .touch(let touch):
            json.field("time", event.timestamp)
            json.field("timeRecorded", event.timeIsRecorded)
            json.key("touch")
            write(touch, &json)
            json.field("type", event.kindName)
        case .viewUpdate(let update):
            common(event, &json)
            json.key("view")
            write(update, &json)
        default:
            return false
        }
        json.close()
        return true
    }

    /// The fields every event has after `file` and `line`.
    private static func common(_ event: TimelineEvent, _ json: inout JSONObjectWriter) {
        json.field("time", event.timestamp)
        json.field("timeRecorded", event.timeIsRecorded)
        json.field("type", event.kindName)
    }

    private static func write(_ touch: TouchEvent, _ json: inout JSONObjectWriter) {
        json.open()
        json.field("phase", touch.phase.rawValue)
        json.field("rawPhase", touch.rawPhase)
        if let target = touch.target {
            json.key("target")
            json.open()
            json.field("className", target.className)
            json.field("label", target.label)
            json.field("path", target.path)
            json.close()
        }
        json.key("touches")
        json.openArray()
        for point in touch.touches {
            json.open()
            json.field("tapCount", point.tapCount)
            json.field("x", point.x)
            json.field("y", point.y)
            json.close()
        }
        json.closeArray()
        json.close()
    }

    private static func write(_ screen: ScreenChange, _ json: inout JSONObjectWriter) {
        json.open()
        json.field("fromClass", screen.fromClass)
        json.key("state")
        write(screen.state, &json)
        json.field("toClass", screen.toClass)
        json.close()
    }

    private static func write(_ update: ViewUpdate, _ json: inout JSONObjectWriter) {
        json.open()
        json.key("items")
        json.openArray()
        for item in update.items {
            json.open()
            json.field("className", item.className)
            json.field("kind", item.kind.rawValue)
            json.field("oldText", item.oldText)
            json.field("text", item.text)
            json.close()
        }
        json.closeArray()
        json.key("state")
        write(update.state, &json)
        json.close()
    }

    private static func write(_ state: ScreenState, _ json: inout JSONObjectWriter) {
        json.open()
        json.field("alert", state.alert)
        json.field("labels", state.labels)
        json.field("rootClass", state.rootClass)
        json.field("spinnerVisible", state.spinnerVisible)
        json.field("title", state.title)
        json.close()
    }

    private static func write(_ exchange: NetworkExchange, _ json: inout JSONObjectWriter) {
        json.open()
        json.field("bodyPreview", exchange.bodyPreview)
        json.field("chunkCount", exchange.chunkCount)
        json.field("completed", exchange.completed)
        json.field("endAt", exchange.endAt)
        if let error = exchange.error {
            json.key("error")
            json.open()
            json.field("code", error.code)
            json.field("description", error.description)
            json.field("domain", error.domain)
            json.field("failingURL", error.failingURL)
            json.close()
        }
        json.field("expectedContentLength", exchange.expectedContentLength)
        json.field("isAmbiguous", exchange.isAmbiguous)
        json.field("method", exchange.method)
        json.field("mimeType", exchange.mimeType)
        json.field("receivedBytes", exchange.receivedBytes)
        json.field("redirectLocation", exchange.redirectLocation)
        json.field("redirectedFrom", exchange.redirectedFrom)
        json.field("requestAt", exchange.requestAt)
        json.field("requestBody", exchange.requestBody)
        json.key("requestHeaders")
        write(exchange.requestHeaders, &json)
        json.field("requestSource", exchange.requestSource)
        json.field("responseAt", exchange.responseAt)
        json.key("responseHeaders")
        write(exchange.responseHeaders, &json)
        json.field("statusCode", exchange.statusCode)
        json.field("statusText", exchange.statusText)
        json.field("undecodableChunks", exchange.undecodableChunks)
        json.field("url", exchange.url)
        json.close()
    }

    private static func write(_ headers: [HeaderField], _ json: inout JSONObjectWriter) {
        json.openArray()
        for header in headers {
            json.open()
            json.field("name", header.name)
            json.field("value", header.value)
            json.close()
        }
        json.closeArray()
    }
}
