/// A touch from finger-down to finger-up: a tap, or a drag when the finger moved.
public struct Gesture: Sendable, Hashable {
    /// What the finger did.
    public enum Kind: String, Sendable, Hashable {
        /// Down and up in place.
        case tap
        /// Down, moved at least ``Gesture/dragDistance`` points, up.
        case drag
    }

    /// How far a finger must move for a touch to count as a drag, in points.
    public static let dragDistance = 10.0

    /// Tap or drag.
    public var kind: Kind
    /// The timeline position of the finger-down, when one was recorded.
    public var began: Int?
    /// The timeline position of the last record: the finger-up, or the finger-down when no finger-up followed.
    public var end: Int
    /// When the gesture ended.
    public var time: Double
    /// The view under the finger-down, from the snapshot at that time.
    public var target: TouchTarget?

    /// The gestures of a timeline, in order. A finger-down opens a gesture, moves extend it, a finger-up closes
    /// it; a finger-up with no finger-down is a gesture of its own.
    public static func gestures(in timeline: Timeline) -> [Gesture] {
        var result: [Gesture] = []
        var open: (began: Int, start: TouchPoint?, moved: Double, target: TouchTarget?)?
        func close(at index: Int, time: Double, end point: TouchPoint?) {
            let start = open?.start ?? point
            var moved = open?.moved ?? 0
            if let start, let point {
                moved = max(moved, Gesture.distance(start, point))
            }
            result.append(
                Gesture(
                    kind: moved >= dragDistance ? .drag : .tap, began: open?.began, end: index, time: time,
                    target: open?.target ?? nil))
            open = nil
        }
        // Read in place, through the buffer: iterating the array copied each event.
        timeline.events.withUnsafeBufferPointer { events in
            for index in events.indices {
                guard case .touch(let touch) = events[index].kind else { continue }
                let first = touch.touches.first
                switch touch.phase {
                case .began:
                    if let open { close(at: open.began, time: events[open.began].timestamp, end: open.start) }
                    open = (index, first, 0, touch.target)
                case .moved:
                    if open == nil { open = (index, first, 0, touch.target) }
                    if var current = open, let start = current.start {
                        let farthest = touch.touches.map { Gesture.distance(start, $0) }.max() ?? 0
                        current.moved = max(current.moved, farthest)
                        open = current
                    }
                case .ended:
                    if open == nil { open = (index, first, 0, touch.target) }
                    if open?.target == nil { open?.target = touch.target }
                    close(at: index, time: events[index].timestamp, end: touch.touches.last)
                case .unknown:
                    continue
                }
            }
        }
        if let open { close(at: open.began, time: timeline.events[open.began].timestamp, end: open.start) }
        return result
    }

    /// The gestures by the timeline position of their last record.
    public static func byEnd(_ gestures: [Gesture]) -> [Int: Gesture] {
        Dictionary(gestures.map { ($0.end, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func distance(_ a: TouchPoint, _ b: TouchPoint) -> Double {
        ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    }
}
