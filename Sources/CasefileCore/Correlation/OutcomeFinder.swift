/// What the screen did after a failure: an alert, an error screen or message, navigation back, a spinner left
/// spinning, or nothing.
struct OutcomeFinder {
    /// How long after the failure a change counts, in seconds.
    var window: Double
    /// How long a spinner must stay to count as stuck, in seconds.
    var stuckSpinner: Double

    /// The most telling change after the event at `index`; `triggerEvent` (the tap's position) tells which screen
    /// the user came from; `end` is the recording's end, when known.
    func outcome(
        after index: Int, events: [TimelineEvent], triggerEvent: Int?, end: Double?
    ) -> CausalChain.Outcome {
        let time = events[index].timestamp
        let screenBefore = previousScreen(before: triggerEvent ?? index, events: events)
        var found: [(rank: Int, outcome: CausalChain.Outcome)] = []
        for later in events.indices where later > index {
            let event = events[later]
            guard event.timestamp - time <= window else { break }
            switch event.kind {
            case .screen(let screen):
                let texts = screen.texts.prefix(1).map { "\"\($0)\"" }.joined(separator: " ")
                let name = "\(screen.toClass)\(texts.isEmpty ? "" : " \(texts)")"
                if ViewRoles.readsAsError(screen.toClass)
                    || screen.texts.prefix(3).contains(where: ViewRoles.readsAsError)
                {
                    found.append((1, outcome(.errorScreen, later, event, name)))
                } else if screen.toClass == screenBefore {
                    found.append((3, outcome(.navigationBack, later, event, "back to \(name)")))
                } else {
                    found.append((5, outcome(.navigation, later, event, name)))
                }
            case .viewUpdate(let update):
                for item in update.items {
                    if item.isAlert, item.kind == .added || item.kind == .shown {
                        found.append((0, outcome(.alert, later, event, item.description)))
                    } else if item.kind == .added || item.kind == .shown || item.kind == .textChanged,
                        let text = item.text, ViewRoles.readsAsError(text)
                    {
                        found.append((2, outcome(.errorMessage, later, event, item.description)))
                    }
                }
                found.append((6, outcome(.viewChange, later, event, update.changes.prefix(2).joined(separator: "; "))))
            default:
                continue
            }
        }
        if let stuck = stuckSpinner(after: index, events: events, end: end) {
            found.append((4, stuck))
        }
        return found.min { $0.rank < $1.rank }?.outcome
            ?? CausalChain.Outcome(
                kind: .silent, event: nil, time: nil,
                description: "no visible change within \(Int(window)) s")
    }

    private func outcome(
        _ kind: CausalChain.Outcome.Kind, _ index: Int, _ event: TimelineEvent, _ description: String
    ) -> CausalChain.Outcome {
        CausalChain.Outcome(kind: kind, event: index, time: event.timestamp, description: description)
    }

    /// A spinner visible at the failure that nothing hides for ``stuckSpinner`` seconds.
    private func stuckSpinner(after index: Int, events: [TimelineEvent], end: Double?) -> CausalChain.Outcome? {
        let time = events[index].timestamp
        guard let state = state(atOrBefore: index, events: events), state.spinnerVisible else { return nil }
        let recordingEnd = max(end ?? time, events.last?.timestamp ?? time)
        var until: Double?
        for later in events.indices where later > index {
            guard let next = Self.state(of: events[later]) else { continue }
            if !next.spinnerVisible || next.rootClass != state.rootClass {
                until = events[later].timestamp
                break
            }
        }
        let stuckFor = (until ?? recordingEnd) - time
        guard stuckFor >= stuckSpinner else { return nil }
        let description =
            until == nil
            ? "spinner still visible after \(Correlator.delay(stuckFor)), when the recording ends"
            : "spinner still visible after \(Correlator.delay(stuckFor)) before it went away"
        return CausalChain.Outcome(kind: .stuckSpinner, event: nil, time: nil, description: description)
    }

    private func state(atOrBefore index: Int, events: [TimelineEvent]) -> ScreenState? {
        for earlier in stride(from: index, through: 0, by: -1) {
            if let state = Self.state(of: events[earlier]) { return state }
        }
        return nil
    }

    private static func state(of event: TimelineEvent) -> ScreenState? {
        switch event.kind {
        case .screen(let screen): screen.state
        case .viewUpdate(let update): update.state
        default: nil
        }
    }

    /// The root class of the screen shown before the one visible at `index`: where the last screen change at or
    /// before it came from.
    private func previousScreen(before index: Int, events: [TimelineEvent]) -> String? {
        for earlier in stride(from: min(index, events.count - 1), through: 0, by: -1) {
            if case .screen(let screen) = events[earlier].kind { return screen.fromClass }
        }
        return nil
    }
}
