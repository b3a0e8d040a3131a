import CasefileArchive
public import Foundation

/// What an input looks like from its metadata alone: size and modification time of the file, or of every file in a
/// folder. An input whose path and signature are those the index recorded is not read again, so a run over an
/// unchanged inbox costs a directory walk, not a hash of every byte.
public enum InputSignature {
    /// `file:SIZE:MTIME` or `dir:FILES:BYTES:NEWEST-MTIME`; `nil` when the input cannot be examined.
    public static func of(_ url: URL) -> String? {
        guard let status = FileStatus.of(url.path) else { return nil }
        if status.kind == .regular {
            return "file:\(status.size):\(status.modified)"
        }
        guard status.kind == .directory, let entries = FileTree.entries(under: url.path) else { return nil }
        var files = 0
        var bytes: Int64 = 0
        var newest = status.modified
        for entry in entries {
            newest = max(newest, entry.status.modified)
            if entry.status.kind == .regular {
                files += 1
                bytes += Int64(entry.status.size)
            }
        }
        return "dir:\(files):\(bytes):\(newest)"
    }
}
