/// What a triager reads first: the touch that most plausibly triggered a failed request, the request, what the
/// user saw next, and what followed — with how sure Casefile is and why.
///
/// Event positions index ``Report/timeline``'s events.
public struct CausalChain: Sendable, Codable, Hashable {
    /// The touch that most plausibly triggered the request; `nil` for background traffic.
    public var trigger: Trigger?
    /// The failed request.
    public var exchange: Exchange
    /// What the screen did after the failure.
    public var outcome: Outcome
    /// What happened shortly after: a crash, an error logged, a retry.
    public var followUps: [FollowUp]
    /// How likely the chain is right, from 0 to 1.
    public var confidence: Double
    /// Each reason for (or against) the links, in words.
    public var evidence: [String]

    /// Creates a chain.
    public init(
        trigger: Trigger?, exchange: Exchange, outcome: Outcome, followUps: [FollowUp], confidence: Double,
        evidence: [String]
    ) {
        self.trigger = trigger
        self.exchange = exchange
        self.outcome = outcome
        self.followUps = followUps
        self.confidence = confidence
        self.evidence = evidence
    }

    /// `high` (≥ 0.75), `medium` (≥ 0.5) or `low`.
    public var confidenceLevel: String {
        confidence >= 0.75 ? "high" : confidence >= 0.5 ? "medium" : "low"
    }

    /// The tap that started it.
    public struct Trigger: Sendable, Codable, Hashable {
        /// The touch's position in the timeline (its finger-up, or finger-down when no finger-up was recorded).
        public var event: Int
        /// Seconds since the recording started.
        public var time: Double
        /// The control's class, from the view snapshot at that time.
        public var className: String?
        /// The text a user reads on the control.
        public var label: String?

        /// Creates a trigger.
        public init(event: Int, time: Double, className: String?, label: String?) {
            self.event = event
            self.time = time
            self.className = className
            self.label = label
        }

        /// `Tap "Pay now"`, `Tap UISwitch`, `Tap` (no snapshot).
        public var description: String {
            if let label { return "Tap \"\(label)\"" }
            return className.map { "Tap \($0)" } ?? "Tap"
        }
    }

    /// The failed request, as recorded.
    public struct Exchange: Sendable, Codable, Hashable {
        /// Its position in the timeline.
        public var event: Int
        /// Seconds since the recording started (the response, or the error).
        public var time: Double
        /// The URL as recorded.
        public var url: String?
        /// The URL's path template: `/v1/orders/{id}/pay`.
        public var template: String?
        /// The method, only when a source records one (a `.clue` recording never does).
        public var method: String?
        /// The HTTP status.
        public var status: Int?
        /// `HTTP 500`, `timeout`, `transport error NSURLErrorDomain -1009`, or `app logged an error` for a response
        /// the app's log called an error.
        public var failure: String
        /// Seconds from request to response, only when a source records both.
        public var latency: Double?
        /// The `X-FEATURE-NAME` request header, only when a source records request headers.
        public var feature: String?

        /// Creates an exchange.
        public init(
            event: Int, time: Double, url: String?, template: String?, method: String?, status: Int?, failure: String,
            latency: Double?, feature: String? = nil
        ) {
            self.event = event
            self.time = time
            self.url = url
            self.template = template
            self.method = method
            self.status = status
            self.failure = failure
            self.latency = latency
            self.feature = feature
        }

        /// `POST /v1/orders → 500`, `/v1/orders → timeout`, `/v1/cart → 200, app logged an error`.
        public var description: String {
            let what = [method, template ?? url ?? "unknown URL"].compactMap { $0 }.joined(separator: " ")
            let result = status.map { "\($0)" + (failure.hasPrefix("HTTP") ? "" : ", \(failure)") } ?? failure
            return "\(what) → \(result)"
                + (latency.flatMap { Int(exactly: ($0 * 1000).rounded()) }.map { " in \($0) ms" } ?? "")
        }
    }

    /// What the screen did after the failure.
    public struct Outcome: Sendable, Codable, Hashable {
        /// The kinds of outcome, most telling first.
        public enum Kind: String, Sendable, Codable, Hashable {
            /// An alert appeared.
            case alert
            /// The app moved to a screen that reads as an error.
            case errorScreen = "error-screen"
            /// An error message appeared on the same screen.
            case errorMessage = "error-message"
            /// The app went back to the screen before.
            case navigationBack = "navigation-back"
            /// A spinner stayed visible with nothing else happening.
            case stuckSpinner = "stuck-spinner"
            /// The app moved to another screen.
            case navigation
            /// Something else changed on screen.
            case viewChange = "view-change"
            /// Nothing visible changed.
            case silent
        }

        /// The kind.
        public var kind: Kind
        /// The screen or view event that shows it, when there is one.
        public var event: Int?
        /// When it showed.
        public var time: Double?
        /// In words: `PaymentErrorView "Payment failed"`, `spinner still visible after 8.0 s`.
        public var description: String

        /// Creates an outcome.
        public init(kind: Kind, event: Int?, time: Double?, description: String) {
            self.kind = kind
            self.event = event
            self.time = time
            self.description = description
        }
    }

    /// Something that followed the failure.
    public struct FollowUp: Sendable, Codable, Hashable {
        /// The kinds of follow-up.
        public enum Kind: String, Sendable, Codable, Hashable {
            /// The app crashed or raised an uncaught exception.
            case crash
            /// The app logged an error.
            case errorLog = "error-log"
            /// The same endpoint was requested again and succeeded.
            case retrySucceeded = "retry-succeeded"
            /// The same endpoint was requested again and failed again.
            case retryFailed = "retry-failed"
        }

        /// The kind.
        public var kind: Kind
        /// Its position in the timeline.
        public var event: Int
        /// Seconds since the recording started.
        public var time: Double
        /// In words.
        public var description: String

        /// Creates a follow-up.
        public init(kind: Kind, event: Int, time: Double, description: String) {
            self.kind = kind
            self.event = event
            self.time = time
            self.description = description
        }
    }
}
