import Foundation

/// Normalizes an archive entry's path and refuses one that could escape the archive.
///
/// Entries are never written to disk, but a path that climbs out with `..` or starts at `/` is a sign of a
/// hostile archive, and an input holding one is refused as a whole.
enum EntryPath {
    /// The normalized path, or `nil` when the path is absolute or climbs out of the archive.
    static func normalize(_ raw: String) -> String? {
        let unified = raw.replacingOccurrences(of: "\\", with: "/")
        if unified.hasPrefix("/") || unified.first.map({ $0.isLetter }) == true && unified.dropFirst().hasPrefix(":") {
            return nil
        }
        var components: [Substring] = []
        for component in unified.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".":
                continue
            case "..":
                return nil
            default:
                components.append(component)
            }
        }
        return components.joined(separator: "/")
    }

    /// Whether a name is a media file that is streamed rather than loaded.
    static func isMedia(_ path: String) -> Bool {
        let lower = path.lowercased()
        return [".mp4", ".mov", ".m4v"].contains { lower.hasSuffix($0) }
    }
}
