/// Links a report's events: for each failed request, the touch that most plausibly triggered it, what the screen
/// did next and what followed; repro steps; the events before a crash.
///
/// Heuristic by nature (a `.clue` recording has no request records, ids or start times, and timestamps sit on a
/// 60 Hz frame grid), so every link carries its evidence and a confidence.
public struct Correlator: Sendable {
    /// How long before a failure a tap may be to count as its trigger, in seconds.
    public var triggerWindow = 10.0
    /// How long after a failure a screen change counts as its outcome, in seconds.
    public var outcomeWindow = 5.0
    /// How long after a failure a crash or error log counts as a follow-up, in seconds.
    public var followUpWindow = 10.0
    /// How long a spinner must stay visible after a failure to count as stuck, in seconds.
    public var stuckSpinner = 8.0
    /// How long after a failure a request to the same endpoint counts as a retry, in seconds.
    public var retryWindow = 60.0
    /// How many events before a crash are kept.
    public var eventsBeforeCrash = 10

    /// Creates a correlator with the default windows.
    public init() {}

    /// The report with its ``Report/correlation`` filled in.
    public func correlate(_ report: Report) -> Report {
        var report = report
        report.correlation = correlation(of: report.timeline, duration: report.duration)
        return report
    }

    /// The chains, steps and crash context of a timeline.
    public func correlation(of timeline: Timeline, duration: Double? = nil) -> Correlation {
        let events = timeline.events
        let gestures = Gesture.gestures(in: timeline)
        let failures: [(index: Int, exchange: NetworkExchange, failure: NetworkFailure)] = events.indices.compactMap {
            guard case .network(let exchange) = events[$0].kind, let failure = exchange.failure else { return nil }
            return ($0, exchange, failure)
        }
        let chains = failures.map {
            chain(
                failure: $0.failure, exchange: $0.exchange, at: $0.index,
                isLastFailure: $0.index == failures.last?.index,
                events: events, gestures: gestures, end: duration)
        }
        let crash = events.lastIndex { if case .exception = $0.kind { true } else { false } }
        let beforeCrash = crash.map { Array(max(0, $0 - eventsBeforeCrash)..<$0) } ?? []
        let steps = ReproSteps.steps(events: events, gestures: gestures, chains: chains, crash: crash)
        return Correlation(chains: chains, steps: steps, beforeCrash: beforeCrash)
    }

    private func chain(
        failure: NetworkFailure, exchange: NetworkExchange, at index: Int, isLastFailure: Bool,
        events: [TimelineEvent], gestures: [Gesture], end: Double?
    ) -> CausalChain {
        let time = events[index].timestamp
        let path = exchange.url.map(URLTemplate.path)
        let recorded = CausalChain.Exchange(
            event: index, time: time, url: exchange.url, template: path, method: exchange.method,
            status: exchange.statusCode, failure: failure.summary, latency: exchange.latency)
        var evidence: [String] = []
        let trigger = TriggerChoice.best(
            among: gestures, before: index, at: time, window: triggerWindow, path: path, events: events)
        var confidence: Double
        if let trigger {
            evidence += trigger.evidence
            confidence = trigger.score
        } else {
            let touched = gestures.contains { $0.time <= time && time - $0.time <= triggerWindow }
            evidence.append(
                touched
                    ? "no tap on a control in the \(Int(triggerWindow)) s before: background traffic, or a tap the snapshot cannot name"
                    : "no touch in the \(Int(triggerWindow)) s before: background traffic")
            confidence = touched ? 0.4 : 0.6
        }
        let outcome = OutcomeFinder(window: outcomeWindow, stuckSpinner: stuckSpinner)
            .outcome(
                after: index, events: events, triggerEvent: trigger?.gesture.began ?? trigger?.gesture.end, end: end)
        if let shown = outcome.time {
            evidence.append("\(outcome.kind.rawValue) \(Self.delay(shown - time)) after the failure")
        } else {
            evidence.append(outcome.description)
        }
        if outcome.kind != .silent { confidence += 0.1 }
        let followUps = followUps(after: index, template: path, events: events, isLastFailure: isLastFailure)
        return CausalChain(
            trigger: trigger.map {
                CausalChain.Trigger(
                    event: $0.gesture.end, time: $0.gesture.time, className: $0.gesture.target?.className,
                    label: $0.gesture.target?.label)
            },
            exchange: recorded, outcome: outcome, followUps: followUps,
            confidence: (min(confidence, 0.95) * 100).rounded() / 100, evidence: evidence)
    }

    /// Crashes, error logs and the first retry after the failure at `index`. A crash with no recorded time (Clue's
    /// exception file) follows only the last failure.
    private func followUps(
        after index: Int, template: String?, events: [TimelineEvent], isLastFailure: Bool
    ) -> [CausalChain.FollowUp] {
        let time = events[index].timestamp
        var result: [CausalChain.FollowUp] = []
        var retried = false
        for later in events.indices where later > index {
            let event = events[later]
            let delay = event.timestamp - time
            // Nothing timed counts past the longest window; an untimed crash sits at the very end.
            if delay > max(retryWindow, followUpWindow), event.timeIsRecorded, !isLastFailure { break }
            switch event.kind {
            case .exception(let exception) where event.timeIsRecorded ? delay <= followUpWindow : isLastFailure:
                let when = event.timeIsRecorded ? "\(Self.delay(delay)) later" : "at the end of the recording"
                result.append(
                    CausalChain.FollowUp(
                        kind: .crash, event: later, time: event.timestamp,
                        description: "crash \(when): \(exception.name ?? "exception")"))
            case .log(let line) where line.level.isError && delay <= followUpWindow:
                result.append(
                    CausalChain.FollowUp(
                        kind: .errorLog, event: later, time: event.timestamp,
                        description: "\(line.level.rawValue) logged \(Self.delay(delay)) later: "
                            + (line.message.split(separator: "\n").first.map(String.init) ?? "")))
            case .network(let retry)
            where !retried && delay <= retryWindow && template != nil
                && retry.url.map(URLTemplate.path) == template:
                retried = true
                let failed = retry.failure != nil
                result.append(
                    CausalChain.FollowUp(
                        kind: failed ? .retryFailed : .retrySucceeded, event: later, time: event.timestamp,
                        description: "retried \(Self.delay(delay)) later: "
                            + (failed
                                ? "failed again (\(retry.failure?.summary ?? ""))"
                                : "succeeded (\(retry.statusCode.map(String.init) ?? "no error"))")))
            default:
                continue
            }
        }
        return result
    }

    /// `0.02 s`, `2.0 s`.
    static func delay(_ seconds: Double) -> String {
        let rounded = (seconds * 100).rounded() / 100
        return "\(rounded) s"
    }
}
