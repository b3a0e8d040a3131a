/// The groups of one run, as the index knows them after it: for the digest and the group pages.
public struct GroupDigest: Sendable {
    /// How many groups of each list (new, regressed) the digest shows.
    public static let listed = 100

    /// The groups the digest lists (the first ``listed`` new and regressed ones, and the top ones), by id, with
    /// their details. Other touched groups are read one at a time when their pages are written.
    public var groups: [Int64: BugGroupDetail]
    /// Groups first seen in the run, most occurrences first.
    public var newGroups: [Int64]
    /// Groups that regressed in the run.
    public var regressed: [Int64]
    /// The groups with the most occurrences overall.
    public var top: [Int64]
    /// Groups that got occurrences in the run (their pages are rewritten).
    public var touched: [Int64]
    /// Occurrences each group got in the run.
    public var occurrencesThisRun: [Int64: Int]

    /// Creates a digest.
    public init(
        groups: [Int64: BugGroupDetail], newGroups: [Int64], regressed: [Int64], top: [Int64], touched: [Int64],
        occurrencesThisRun: [Int64: Int]
    ) {
        self.groups = groups
        self.newGroups = newGroups
        self.regressed = regressed
        self.top = top
        self.touched = touched
        self.occurrencesThisRun = occurrencesThisRun
    }
}
