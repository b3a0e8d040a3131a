/// The tap that most plausibly triggered a request: scored by what was tapped, what the screen did right after,
/// and whether the control's words fit the request's path.
struct TriggerChoice {
    /// The chosen tap.
    var gesture: Gesture
    /// From 0 to 1.
    var score: Double
    /// Why, in words.
    var evidence: [String]

    /// The least score a tap needs to be named as the trigger.
    static let threshold = 0.45
    /// The most taps scored per failure: the nearest ones before it (a person does not tap faster than this within
    /// the window; a recording that does is noise, and scoring every tap would make correlation quadratic).
    static let candidateLimit = 12

    /// The best tap before the event at `index` (time `time`), or `nil` when none is plausible.
    static func best(
        among gestures: [Gesture], before index: Int, at time: Double, window: Double, path: String?,
        events: [TimelineEvent]
    ) -> TriggerChoice? {
        // Gestures are in time order: binary-search the window's start instead of scanning them all.
        var low = 0
        var high = gestures.count
        while low < high {
            let middle = (low + high) / 2
            if time - gestures[middle].time > window { low = middle + 1 } else { high = middle }
        }
        let candidates = gestures[low...].prefix { $0.end < index }.filter { $0.kind == .tap }.suffix(candidateLimit)
        let scored = candidates.map { score($0, failureAt: time, failureIndex: index, path: path, events: events) }
        // Ties go to the later tap: the nearer one in time.
        guard let best = scored.reversed().max(by: { $0.score < $1.score }), best.score >= threshold else {
            return nil
        }
        var chosen = best
        let others = scored.filter { $0.gesture.end != best.gesture.end }
        if !others.isEmpty {
            chosen.evidence.append(
                "\(others.count) other tap\(others.count == 1 ? "" : "s") in the window scored lower")
        }
        return chosen
    }

    private static func score(
        _ gesture: Gesture, failureAt time: Double, failureIndex: Int, path: String?, events: [TimelineEvent]
    ) -> TriggerChoice {
        var score = 0.3
        var evidence: [String] = []
        let delay = Correlator.delay(time - gesture.time)
        if let target = gesture.target {
            let name = target.label.map { "\(target.className) \"\($0)\"" } ?? target.className
            if ViewRoles.isTextInput(target.className) {
                score -= 0.2
                evidence.append("tap on the text input \(name) \(delay) before (focuses a field)")
            } else if ViewRoles.isControl(target.className)
                || target.path.dropLast().contains(where: ViewRoles.isControl)
            {
                score += 0.3
                evidence.append("tap on the control \(name) \(delay) before the failure")
            } else {
                score -= 0.1
                evidence.append("tap on \(name) \(delay) before (not a control)")
            }
            if let label = target.label, let path, ViewRoles.labelFits(label, path: path) {
                score += 0.15
                evidence.append("the control's label \"\(label)\" fits the path \(path)")
            }
        } else if time - gesture.time <= 2 {
            score += 0.2
            evidence.append("tap \(delay) before the failure (no snapshot names its target)")
        } else {
            evidence.append("tap \(delay) before the failure (no snapshot names its target)")
        }
        if let feedback = feedback(after: gesture, until: failureIndex, events: events) {
            score += 0.25
            evidence.append(feedback)
        }
        // Nearer taps win ties; a tap at the far end of the window loses a little.
        score -= 0.01 * (time - gesture.time)
        return TriggerChoice(gesture: gesture, score: min(score, 0.95), evidence: evidence)
    }

    /// A sign the app started work right after the tap and before the failure: a spinner shown, the control
    /// disabled, a busy label (`Processing…`).
    private static func feedback(after gesture: Gesture, until failure: Int, events: [TimelineEvent]) -> String? {
        let start = gesture.time
        for index in (gesture.end + 1)..<failure {
            let event = events[index]
            guard event.timestamp - start <= 1.0 else { break }
            guard case .viewUpdate(let update) = event.kind else { continue }
            for item in update.items {
                let busy =
                    (item.isSpinner && (item.kind == .shown || item.kind == .added))
                    || item.kind == .disabled
                    || (item.kind == .textChanged && item.text.map(ViewRoles.readsAsBusy) == true)
                if busy {
                    return
                        "the screen answered the tap \(Correlator.delay(event.timestamp - start)) later: \(item.description)"
                }
            }
        }
        return nil
    }
}
