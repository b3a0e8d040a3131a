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
