/// The Markdown of a report's correlation: chains first, then repro steps, then a Mermaid sequence of the key
/// events (GitHub renders it).
enum ChainSummary {
    /// One chain as a headline: `Tap "Pay now" → /v1/orders → 500 → ShopApp.PaymentErrorView "Payment failed"`.
    static func headline(_ chain: CausalChain) -> String {
        let trigger = chain.trigger?.description ?? "no tap (background)"
        let outcome = chain.outcome.kind == .silent ? "no visible change" : chain.outcome.description
        return "\(trigger) → \(chain.exchange.description) → \(outcome)"
    }

    /// The chain list, each with times, confidence, evidence and follow-ups.
    static func chains(_ report: Report, bodies: Bool = true) -> [String] {
        var lines: [String] = []
        for chain in report.correlation.chains {
            lines.append(
                "- **\(Markdown.text(headline(chain)))** — confidence \(chain.confidenceLevel) (\(chain.confidence))")
            var times: [String] = []
            if let trigger = chain.trigger { times.append("tap \(Markdown.seconds(trigger.time))") }
            times.append("failure \(Markdown.seconds(chain.exchange.time))")
            if let time = chain.outcome.time {
                times.append("\(chain.outcome.kind.rawValue) \(Markdown.seconds(time))")
            }
            lines.append("  - at: " + times.joined(separator: " · "))
            if let url = chain.exchange.url { lines.append("  - URL: \(Markdown.code(url))") }
            if chain.exchange.method == nil {
                lines.append("  - method and latency: not recorded")
            }
            if let feature = chain.exchange.feature {
                lines.append("  - feature: \(Markdown.code(feature)) (`X-FEATURE-NAME`)")
            }
            for followUp in chain.followUps {
                lines.append("  - then: \(Markdown.text(followUp.description))")
            }
            lines.append("  - evidence: " + chain.evidence.map(Markdown.cell).joined(separator: "; "))
            if bodies, case .network(let exchange) = report.timeline.events[chain.exchange.event].kind {
                if let body = exchange.bodyPreview {
                    lines.append("  - response body: \(Markdown.code(Markdown.truncate(body, 200)))")
                }
                if let curl = Curl.command(exchange) {
                    let omitted = Curl.omittedHeaders(exchange)
                    let note = omitted.isEmpty ? "" : " (left out: \(Markdown.text(omitted.joined(separator: ", "))))"
                    lines.append("  - replay: \(Markdown.code(curl))\(note)")
                }
            }
            if let frame = report.frames.first(where: { $0.event == chain.exchange.event }) {
                lines.append("  - the screen then: " + image(frame))
            }
        }
        return lines
    }

    /// A frame as a Markdown image.
    static func image(_ frame: VideoFrame) -> String {
        "![Screen at \(Markdown.seconds(frame.time)), the \(frame.moment)](\(frame.link.split(separator: " ", omittingEmptySubsequences: false).joined(separator: "%20")))"
    }

    /// The repro steps as a numbered list.
    static func steps(_ report: Report) -> [String] {
        report.correlation.steps.enumerated().map { index, step in
            "\(index + 1). \(Markdown.text(step.text)) (\(Markdown.seconds(step.time)))"
        }
    }

    /// The most events the Mermaid diagram shows; longer recordings keep the last ones.
    static let mermaidLimit = 40

    /// A Mermaid sequence diagram of taps, failed requests, screens, errors logged and the crash.
    static func mermaid(_ report: Report) -> [String] {
        let gestures = Gesture.byEnd(Gesture.gestures(in: report.timeline))
        // The diagram shows the last arrows only: the events are walked from the end, in place, until there are
        // enough. Walking every event forward wrote the words of every arrow of a long recording, and copied each
        // event on the way.
        var reversed: [[(String, String)]] = []
        var count = 0
        report.timeline.events.withUnsafeBufferPointer { events in
            for index in events.indices.reversed() {
                guard count < mermaidLimit else { break }
                let time = events[index].timeIsRecorded ? Markdown.seconds(events[index].timestamp) : "end"
                let arrows: [(String, String)]
                switch events[index].kind {
                case .touch:
                    guard let gesture = gestures[index] else { continue }
                    let name = gesture.target.map { $0.label.map { "\"\($0)\"" } ?? $0.className } ?? "screen"
                    arrows = [("User->>App", "\(time) \(gesture.kind == .tap ? "tap" : "scroll on") \(name)")]
                case .network(let exchange) where exchange.failure != nil:
                    let path = exchange.url.map(URLTemplate.path) ?? "request"
                    arrows = [
                        ("App->>Server", "\(time) \(exchange.method.map { "\($0) " } ?? "")\(path)"),
                        ("Server-->>App", exchange.failure?.summary ?? ""),
                    ]
                case .screen(let screen):
                    arrows = [("App->>User", "\(time) screen \(screen.toClass)")]
                case .viewUpdate(let update):
                    guard
                        let item = update.items.first(where: {
                            $0.isAlert || $0.text.map(ViewRoles.readsAsError) == true
                        })
                    else { continue }
                    arrows = [("App->>User", "\(time) \(item.description)")]
                case .log(let line) where line.level.isError:
                    arrows = [("Note over App", "\(time) error logged: \(Markdown.truncate(line.message, 60))")]
                case .exception(let exception):
                    arrows = [("Note over App", "\(time) crash \(exception.name ?? "")")]
                default:
                    continue
                }
                reversed.append(arrows)
                count += arrows.count
            }
        }
        let arrows = reversed.reversed().flatMap { $0 }
        guard !arrows.isEmpty else { return [] }
        let shown = arrows.suffix(mermaidLimit).map { "    \($0.0): \(Markdown.mermaid($0.1))" }
        return [
            "```mermaid", "sequenceDiagram", "    participant User", "    participant App", "    participant Server",
        ]
            + shown + ["```"]
    }
}
