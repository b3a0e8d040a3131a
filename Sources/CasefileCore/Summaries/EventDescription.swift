import Foundation

/// One line of words per timeline event, shared by the timeline table and the failure list.
enum EventDescription {
    /// A short label of the kind: `Touch`, `Request`, `Screen`, …
    static func label(_ event: TimelineEvent) -> String {
        switch event.kind {
        case .touch: "Touch"
        case .network(let exchange): exchange.failure == nil ? "Request" : "**Failed request**"
        case .screen: "Screen"
        case .viewUpdate: "View"
        case .exception: "**Exception**"
        case .custom(let custom): "Module `\(custom.module)`"
        case .log(let line): line.level.isError ? "**Log \(line.level.rawValue)**" : "Log \(line.level.rawValue)"
        case .analytics: "Analytics"
        case .push: "Push"
        case .snapshot: "Snapshot"
        }
    }

    /// What happened, in one line of Markdown.
    static func details(_ event: TimelineEvent) -> String {
        switch event.kind {
        case .touch(let touch): touchDetails(touch)
        case .network(let exchange): networkDetails(exchange)
        case .screen(let screen): screenDetails(screen)
        case .viewUpdate(let update):
            // The first four changes in words, not all of them: an update of a long recording lists dozens.
            update.items.prefix(4).map { Markdown.text($0.description) }.joined(separator: "; ")
                + (update.items.count > 4 ? "; …" : "")
        case .exception(let exception):
            "\(Markdown.code(exception.name ?? "exception")): "
                + Markdown.text(XcodeName.demangled(in: exception.reason ?? "no reason"))
                + (event.timeIsRecorded ? "" : " (time not recorded: placed at the end)")
        case .custom(let custom): Markdown.code(Markdown.truncate(custom.record.compactText, 160))
        case .log(let line):
            [
                line.context.map { "\\[\(Markdown.text($0))\\]" },
                line.function.map { Markdown.code($0 + (line.sourceLine.map { ":\($0)" } ?? "")) },
            ]
            .compactMap { $0 }.joined(separator: " ") + " "
                + Markdown.code(Markdown.truncate(XcodeName.demangled(in: line.message), 200))
        case .analytics(let analytics):
            Markdown.code(analytics.name) + (analytics.destination.map { " to \(Markdown.text($0))" } ?? "")
                + (analytics.parameters.map { " " + Markdown.code(Markdown.truncate($0.compactText, 120)) } ?? "")
        case .push(let push):
            [push.title, push.body].compactMap { $0 }.map { "\"\(Markdown.text(Markdown.truncate($0, 80)))\"" }.joined(
                separator: " — ")
                + (push.category.map { " (category \(Markdown.code($0)))" } ?? "")
        case .snapshot(let payload):
            "\(Markdown.code(payload.operation)) \(Markdown.code(payload.identifier)), \(Markdown.bytes(payload.size)): "
                + Markdown.code(Markdown.truncate(payload.shape, 120))
        }
    }

    static func touchDetails(_ touch: TouchEvent) -> String {
        let target = touch.target.map { " on \(Markdown.code($0.description))" } ?? ""
        guard let first = touch.touches.first else {
            return "\(Markdown.text(touch.rawPhase)) (no touch locations)"
        }
        let point = "(\(format(first.x)), \(format(first.y)))"
        switch touch.phase {
        case .began: return "Finger down\(target) at \(point)"
        case .ended: return "Finger up\(target) at \(point)"
        case .moved:
            guard let last = touch.touches.last, touch.touches.count > 1 else { return "Move at \(point)" }
            return "Drag of \(touch.touches.count) samples from \(point) to (\(format(last.x)), \(format(last.y)))"
        case .unknown: return "\(Markdown.text(touch.rawPhase))\(target) at \(point)"
        }
    }

    static func networkDetails(_ exchange: NetworkExchange) -> String {
        var parts: [String] = []
        let url = exchange.url.map { Markdown.code($0) } ?? "unknown URL"
        let method = exchange.method.map { "\($0) " } ?? ""
        if let error = exchange.error {
            let code = [error.domain, error.code.map(String.init)].compactMap { $0 }.joined(separator: " ")
            parts.append(
                "\(Markdown.text(method))\(url) ✗ \(code)\(error.description.map { " — \(Markdown.text($0))" } ?? "")")
        } else if let status = exchange.statusCode {
            parts.append(
                "\(Markdown.text(method))\(url) → \(status)\(exchange.statusText.map { " \(Markdown.text($0))" } ?? "")"
            )
        } else {
            parts.append("\(Markdown.text(method))\(url)")
        }
        if let location = exchange.redirectLocation {
            parts.append("redirects to \(Markdown.code(location))")
        }
        if exchange.receivedBytes > 0 {
            parts.append(Markdown.bytes(exchange.receivedBytes))
        }
        if exchange.isAmbiguous {
            parts.append("body may mix with an overlapping request")
        }
        return parts.joined(separator: ", ")
    }

    static func screenDetails(_ screen: ScreenChange) -> String {
        let texts = screen.texts.map { "\"\(Markdown.text(Markdown.truncate($0, 40)))\"" }.joined(separator: ", ")
        let from = screen.fromClass.map { " (was \(Markdown.code($0)))" } ?? ""
        return "\(Markdown.code(screen.toClass))\(texts.isEmpty ? "" : " — \(texts)")\(from)"
    }

    /// A coordinate as the recording wrote it: `120`, `200.5`. Whole numbers beyond Int's range (a corrupt
    /// recording wrote `1.7e34`) stay Doubles: converting them would trap.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
