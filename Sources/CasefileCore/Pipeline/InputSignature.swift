import CasefileArchive
public import Foundation

/// What an input looks like from its metadata alone: size and modification time of the file, or of every file in a
/// folder. An input whose path and signature are those the index recorded is not read again, so a run over an
/// unchanged inbox costs a directory walk, not a hash of every byte.
public enum InputSignature {
    /// `file:SIZE:MTIME` or `dir:FILES:BYTES:NEWEST-MTIME`; `nil` when the input cannot be examined.
    public static func of(_ url: URL) -> String? {
        guard let status = FileStatus.of(url.path) else { return nil }
        guard status.kind == .directory else { return of(status) }
        return FileTree.entries(under: url.path).map { of(directory: status, entries: $0) }
    }

    /// The signature of a file, or `nil` for anything but a regular file, from its status.
    static func of(_ status: FileStatus) -> String? {
        status.kind == .regular ? "file:\(status.size):\(status.modified)" : nil
    }

    /// The signature of a directory, from its own status and its listing.
    static func of(directory status: FileStatus, entries: [FileTree.Entry]) -> String {
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
