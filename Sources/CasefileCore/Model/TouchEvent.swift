/// One touch phase of the user, with the view it landed on when that could be worked out.
public struct TouchEvent: Sendable, Codable, Hashable {
    /// The phase: began, moved (all samples of a drag in one record) or ended.
    public var phase: TouchPhase
    /// The phase as written, kept when it is not one Casefile knows.
    public var rawPhase: String
    /// The touches of this phase, in window coordinates (points, origin top left).
    public var touches: [TouchPoint]
    /// The view under the first touch, hit-tested against the latest view snapshot at or before the touch.
    /// Approximate: the snapshot does not record scroll offsets or transforms.
    public var target: TouchTarget?

    /// Creates a touch event.
    public init(phase: TouchPhase, rawPhase: String, touches: [TouchPoint], target: TouchTarget? = nil) {
        self.phase = phase
        self.rawPhase = rawPhase
        self.touches = touches
        self.target = target
    }
}

/// The phases Clue records.
public enum TouchPhase: String, Sendable, Codable, Hashable {
    /// Fingers went down.
    case began
    /// The samples of a movement, written together just before the end.
    case moved
    /// Fingers lifted.
    case ended
    /// A phase Casefile does not know.
    case unknown
}

/// One touch location.
public struct TouchPoint: Sendable, Codable, Hashable {
    /// The tap count UIKit reported.
    public var tapCount: Int
    /// X in window points.
    public var x: Double
    /// Y in window points.
    public var y: Double

    /// Creates a touch location.
    public init(tapCount: Int, x: Double, y: Double) {
        self.tapCount = tapCount
        self.x = x
        self.y = y
    }
}

/// The view a touch landed on.
public struct TouchTarget: Sendable, Codable, Hashable {
    /// The view's class, e.g. `UIButton`.
    public var className: String
    /// The text the user saw on it: its own text, a button's title label, or a text field's placeholder.
    public var label: String?
    /// The classes from the root view down to the target, e.g. `UIView › UIButton`.
    public var path: [String]

    /// Creates a touch target.
    public init(className: String, label: String?, path: [String]) {
        self.className = className
        self.label = label
        self.path = path
    }

    /// `UIButton "Pay now"`.
    public var description: String {
        label.map { "\(className) \"\($0)\"" } ?? className
    }
}
