import Foundation

/// Replaces a file's content all at once without an fsync: the new bytes go to a file beside it, which is renamed
/// over the old one. A reader sees the old file or the new one, never half of one; after a power loss the file may be
/// the old one, which the next run rewrites (the index says what is done).
enum FileReplacement {
    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        try data.write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, "errno": code])
        }
    }
}
