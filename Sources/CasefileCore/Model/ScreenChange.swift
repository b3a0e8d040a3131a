/// A new screen: the root view of the top view controller changed class (or the first snapshot arrived).
public struct ScreenChange: Sendable, Codable, Hashable {
    /// The previous root view class; `nil` for the first screen of the recording.
    public var fromClass: String?
    /// The new root view class, e.g. `ShopApp.PaymentErrorView`.
    public var toClass: String
    /// The first visible texts of the new screen, to recognize it by.
    public var texts: [String]

    /// Creates a screen change.
    public init(fromClass: String?, toClass: String, texts: [String]) {
        self.fromClass = fromClass
        self.toClass = toClass
        self.texts = texts
    }
}

/// Visible changes inside one screen between two snapshots.
public struct ViewUpdate: Sendable, Codable, Hashable {
    /// Each change in words: `UIButtonLabel "Pay now" → "Processing…"`, `UIActivityIndicatorView shown`.
    public var changes: [String]

    /// Creates a view update.
    public init(changes: [String]) {
        self.changes = changes
    }
}
