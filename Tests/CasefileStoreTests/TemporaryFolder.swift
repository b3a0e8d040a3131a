import Foundation

/// A folder of its own under the temporary directory, made for one instance of a test suite and removed with it.
final class TemporaryFolder: Sendable {
    /// The folder.
    let url: URL

    /// Makes `<temporary directory>/<prefix>-<UUID>`.
    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
