import CasefileCore
import Foundation
import Testing

/// A Clue recording written by a test, module by module, and read back through ``Triage``.
enum WrittenRecording {
    /// The one report of a recording (an iPhone on iOS 17.2) whose `Modules/` folder holds `modules`: each file's
    /// name and its records, one JSON line each.
    static func report(modules: [String: [String]]) throws -> Report {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("casefile-written-\(UUID()).clue")
        defer { try? FileManager.default.removeItem(at: folder) }
        for part in ["Info", "Modules"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(part), withIntermediateDirectories: true)
        }
        try Data(#"{"systemName":"iOS","systemVersion":"17.2","model":"iPhone15,2"}"#.utf8)
            .write(to: folder.appendingPathComponent("Info/info_device.json"))
        for (name, lines) in modules {
            try Data((lines.joined(separator: "\n") + "\n").utf8)
                .write(to: folder.appendingPathComponent("Modules").appendingPathComponent(name))
        }
        let reports = try Triage().reports(at: folder.path).reports
        try #require(reports.count == 1)
        return reports[0]
    }
}
