/// Why an input could not be unpacked, naming the input, the entry and what to do.
///
/// A struct with a ``Code`` scales better than a growing enum: callers switch on the code, users read
/// ``description``.
public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The input could not be opened or read from disk.
        case unreadable
        /// libarchive could not decode the archive, or an entry of it.
        case corrupt
        /// An entry's path is absolute or climbs out of the archive with `..`.
        case unsafePath
        /// One of the ``ArchiveLimits`` was exceeded.
        case limitExceeded
    }

    /// The kind of failure.
    public var code: Code
    /// The input file or directory, as the caller named it.
    public var input: String
    /// The entry inside the input (nested archives joined with `/`), when the failure is about one entry.
    public var entry: String?
    /// What went wrong, in words.
    public var reason: String

    /// Creates an error.
    public init(code: Code, input: String, entry: String? = nil, reason: String) {
        self.code = code
        self.input = input
        self.entry = entry
        self.reason = reason
    }

    /// One line naming the input, the entry and the reason.
    public var description: String {
        if let entry {
            return "\(input): entry '\(entry)': \(reason)"
        }
        return "\(input): \(reason)"
    }
}
