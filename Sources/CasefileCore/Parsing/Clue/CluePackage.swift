public import CasefileArchive

/// The files of one `.clue` report, found inside an input: `Info/…` and `Modules/…` relative to the report root.
public struct CluePackage: Sendable {
    /// The input the report was found in.
    public var input: String
    /// The folder inside the input that holds `Info/` and `Modules/` (`""` at the root).
    public var root: String
    /// The report's files by path relative to ``root``, e.g. `Modules/module_view.json`.
    public var files: [String: ArchiveEntry]

    /// Creates a package.
    public init(input: String, root: String, files: [String: ArchiveEntry]) {
        self.input = input
        self.root = root
        self.files = files
    }

    /// The Clue UUID from the report folder's name `<UUID>.clue` (the root, or the input itself when the root is
    /// the input), uppercased.
    public var uuid: String? {
        let folder = root.isEmpty ? input : root
        guard let last = folder.split(separator: "/").last, last.lowercased().hasSuffix(".clue") else { return nil }
        let stem = last.dropLast(5)
        let hex = stem.filter { $0 != "-" }
        guard stem.count == 36, hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return nil }
        return stem.uppercased()
    }
}
