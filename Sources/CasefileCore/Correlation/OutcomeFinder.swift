/// What the screen did after a failure: an alert, an error screen or message, navigation back, a spinner left
/// spinning, or nothing.
struct OutcomeFinder {
    /// How long after the failure a change counts, in seconds.
    var window: Double
    /// How long a spinner must stay to count as stuck, in seconds.
    var stuckSpinner: Double
    /// Where the latest screen change and screen state sit before each event.
    var screens: ScreenIndex

    /// For each timeline position, the latest screen change and the latest screen or view event at or before it
    /// (`-1` for none): found once per timeline, not by a scan back per failure.
    struct ScreenIndex {
        var latestScreen: [Int32]
        var latestState: [Int32]
        /// The positions of screen changes and view updates, in order.
        var states: [Int]

        /// The positions in ``states`` after `index`.
        func states(after index: Int) -> ArraySlice<Int> {
            states.sortedSuffix(after: index)
        }

        init(_ events: [TimelineEvent]) {
            latestScreen = []
            latestState = []
            states = []
            latestScreen.reserveCapacity(events.count)
            latestState.reserveCapacity(events.count)
            var screen: Int32 = -1
            var state: Int32 = -1
            // Read in place, through the buffer: iterating the array copied each event.
            events.withUnsafeBufferPointer { events in
                for index in events.indices {
                    switch events[index].kind {
                    case .screen:
                        screen = Int32(index)
                        state = Int32(index)
                        states.append(index)
                    case .viewUpdate:
                        state = Int32(index)
                        states.append(index)
                    default: break
                    }
                    latestScreen.append(screen)
                    latestState.append(state)
                }
            }
        }
    }

    /// The most telling change after the event at `index`; `triggerEvent` (the tap's position) tells which screen
    /// the user came from; `end` is the recording's end, when known.
    func outcome(
        after index: Int, events: [TimelineEvent], triggerEvent: Int?, end: Double?, memo: CorrelationMemo
    ) -> CausalChain.Outcome {
        let time = events[index].timestamp
        let screenBefore = previousScreen(before: triggerEvent ?? index, events: events)
        // Ranked, most telling first; a description is written only for a change that beats the best so far.
        var best: (rank: Int, outcome: CausalChain.Outcome)?
        func consider(_ rank: Int, _ make: () -> CausalChain.Outcome) {
            if rank < (best?.rank ?? .max) { best = (rank, make()) }
        }
        // Only screen changes and view updates can show an outcome. Events are read in place, through the buffer,
        // and what each one shows comes from the memo: the changes after one failure are looked at again after the
        // next.
        events.withUnsafeBufferPointer { events in
            for later in screens.states(after: index) {
                let shown = events[later].timestamp
                guard shown - time <= window else { break }
                let marks = memo.marks(at: later, in: events)
                if marks.isScreen, case .screen(let screen) = events[later].kind {
                    if marks.errorScreen {
                        consider(1) { outcome(.errorScreen, later, shown, Self.name(screen)) }
                    } else if screen.toClass == screenBefore {
                        consider(3) { outcome(.navigationBack, later, shown, "back to \(Self.name(screen))") }
                    } else {
                        consider(5) { outcome(.navigation, later, shown, Self.name(screen)) }
                    }
                } else if case .viewUpdate(let update) = events[later].kind {
                    if marks.alert >= 0 {
                        consider(0) { outcome(.alert, later, shown, update.items[Int(marks.alert)].description) }
                    }
                    if marks.errorMessage >= 0 {
                        consider(2) {
                            outcome(.errorMessage, later, shown, update.items[Int(marks.errorMessage)].description)
                        }
                    }
                    consider(6) {
                        outcome(
                            .viewChange, later, shown,
                            update.items.prefix(2).map(\.description).joined(separator: "; "))
                    }
                }
                // Nothing later can beat an alert.
                if best?.rank == 0 { break }
            }
        }
        if (best?.rank ?? .max) > 4, let stuck = stuckSpinner(after: index, events: events, end: end) {
            best = (4, stuck)
        }
        return best?.outcome
            ?? CausalChain.Outcome(
                kind: .silent, event: nil, time: nil,
                description: "no visible change within \(Int(window)) s")
    }

    /// A screen change's class and first text: `CheckoutViewController "Payment failed"`.
    private static func name(_ screen: ScreenChange) -> String {
        let texts = screen.texts.prefix(1).map { "\"\($0)\"" }.joined(separator: " ")
        return "\(screen.toClass)\(texts.isEmpty ? "" : " \(texts)")"
    }

    private func outcome(
        _ kind: CausalChain.Outcome.Kind, _ index: Int, _ time: Double, _ description: String
    ) -> CausalChain.Outcome {
        CausalChain.Outcome(kind: kind, event: index, time: time, description: description)
    }

    /// A spinner visible at the failure that nothing hides for ``stuckSpinner`` seconds.
    private func stuckSpinner(after index: Int, events: [TimelineEvent], end: Double?) -> CausalChain.Outcome? {
        let time = events[index].timestamp
        guard let state = state(atOrBefore: index, events: events), state.spinnerVisible else { return nil }
        let recordingEnd = max(end ?? time, events.last?.timestamp ?? time)
        // Read in place, through the buffer: through the array each state looked at copied its event.
        let until = events.withUnsafeBufferPointer { events -> Double? in
            for later in screens.states(after: index) {
                guard let next = Self.state(of: events[later].kind) else { continue }
                if !next.spinnerVisible || next.rootClass != state.rootClass { return events[later].timestamp }
            }
            return nil
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
        let latest = Int(screens.latestState[index])
        return latest < 0 ? nil : Self.state(of: events[latest].kind)
    }

    private static func state(of kind: TimelineEvent.Kind) -> ScreenState? {
        switch kind {
        case .screen(let screen): screen.state
        case .viewUpdate(let update): update.state
        default: nil
        }
    }

    /// The root class of the screen shown before the one visible at `index`: where the last screen change at or
    /// before it came from.
    private func previousScreen(before index: Int, events: [TimelineEvent]) -> String? {
        let latest = Int(screens.latestScreen[min(index, events.count - 1)])
        guard latest >= 0, case .screen(let screen) = events[latest].kind else { return nil }
        return screen.fromClass
    }
}
