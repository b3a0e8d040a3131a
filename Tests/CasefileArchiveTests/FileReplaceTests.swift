import CasefileArchive
import Foundation
import Testing

/// `FileBlocks.replace`: a file is replaced whole, even when several threads of one process replace the same path at
/// once — as two inputs of one run holding the same report both write its summary.
@Suite struct FileReplaceTests {
    @Test func concurrentReplacementsOfOnePathEachLandWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-replace-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/summary.md"
        // Texts of different lengths: a longer one written into a file a shorter one truncated would leave a tail.
        let texts = (0..<8).map { writer in String(repeating: "\(writer)", count: 1_000 + 3_000 * writer) + "\n" }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: texts.count) { writer in
            for _ in 0..<200 {
                do {
                    try FileBlocks.replace(path, with: texts[writer])
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        let failed = failures.all
        #expect(failed.count == 0, "replacements failed, the first with: \(failed.first ?? "")")
        let final = try String(contentsOfFile: path, encoding: .utf8)
        #expect(texts.contains(final))
        // Every temporary file was renamed into place.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["summary.md"])
    }
}

/// Errors gathered from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ failure: String) { lock.withLock { list.append(failure) } }

    var all: [String] { lock.withLock { list } }
}
