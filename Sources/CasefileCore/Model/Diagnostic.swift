/// A problem found while reading a report: the file, the line when there is one, and what was done about it.
public struct Diagnostic: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The file inside the report (e.g. `Modules/module_view.json`).
    public var file: String
    /// The 1-based line, for line-oriented files.
    public var line: Int?
    /// What was wrong and what was done, e.g. "invalid JSON (…); line skipped".
    public var message: String

    /// Creates a diagnostic.
    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`.
    public var description: String {
        if let line {
            return "\(file):\(line): \(message)"
        }
        return "\(file): \(message)"
    }
}
