/// A new screen: the root view of the top view controller changed class (or the first snapshot arrived).
public struct ScreenChange: Sendable, Codable, Hashable {
    /// The previous root view class; `nil` for the first screen of the recording.
    public var fromClass: String?
    /// The new root view class, e.g. `ShopApp.PaymentErrorView`.
    public var toClass: String
    /// What the new screen shows.
    public var state: ScreenState

    /// Creates a screen change.
    public init(fromClass: String?, toClass: String, state: ScreenState) {
        self.fromClass = fromClass
        self.toClass = toClass
        self.state = state
    }

    /// The first visible texts of the new screen, to recognize it by.
    public var texts: [String] {
        state.labels
    }
}

/// Visible changes inside one screen between two snapshots.
public struct ViewUpdate: Sendable, Codable, Hashable {
    /// Each change: views added and removed, text changed, views shown or hidden, controls enabled or disabled.
    public var items: [ViewChange]
    /// What the screen shows after the changes.
    public var state: ScreenState

    /// Creates a view update.
    public init(items: [ViewChange], state: ScreenState) {
        self.items = items
        self.state = state
    }

    /// Each change in words: `UIButtonLabel "Pay now" → "Processing…"`, `UIActivityIndicatorView shown`.
    public var changes: [String] {
        items.map(\.description)
    }
}
