/// One HTTP header.
public struct HeaderField: Sendable, Codable, Hashable {
    /// The header name as recorded.
    public var name: String
    /// The value, or `[redacted]` for credentials and cookies.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
