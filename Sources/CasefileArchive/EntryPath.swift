import Foundation

/// Normalizes an archive entry's path and refuses one that could escape the archive.
///
/// Entries are never written to disk, but a path that climbs out with `..` or starts at `/` is a sign of a
/// hostile archive, and an input holding one is refused as a whole.
enum EntryPath {
    /// The normalized path, or `nil` when the path is absolute or climbs out of the archive.
    static func normalize(_ raw: String) -> String? {
        // Most paths are already normal: checked byte by byte and kept, instead of rebuilt through Foundation.
        var bytes = raw
        if bytes.withUTF8(isNormal) { return raw }
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

    /// Whether `path` is its own normal form: relative components joined by single slashes, none empty, `.` or
    /// `..`. A path with a backslash or a colon is left to the full check (which refuses a drive letter's colon).
    private static func isNormal(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        var componentStart = 0
        for index in 0...path.count {
            let byte = index < path.count ? path[index] : UInt8(ascii: "/")
            if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ":") { return false }
            guard byte == UInt8(ascii: "/") else { continue }
            switch index - componentStart {
            case 0: return false
            case 1 where path[componentStart] == UInt8(ascii: "."): return false
            case 2 where path[componentStart] == UInt8(ascii: ".") && path[componentStart + 1] == UInt8(ascii: "."):
                return false
            default: break
            }
            componentStart = index + 1
        }
        return true
    }

    /// Whether a name is a media file that is streamed rather than loaded.
    static func isMedia(_ path: String) -> Bool {
        let lower = path.lowercased()
        return [".mp4", ".mov", ".m4v"].contains { lower.hasSuffix($0) }
    }
}
