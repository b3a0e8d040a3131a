/// A pipeline definition that cannot be used: the file, the key path, and what is wrong with it.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The definition file.
    public var file: String
    /// The dotted key path, e.g. `limits.max_entries`, when the problem is one key.
    public var keyPath: String?
    /// What is wrong and what to do.
    public var reason: String

    /// Creates an error.
    public init(file: String, keyPath: String? = nil, reason: String) {
        self.file = file
        self.keyPath = keyPath
        self.reason = reason
    }

    /// `file: key.path: reason`.
    public var description: String {
        if let keyPath {
            return "\(file): \(keyPath): \(reason)"
        }
        return "\(file): \(reason)"
    }
}
