/// An analytics event the app sent, from a debug-menu dump.
public struct AnalyticsEvent: Sendable, Codable, Hashable {
    /// The event name, e.g. `checkout_pay_tapped`.
    public var name: String
    /// Its parameters as recorded, with secret values redacted.
    public var parameters: JSONValue?
    /// Where it was sent (`Firebase`, `Amplitude`), when recorded.
    public var destination: String?

    /// Creates an analytics event.
    public init(name: String, parameters: JSONValue? = nil, destination: String? = nil) {
        self.name = name
        self.parameters = parameters
        self.destination = destination
    }
}
