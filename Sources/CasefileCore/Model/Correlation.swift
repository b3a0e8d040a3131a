/// What Casefile links in one report's timeline: causal chains, repro steps, and what came before a crash.
public struct Correlation: Sendable, Codable, Hashable {
    /// One chain per failed request, in time order.
    public var chains: [CausalChain]
    /// A short numbered list of what the user did, ending at the last failure or the crash.
    public var steps: [ReproStep]
    /// The positions of the last events before the crash, oldest first; empty without a crash on the timeline.
    public var beforeCrash: [Int]

    /// Creates a correlation.
    public init(chains: [CausalChain] = [], steps: [ReproStep] = [], beforeCrash: [Int] = []) {
        self.chains = chains
        self.steps = steps
        self.beforeCrash = beforeCrash
    }
}

/// One repro step: `Tap "Pay now"`, `Scroll ×3`, `/v1/orders fails: HTTP 500`.
public struct ReproStep: Sendable, Codable, Hashable {
    /// When the step (its first occurrence) happened.
    public var time: Double
    /// The step in words, with `×N` when repeated.
    public var text: String
    /// The timeline positions it stands for.
    public var events: [Int]

    /// Creates a step.
    public init(time: Double, text: String, events: [Int]) {
        self.time = time
        self.text = text
        self.events = events
    }
}
