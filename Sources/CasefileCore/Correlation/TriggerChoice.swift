/// The tap that most plausibly triggered a request: scored by what was tapped, what the screen did right after,
/// whether the control's words fit the request's path and, when a source recorded when the request was sent, how
/// close the tap came before it.
///
/// Taps are scored with numbers only; the evidence is written for the chosen tap alone.
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
    /// How long before a recorded request start its tap may be, in seconds: an app sends right after the tap.
    static let sendWindow = 1.0

    /// What a request's failure offers to match a tap against.
    struct Request {
        /// The timeline position of the failure.
        var index: Int
        /// When the failure was recorded.
        var time: Double
        /// When the request was sent, only when a source recorded it.
        var sentAt: Double?
        /// The URL's path template.
        var path: String?
    }

    /// The best tap before `request`, or `nil` when none is plausible.
    static func best(
        among gestures: [Gesture], for request: Request, window: Double, events: [TimelineEvent],
        memo: CorrelationMemo
    ) -> TriggerChoice? {
        let latest = request.sentAt.map { $0 + 0.05 } ?? request.time
        let earliest = request.sentAt.map { $0 - sendWindow } ?? request.time - window
        // Gestures are in time order: binary-search the window's start instead of scanning them all.
        var low = 0
        var high = gestures.count
        while low < high {
            let middle = (low + high) / 2
            if gestures[middle].time < earliest { low = middle + 1 } else { high = middle }
        }
        // Gestures are read in place, through the buffer, and the candidates kept by position: a filtered slice of
        // them copied every gesture in the window (its target's class names and label with it) for each failure.
        return gestures.withUnsafeBufferPointer { gestures in
            var taps: [Int] = []
            var index = low
            while index < gestures.count, gestures[index].end < request.index, gestures[index].time <= latest {
                if gestures[index].kind == .tap { taps.append(index) }
                index += 1
            }
            let candidates = taps.suffix(candidateLimit)
            var best: (index: Int, features: Features)?
            for index in candidates {
                let features = Features(gestures[index], request: request, events: events, memo: memo)
                // Ties go to the later tap: the nearer one in time.
                if features.score >= (best?.features.score ?? -.infinity) { best = (index, features) }
            }
            guard let best, best.features.score >= threshold else { return nil }
            let gesture = gestures[best.index]
            var evidence = best.features.evidence(gesture, request: request, events: events)
            if candidates.count > 1 {
                let others = candidates.count - 1
                evidence.append("\(others) other tap\(others == 1 ? "" : "s") in the window scored lower")
            }
            return TriggerChoice(gesture: gesture, score: min(best.features.score, 0.95), evidence: evidence)
        }
    }

    /// What counts for or against one tap, as numbers.
    private struct Features {
        enum Role { case textInput, control, other, unknown }
        var role: Role
        var labelFits: Bool
        /// The view update that answered the tap, and which of its items.
        var feedback: (event: Int, item: Int)?
        var score: Double

        init(_ gesture: Gesture, request: Request, events: [TimelineEvent], memo: CorrelationMemo) {
            let delay = request.time - gesture.time
            score = 0.3
            labelFits = false
            if let target = gesture.target {
                let own = memo.role(target.className)
                if own.textInput {
                    role = .textInput
                    score -= 0.2
                } else if own.control
                    || target.path.dropLast().contains(where: { memo.role($0).control })
                {
                    role = .control
                    score += 0.3
                } else {
                    role = .other
                    score -= 0.1
                }
                if let label = target.label, let path = request.path, memo.labelFits(label, path: path) {
                    labelFits = true
                    score += 0.15
                }
            } else {
                role = .unknown
                if delay <= 2 { score += 0.2 }
            }
            feedback = Self.feedback(after: gesture, until: request.index, events: events, memo: memo)
            if feedback != nil { score += 0.25 }
            if request.sentAt != nil { score += 0.1 }
            // Nearer taps win ties; a tap at the far end of the window loses a little.
            score -= 0.01 * delay
        }

        /// The words for a chosen tap.
        func evidence(_ gesture: Gesture, request: Request, events: [TimelineEvent]) -> [String] {
            var evidence: [String] = []
            let delay = Correlator.delay(request.time - gesture.time)
            let name = gesture.target.map { target in
                target.label.map { "\(target.className) \"\($0)\"" } ?? target.className
            }
            switch role {
            case .textInput: evidence.append("tap on the text input \(name ?? "") \(delay) before (focuses a field)")
            case .control: evidence.append("tap on the control \(name ?? "") \(delay) before the failure")
            case .other: evidence.append("tap on \(name ?? "") \(delay) before (not a control)")
            case .unknown: evidence.append("tap \(delay) before the failure (no snapshot names its target)")
            }
            if labelFits, let label = gesture.target?.label, let path = request.path {
                evidence.append("the control's label \"\(label)\" fits the path \(path)")
            }
            if let sentAt = request.sentAt {
                evidence.append(
                    "the request was sent \(Correlator.delay(sentAt - gesture.time)) after the tap (recorded send time)"
                )
            }
            if let feedback, case .viewUpdate(let update) = events[feedback.event].kind {
                let later = Correlator.delay(events[feedback.event].timestamp - gesture.time)
                evidence.append(
                    "the screen answered the tap \(later) later: \(update.items[feedback.item].description)")
            }
            return evidence
        }

        /// A sign the app started work right after the tap and before the failure: a spinner shown, the control
        /// disabled, a busy label (`Processing…`).
        static func feedback(
            after gesture: Gesture, until failure: Int, events: [TimelineEvent], memo: CorrelationMemo
        ) -> (Int, Int)? {
            let start = gesture.time
            // Events are read in place, through the buffer, and what each view update shows comes from the memo:
            // the taps before one failure look at the same updates.
            return events.withUnsafeBufferPointer { events in
                for index in (gesture.end + 1)..<max(gesture.end + 1, failure) {
                    guard events[index].timestamp - start <= 1.0 else { break }
                    if let item = memo.busyItem(at: index, in: events) { return (index, item) }
                }
                return nil
            }
        }
    }
}
