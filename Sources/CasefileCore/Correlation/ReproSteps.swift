/// A short numbered list of what the user did, from the timeline: taps named by the control under the finger,
/// drags as scrolls, repeated steps compressed to `×N`, screens by class, failed requests by path template,
/// ending at the last failure or the crash and what the screen showed then.
enum ReproSteps {
    /// The most steps kept; earlier ones are dropped after the first screen.
    static let limit = 15

    /// The steps up to the last failure of `chains` or the crash at position `crash`, whichever is later.
    static func steps(
        events: [TimelineEvent], gestures: [Gesture], chains: [CausalChain], crash: Int?,
        template: (Int, String) -> String = { URLTemplate.path(of: $1) }
    ) -> [ReproStep] {
        guard let last = [chains.last?.exchange.event, crash].compactMap({ $0 }).max() else { return [] }
        let gestureAt = Gesture.byEnd(gestures)
        // Texts without their repeat count; `×N` is written once the steps are known.
        var steps: [ReproStep] = []
        func add(_ text: String, _ index: Int) {
            if steps.last?.text == text {
                steps[steps.count - 1].events.append(index)
            } else {
                steps.append(ReproStep(time: events[index].timestamp, text: text, events: [index]))
            }
        }
        for index in 0...last {
            switch events[index].kind {
            case .touch:
                guard let gesture = gestureAt[index] else { continue }
                add(describe(gesture), index)
            case .screen(let screen):
                let texts = screen.texts.prefix(1).map { " \"\($0)\"" }.joined()
                add(screen.fromClass == nil ? "Open \(screen.toClass)\(texts)" : "See \(screen.toClass)\(texts)", index)
            case .network(let exchange):
                guard let failure = exchange.failure else { continue }
                let path = exchange.url.map { template(index, $0) } ?? "a request"
                add("\(exchange.method.map { "\($0) " } ?? "")\(path) fails: \(failure.summary)", index)
            case .exception(let exception):
                add("App crashes: \(exception.name ?? "uncaught exception")", index)
            default:
                continue
            }
        }
        if let chain = chains.last, chain.exchange.event == last, let shown = chain.outcome.event,
            chain.outcome.kind != .viewChange
        {
            let text = "See \(chain.outcome.description)"
            if steps.last?.text != text {
                steps.append(ReproStep(time: events[shown].timestamp, text: text, events: [shown]))
            }
        }
        if steps.count > limit, let first = steps.first {
            steps = [first] + steps.suffix(limit - 1)
        }
        for position in steps.indices where steps[position].events.count > 1 {
            steps[position].text += " ×\(steps[position].events.count)"
        }
        return steps
    }

    private static func describe(_ gesture: Gesture) -> String {
        let target = gesture.target
        switch gesture.kind {
        case .drag:
            return "Scroll"
        case .tap:
            guard let target else { return "Tap the screen" }
            if ViewRoles.isTextInput(target.className) {
                return "Tap the \(target.label.map { "\"\($0)\" " } ?? "")field"
            }
            return target.label.map { "Tap \"\($0)\"" } ?? "Tap \(target.className)"
        }
    }
}
