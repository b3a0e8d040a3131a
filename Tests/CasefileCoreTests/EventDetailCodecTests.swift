import CasefileArchive
import CasefileCore
import Foundation
import Testing

/// A report's whole timeline events are stored as one blob: each event's JSON on a line of its own, compressed. Each
/// event must come back as it was, in order, however its text is escaped.
@Suite struct EventDetailCodecTests {
    @Test func givesBackEverySampleRecordingsEventsInOrder() throws {
        let folder = Samples.repository.appendingPathComponent("SampleReports")
        var recordings = 0
        for name in ["checkout-500.clue.zip", "checkout-bugreport.zip", "offline-1009.clue.zip", "two-reports.zip"] {
            for report in try Triage().reports(at: folder.appendingPathComponent(name).path).reports
            where !report.timeline.events.isEmpty {
                recordings += 1
                // The same JSON: an object's members come back in the order of their keys, as JSON is written.
                let events = try report.timeline.events.map(IndexJSON.text)
                let decoded = try EventDetailCodec.decode(try EventDetailCodec.encode(report.timeline.events))
                #expect(try decoded.map { try $0.map(IndexJSON.text) } == events, "\(name)")
            }
        }
        #expect(recordings >= 4)
    }

    @Test func keepsOneLinePerEventWhenItsTextHoldsLineBreaks() throws {
        let events = [
            TimelineEvent(
                timestamp: 1.5, file: "Modules/module_logs.txt", line: 3,
                kind: .log(LogLine(clock: "10:15:19.5", level: .error, context: "Pay", message: "first\nsecond\r\n"))),
            TimelineEvent(
                timestamp: 2, timeIsRecorded: false, file: "exception.txt", line: nil,
                kind: .exception(AppException(name: "NSRangeException", reason: "index 3\n\tbeyond bounds"))),
        ]
        let blob = try EventDetailCodec.encode(events)
        // Two events, two lines: the breaks inside their texts are escaped.
        let text = try BlobCompression.decompress(blob)
        #expect(text.filter { $0 == UInt8(ascii: "\n") }.count == 2)
        #expect(try EventDetailCodec.decode(blob) == events.map { $0 })
    }

    @Test func readsALineThatIsNoEventAsNone() throws {
        // An event as Casefile writes it, then the older form some indexes still hold (before Casefile 0.9).
        let text = """
            {"file":"Modules/module_interaction.json","line":7,"time":2.5,"timeRecorded":true,"touch":\
            {"phase":"ended","rawPhase":"Ended","touches":[{"tapCount":1,"x":120,"y":200.5}]},"type":"touch"}
            {"touch":{"_0":{"phase":"ended"}}}

            """
        let decoded = try EventDetailCodec.decode(try BlobCompression.compress(Array(text.utf8)))
        #expect(decoded.count == 2)
        #expect(decoded[0]?.timestamp == 2.5)
        #expect(decoded[0]?.kindName == "touch")
        #expect(decoded[1] == nil)
    }
}
