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

/// An uncaught exception recorded with a report (Clue's `Info/info_exception.json`).
public struct AppException: Sendable, Codable, Hashable {
    /// The exception name, e.g. `NSInvalidArgumentException`.
    public var name: String?
    /// The reason (Clue writes the key as `reson`).
    public var reason: String?
    /// The exception's user info, when it was not nil.
    public var userInfo: JSONValue?
    /// `callStackSymbols` lines as written.
    public var callStackSymbols: [String]
    /// `callStackReturnAddresses`.
    public var returnAddresses: [UInt64]

    /// Creates an exception.
    public init(
        name: String?, reason: String?, userInfo: JSONValue? = nil, callStackSymbols: [String] = [],
        returnAddresses: [UInt64] = []
    ) {
        self.name = name
        self.reason = reason
        self.userInfo = userInfo
        self.callStackSymbols = callStackSymbols
        self.returnAddresses = returnAddresses
    }
}
