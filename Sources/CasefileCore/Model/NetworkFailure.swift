/// How a request failed.
public enum NetworkFailure: Sendable, Codable, Hashable {
    /// The server answered with this status (≥ 400).
    case http(Int)
    /// The request timed out (`NSURLErrorDomain` −1001).
    case timeout(TransportError)
    /// Any other transport error: offline, DNS, TLS, cancelled.
    case transport(TransportError)

    /// A short phrase: `HTTP 500`, `timeout`, `transport error NSURLErrorDomain -1009`.
    public var summary: String {
        switch self {
        case .http(let status): "HTTP \(status)"
        case .timeout: "timeout"
        case .transport(let error):
            "transport error \(error.domain ?? "unknown domain") \(error.code.map(String.init) ?? "")"
        }
    }
}

/// An `NSError` a request completed with.
public struct TransportError: Sendable, Codable, Hashable {
    /// The error domain, e.g. `NSURLErrorDomain`.
    public var domain: String?
    /// The error code, e.g. −1009.
    public var code: Int?
    /// `localizedDescription`.
    public var description: String?
    /// The failing URL from the error's user info, when recorded.
    public var failingURL: String?

    /// Creates a transport error.
    public init(domain: String?, code: Int?, description: String?, failingURL: String?) {
        self.domain = domain
        self.code = code
        self.description = description
        self.failingURL = failingURL
    }

    /// Whether this is `NSURLErrorTimedOut`.
    public var isTimeout: Bool {
        domain == "NSURLErrorDomain" && code == -1001
    }
}
