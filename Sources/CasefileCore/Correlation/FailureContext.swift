/// What surrounds a failed request: the user's last touch before it and the first visible change after it.
///
/// This is the first, simple step of correlation: nearest events within a window, labelled as a heuristic.
public struct FailureContext: Sendable, Hashable {
    /// How far back a touch may be to count as the trigger, in seconds.
    public static let triggerWindow = 10.0
    /// How far ahead a screen change may be to count as the consequence, in seconds.
    public static let consequenceWindow = 5.0

    /// The last touch that ended (or began) before the failure, within ``triggerWindow``.
    public var trigger: TimelineEvent?
    /// The first screen change or view update after the failure, within ``consequenceWindow``.
    public var consequence: TimelineEvent?

    /// Finds the context of the event at `index` in `timeline`.
    public init(of index: Int, in timeline: Timeline) {
        let events = timeline.events
        let failure = events[index]
        trigger = events[..<index].last { event in
            guard case .touch(let touch) = event.kind, touch.phase != .moved else { return false }
            return failure.timestamp - event.timestamp <= Self.triggerWindow
        }
        consequence = events[(index + 1)...].first { event in
            guard event.timestamp - failure.timestamp <= Self.consequenceWindow else { return false }
            switch event.kind {
            case .screen, .viewUpdate: return true
            default: return false
            }
        }
    }
}
