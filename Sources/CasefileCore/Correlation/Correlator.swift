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
        correlate(&report)
        return report
    }

    /// Fills in the report's ``Report/correlation`` in place.
    public func correlate(_ report: inout Report) {
        report.correlation = correlation(of: report.timeline, duration: report.duration)
    }

    /// How long after a successful response an error log naming its path makes it a failure, in seconds.
    public var loggedErrorWindow = 2.0

    /// The chains, steps and crash context of a timeline.
    public func correlation(of timeline: Timeline, duration: Double? = nil) -> Correlation {
        let events = timeline.events
        let gestures = Gesture.gestures(in: timeline)
        let memo = CorrelationMemo(events)
        let outcomes = OutcomeFinder(
            window: outcomeWindow, stuckSpinner: stuckSpinner, screens: OutcomeFinder.ScreenIndex(events))
        let failures = failures(in: events, memo: memo)
        // Each chain is worked out on its own; a recording with many failures has its two halves worked out at once,
        // each with a memo of its own (a memo only saves work: any memo gives the same chain).
        let lastFailure = failures.last?.index
        @Sendable func chainsOf(_ part: ArraySlice<Failure>, memo: CorrelationMemo) -> [CausalChain] {
            part.map {
                chain(
                    $0, isLastFailure: $0.index == lastFailure, events: events, gestures: gestures, end: duration,
                    memo: memo, outcomes: outcomes)
            }
        }
        let chains: [CausalChain]
        if failures.count >= SideBySide.chains {
            let half = failures.count / 2
            let (front, back) = SideBySide.run(
                concurrently: true,
                { chainsOf(failures[..<half], memo: CorrelationMemo(events)) },
                { chainsOf(failures[half...], memo: CorrelationMemo(events)) })
            chains = front + back
        } else {
            chains = chainsOf(failures[...], memo: memo)
        }
        let crash = events.lastIndex { if case .exception = $0.kind { true } else { false } }
        let beforeCrash = crash.map { Array(max(0, $0 - eventsBeforeCrash)..<$0) } ?? []
        // The steps name failed requests by template, which each chain has worked out (with a memo of its own, when
        // the chains were worked out in halves).
        let templates = Dictionary(
            chains.compactMap { chain in chain.exchange.template.map { (chain.exchange.event, $0) } },
            uniquingKeysWith: { first, _ in first })
        let steps = ReproSteps.steps(
            events: events, gestures: gestures, chains: chains, crash: crash,
            template: { templates[$0] ?? memo.template(event: $0, url: $1) })
        return Correlation(chains: chains, steps: steps, beforeCrash: beforeCrash)
    }

    /// A failed exchange: its position, and the error log that made a successful response a failure.
    private struct Failure {
        var index: Int
        var exchange: NetworkExchange
        var summary: String
        var loggedError: Int?
    }

    /// The exchanges that failed (HTTP ≥ 400, transport error, timeout) and the responses the app logged as an error
    /// within ``loggedErrorWindow`` (an error log line naming the request's path or its template).
    private func failures(in events: [TimelineEvent], memo: CorrelationMemo) -> [Failure] {
        // Events are read in place, through the buffer: through the array each look copied the whole event.
        events.withUnsafeBufferPointer { failures(in: $0, memo: memo) }
    }

    private func failures(in events: UnsafeBufferPointer<TimelineEvent>, memo: CorrelationMemo) -> [Failure] {
        events.indices.compactMap { index in
            guard case .network(let exchange) = events[index].kind else { return nil }
            if let failure = exchange.failure {
                return Failure(index: index, exchange: exchange, summary: failure.summary)
            }
            guard let url = exchange.url else { return nil }
            for later in events.indices.dropFirst(index + 1) {
                guard events[later].timestamp - events[index].timestamp <= loggedErrorWindow else { break }
                guard memo.follower[later] == .errorLog, case .log(let line) = events[later].kind else {
                    continue
                }
                let path = URLTemplate.rawPath(of: url)
                // A template (`/v1/orders/{id}`) can only be named by a message with a brace in it.
                let namesPath = path.count > 1 && line.message.containsBytes(String(path))
                let namesTemplate =
                    !namesPath && line.message.utf8.contains(0x7B)
                    && line.message.containsBytes(String(memo.template(event: index, url: url).prefix { $0 != "?" }))
                if namesPath || namesTemplate {
                    return Failure(index: index, exchange: exchange, summary: "app logged an error", loggedError: later)
                }
            }
            return nil
        }
    }

    private func chain(
        _ failure: Failure, isLastFailure: Bool, events: [TimelineEvent], gestures: [Gesture], end: Double?,
        memo: CorrelationMemo, outcomes: OutcomeFinder
    ) -> CausalChain {
        let index = failure.index
        let exchange = failure.exchange
        let time = events[index].timestamp
        let path = exchange.url.map { memo.template(event: index, url: $0) }
        let feature = exchange.requestHeaders.first { $0.name.lowercased() == "x-feature-name" }?.value
        let recorded = CausalChain.Exchange(
            event: index, time: time, url: exchange.url, template: path, method: exchange.method,
            status: exchange.statusCode, failure: failure.summary, latency: exchange.latency, feature: feature)
        var evidence: [String] = []
        if let logged = failure.loggedError, case .log(let line) = events[logged].kind {
            evidence.append(
                "the app logged an error \(Self.delay(events[logged].timestamp - time)) after the response: "
                    + (line.message.firstLine.map(String.init) ?? ""))
        }
        let request = TriggerChoice.Request(index: index, time: time, sentAt: exchange.requestAt, path: path)
        let trigger = TriggerChoice.best(
            among: gestures, for: request, window: triggerWindow, events: events, memo: memo)
        var confidence: Double
        if let trigger {
            evidence += trigger.evidence
            confidence = trigger.score
        } else if let sentAt = exchange.requestAt {
            evidence.append(
                "no tap in the \(Int(TriggerChoice.sendWindow)) s before the request was sent at \(Self.delay(sentAt)) (recorded send time): background traffic"
            )
            confidence = 0.7
        } else {
            let touched = gestures.contains { $0.time <= time && time - $0.time <= triggerWindow }
            evidence.append(
                touched
                    ? "no tap on a control in the \(Int(triggerWindow)) s before: background traffic, or a tap the snapshot cannot name"
                    : "no touch in the \(Int(triggerWindow)) s before: background traffic")
            confidence = touched ? 0.4 : 0.6
        }
        let outcome = outcomes.outcome(
            after: index, events: events, triggerEvent: trigger?.gesture.began ?? trigger?.gesture.end, end: end,
            memo: memo)
        if let shown = outcome.time {
            evidence.append("\(outcome.kind.rawValue) \(Self.delay(shown - time)) after the failure")
        } else {
            evidence.append(outcome.description)
        }
        if outcome.kind != .silent { confidence += 0.1 }
        let followUps = followUps(
            after: index, template: path, events: events, isLastFailure: isLastFailure, skipping: failure.loggedError,
            memo: memo)
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
        after index: Int, template: String?, events: [TimelineEvent], isLastFailure: Bool, skipping: Int?,
        memo: CorrelationMemo
    ) -> [CausalChain.FollowUp] {
        // Events are read in place, through the buffer: `events[later]` of the array copied each event it looked at
        // (retaining its strings and payload), most of what scanning after each failure cost.
        events.withUnsafeBufferPointer { events in
            followUps(
                after: index, template: template, events: events, isLastFailure: isLastFailure, skipping: skipping,
                memo: memo)
        }
    }

    private func followUps(
        after index: Int, template: String?, events: UnsafeBufferPointer<TimelineEvent>, isLastFailure: Bool,
        skipping: Int?, memo: CorrelationMemo
    ) -> [CausalChain.FollowUp] {
        let time = events[index].timestamp
        var result: [CausalChain.FollowUp] = []
        var retried = false
        // Only crashes, error logs and requests can follow: the scan skips everything else.
        for later in memo.followers(after: index) where later != skipping {
            let timestamp = events[later].timestamp
            let timeIsRecorded = events[later].timeIsRecorded
            let delay = timestamp - time
            // Nothing timed counts past the longest window still open (once a retry is found, or with no template to
            // find one by, the follow-up window's); an untimed crash sits at the very end.
            let window = retried || template == nil ? followUpWindow : max(retryWindow, followUpWindow)
            if delay > window, timeIsRecorded, !isLastFailure { break }
            // What the event is comes from the memo; the event itself is read only when it follows.
            switch memo.follower[later] {
            case .crash:
                guard timeIsRecorded ? delay <= followUpWindow : isLastFailure,
                    case .exception(let exception) = events[later].kind
                else { continue }
                let when = timeIsRecorded ? "\(Self.delay(delay)) later" : "at the end of the recording"
                result.append(
                    CausalChain.FollowUp(
                        kind: .crash, event: later, time: timestamp,
                        description: "crash \(when): \(exception.name ?? "exception")"))
            case .errorLog:
                guard delay <= followUpWindow, case .log(let line) = events[later].kind else { continue }
                result.append(
                    CausalChain.FollowUp(
                        kind: .errorLog, event: later, time: timestamp,
                        description: "\(line.level.rawValue) logged \(Self.delay(delay)) later: "
                            + (line.message.firstLine.map(String.init) ?? "")))
            case .request:
                guard !retried, delay <= retryWindow, let template,
                    memo.template(event: later, in: events) == template,
                    case .network(let retry) = events[later].kind
                else { continue }
                retried = true
                let failed = retry.failure != nil
                result.append(
                    CausalChain.FollowUp(
                        kind: failed ? .retryFailed : .retrySucceeded, event: later, time: timestamp,
                        description: "retried \(Self.delay(delay)) later: "
                            + (failed
                                ? "failed again (\(retry.failure?.summary ?? ""))"
                                : "succeeded (\(retry.statusCode.map(String.init) ?? "no error"))")))
            case nil:
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
