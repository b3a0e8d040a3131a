/// A push notification delivered to the app, from a debug-menu dump.
public struct PushNotification: Sendable, Codable, Hashable {
    /// The alert title, when there is one.
    public var title: String?
    /// The alert body, when there is one.
    public var body: String?
    /// The notification category, when recorded.
    public var category: String?
    /// The payload as recorded, with secret values redacted.
    public var payload: JSONValue?

    /// Creates a push notification.
    public init(title: String? = nil, body: String? = nil, category: String? = nil, payload: JSONValue? = nil) {
        self.title = title
        self.body = body
        self.category = category
        self.payload = payload
    }
}
