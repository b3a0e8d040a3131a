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

    /// What `casefile publish --help` says, for both programs that answer it (`casefile` and `casefile-publish`).
    public static let publishAbstract =
        "Send the tracker outbox: open one issue per group, update it and comment as it grows."
    /// The longer help of `casefile publish`.
    public static let publishDiscussion = """
        The tracker is [tracker] in the pipeline definition (url, repository = "owner/name", token_env, labels, \
        reports_url); the token is read from the environment variable token_env names (CASEFILE_TRACKER_TOKEN by \
        default). A payload that fails stays in the outbox for the next publish. Exit codes: 0 everything sent, 1 some \
        payloads left for the next publish, 2 usage or configuration error, 3 the index or the lock could not be taken.
        """

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
