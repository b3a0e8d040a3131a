public import CasefileArchive

/// The Detect + Parse stage: turns everything read out of one input into reports.
public struct ReportReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// The reports of one input, plus a note for each entry that was passed over.
    public struct Output: Sendable {
        /// The reports found, in the order their files appeared.
        public var reports: [Report]
        /// Entries passed over, one line each, naming the entry.
        public var notes: [String]
    }

    /// Parses every report in `input`; throws when the input holds none, so the caller can quarantine it.
    public func read(_ input: UnpackedInput) throws(InputError) -> Output {
        let located = ReportLocator.locate(input)
        var notes = input.notes
        for entry in located.unrecognized {
            notes.append("entry '\(entry.path)': not a recognized report format; ignored")
        }
        guard !located.packages.isEmpty else {
            throw InputError(input: input.path, reason: Self.emptyReason(input, located))
        }
        let parser = ClueReportParser()
        return Output(reports: located.packages.map(parser.parse), notes: notes)
    }

    private static func emptyReason(_ input: UnpackedInput, _ located: ReportLocator.Located) -> String {
        if input.entries.isEmpty {
            return "empty report: the \(input.kind.rawValue) holds no files"
        }
        if located.unrecognized.isEmpty {
            return "empty report: only placeholder files (.DS_Store, __MACOSX) and no report data"
        }
        let first = located.unrecognized[0].path
        let others = located.unrecognized.count - 1
        return
            "no report found: '\(first)'\(others > 0 ? " and \(others) other entries" : "") in no format Casefile reads"
    }
}

/// Why an input yielded no report, or could not be read: one line naming the input and, when known, the entry.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input file or directory.
    public var input: String
    /// The entry inside the input, when the problem is one entry.
    public var entry: String?
    /// What went wrong.
    public var reason: String

    /// Creates an error.
    public init(input: String, entry: String? = nil, reason: String) {
        self.input = input
        self.entry = entry
        self.reason = reason
    }

    /// Wraps an unpacking failure.
    public init(_ error: ArchiveError) {
        self.init(input: error.input, entry: error.entry, reason: error.reason)
    }

    /// `input: entry 'X': reason`.
    public var description: String {
        if let entry {
            return "\(input): entry '\(entry)': \(reason)"
        }
        return "\(input): \(reason)"
    }
}
