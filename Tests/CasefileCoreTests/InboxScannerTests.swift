import CasefileCore
import Foundation
import Testing

@Suite struct InboxScannerTests {
    @Test func takesPackageFoldersWholeAndSkipsIgnoredNames() throws {
        let inbox = Samples.repository.appendingPathComponent("SampleReports")
        let inputs = try InboxScanner(ignore: ["*.md", "Malformed/truncated*"]).scan(inbox)
        let names = inputs.map { String($0.path.dropFirst(inbox.path.count + 1)) }
        #expect(
            names == [
                "5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue",
                "E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue",
                "Malformed/archive-bomb.zip",
                "Malformed/empty-report.clue.zip",
                "Malformed/path-traversal.zip",
                "Malformed/placeholders-only.clue.zip",
                "checkout-500.clue.zip",
                "checkout-exception.clue.zip",
                "clean-session.zip",
                "offline-1009.clue.zip",
                "two-reports.zip",
            ])
    }

    @Test func saysWhenTheInboxIsMissing() {
        let error = #expect(throws: InputError.self) {
            try InboxScanner().scan(URL(fileURLWithPath: "/nonexistent/inbox"))
        }
        #expect(error?.description == "/nonexistent/inbox: the inbox folder does not exist")
    }

    @Test func hashesTheSameContentTheSameWay() throws {
        let folder = URL(fileURLWithPath: Samples.checkoutFolder)
        let zip = URL(fileURLWithPath: Samples.sample("checkout-500.clue.zip"))
        #expect(try ContentHash.of(folder) == ContentHash.of(folder))
        #expect(try ContentHash.of(folder) != ContentHash.of(zip))
        #expect(try ContentHash.of(zip).count == 64)
    }
}
