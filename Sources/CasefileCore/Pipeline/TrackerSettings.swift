/// Where `casefile publish` sends the outbox (`[tracker]` in the pipeline definition): a GitHub-compatible REST
/// API. The token is never in the definition: it is read from the environment variable named by ``tokenVariable``.
public struct TrackerSettings: Sendable, Equatable {
    /// The API's base URL, e.g. `https://api.github.com` or a GitHub Enterprise `https://host/api/v3`.
    public var baseURL: String
    /// `owner/name`; `nil` when the definition configures no tracker.
    public var repository: String?
    /// The environment variable holding the token.
    public var tokenVariable: String
    /// Labels added to every issue, besides `casefile` and the group's kind and status.
    public var labels: [String]
    /// Where the output folder's `reports/` is served, so issue bodies can link each report's summary; without it
    /// the report IDs are plain text.
    public var reportsURL: String?

    /// No tracker configured: GitHub's API, the token in `CASEFILE_TRACKER_TOKEN`.
    public static let none = TrackerSettings(
        baseURL: "https://api.github.com", repository: nil, tokenVariable: "CASEFILE_TRACKER_TOKEN", labels: [])

    /// Creates settings.
    public init(
        baseURL: String, repository: String?, tokenVariable: String, labels: [String], reportsURL: String? = nil
    ) {
        self.baseURL = baseURL
        self.repository = repository
        self.tokenVariable = tokenVariable
        self.labels = labels
        self.reportsURL = reportsURL
    }
}
