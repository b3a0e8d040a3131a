/// An input the run stores a part at a time: one holding so many crash files that its parsed reports together would
/// outgrow the run's memory (``PipelineDefinition/reportsPerPart``). It is still stored whole or not at all: every
/// part goes into the input's one savepoint, and the input is marked done with its last rows.
///
/// What is known of the input before its parts are read: what a first reading found, which kept only the report ids.
public struct InputInParts: Sendable {
    /// The input.
    public var record: InputRecord
    /// Entries that were passed over.
    public var notes: [String]
    /// Entries that are reports but could not be read.
    public var failedEntries: [InputError]
    /// The id of each report the parts hold, once each, in the input's order.
    public var reportIDs: [String]
    /// Further copies of a report the input holds (the same incident in two files): not in any part, only linked to
    /// the input, in the input's order, with the entry each was read from.
    public var duplicateCopies: [(id: String, root: String)]

    /// Creates an input to be stored in parts.
    public init(
        record: InputRecord, notes: [String], failedEntries: [InputError], reportIDs: [String],
        duplicateCopies: [(id: String, root: String)]
    ) {
        self.record = record
        self.notes = notes
        self.failedEntries = failedEntries
        self.reportIDs = reportIDs
        self.duplicateCopies = duplicateCopies
    }
}

extension IndexOutcome {
    /// Adds what storing one more part of the same input did.
    package mutating func append(_ part: IndexOutcome) {
        newReportIDs += part.newReportIDs
        duplicateReportIDs += part.duplicateReportIDs
        replacedReportIDs += part.replacedReportIDs
        replacedCoverage.merge(part.replacedCoverage) { first, _ in first }
    }
}
