import GRDB

/// A causal chain row of the index: a failed request, its trigger and what followed.
public struct IndexedChain: Sendable, Hashable, Encodable {
    /// The chain's position among the report's chains.
    public var ordinal: Int
    /// The trigger's position in the report's timeline; `nil` for background traffic.
    public var triggerSeq: Int?
    /// The trigger in words: `Tap "Pay now"`.
    public var trigger: String?
    /// The failed request's position in the timeline.
    public var exchangeSeq: Int
    /// When it failed, in seconds on the recording clock.
    public var failureAt: Double
    /// The request's path template.
    public var endpoint: String?
    /// The HTTP status.
    public var status: Int?
    /// `HTTP 500`, `timeout`, …
    public var failure: String
    /// `alert`, `error-screen`, `error-message`, `navigation-back`, `stuck-spinner`, `navigation`, `view-change`,
    /// `silent`.
    public var outcomeKind: String
    /// The outcome in words.
    public var outcome: String
    /// The outcome's position in the timeline; `nil` when nothing followed (`silent`).
    public var outcomeSeq: Int?
    /// From 0 to 1.
    public var confidence: Double
}

extension IndexStore {
    /// The chains of one report, in order.
    public func chains(reportID: String) throws -> [IndexedChain] {
        try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM chains WHERE report_id = ? ORDER BY ordinal", arguments: [reportID]
            ).map { row in
                IndexedChain(
                    ordinal: row["ordinal"], triggerSeq: row["trigger_seq"], trigger: row["trigger"],
                    exchangeSeq: row["exchange_seq"], failureAt: row["failure_at"], endpoint: row["endpoint"],
                    status: row["status"], failure: row["failure"], outcomeKind: row["outcome_kind"],
                    outcome: row["outcome"], outcomeSeq: row["outcome_seq"], confidence: row["confidence"])
            }
        }
    }
}
