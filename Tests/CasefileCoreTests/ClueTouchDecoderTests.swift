import Foundation
import Testing

@testable import CasefileCore

/// Touch records are read straight from each line's bytes (`ClueTouchLineDecoder`); what that gives must be what the
/// tree parser gives, and a line the tree would read another way must be left to the tree.
@Suite struct ClueTouchDecoderTests {
    /// The record the tree gives, or `nil` when the tree refuses the line.
    private static func tree(_ line: String) -> ClueTouchLineDecoder.Record? {
        (try? JSONParser.parse(Array(line.utf8))).map(ClueTouchLineDecoder.record)
    }

    private static func decoded(_ line: String) -> ClueTouchLineDecoder.Record? {
        ClueTouchLineDecoder.decode(Array(line.utf8)[...])
    }

    private static func lines(_ recording: String) throws -> [String] {
        let path = Samples.sample("\(recording)/Modules/module_interaction.json")
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Every touch record of both sample recordings: decoded, and as the tree reads it. The second recording's first
    /// line has no timestamp.
    @Test(arguments: [
        ("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue", [Bool](repeating: true, count: 7)),
        ("E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue", [false, true]),
    ])
    func decodesTheSamplesAsTheTreeReadsThem(_ recording: String, _ timed: [Bool]) throws {
        let lines = try Self.lines(recording)
        #expect(lines.count == timed.count)
        for (line, timed) in zip(lines, timed) {
            let decoded = try #require(Self.decoded(line))
            #expect((decoded.timestamp != nil) == timed)
            #expect(!decoded.touches.isEmpty)
            #expect(decoded == Self.tree(line))
        }
    }

    /// One line written by hand, its values read off it: numbers of every spelling, a tap count written as a
    /// fraction, touches without a location or with one of another kind (left out), keys in any order, and members
    /// of every other kind.
    @Test func readsALineAsWritten() throws {
        let line = """
            {"touches": [{"locationInWindow": {"y": 2e2, "x": -16.5, "z": [1]}, "tapCount": 2.0, "force": 0.5}, \
            {"tapCount": 1}, {"locationInWindow": [1, 2]}, {"locationInWindow": {"x": 1, "y": "2"}}, 7, \
            {"locationInWindow": {"x": 3, "y": 4}, "tapCount": "1"}], "skipped": {"a": [null, true, "x\\"y"]}, \
            "type": "Moved", "timestamp": 4.25}
            """
        let record = try #require(Self.decoded(line))
        #expect(record == Self.tree(line))
        #expect(record.timestamp == 4.25)
        #expect(record.type == "Moved")
        #expect(record.touches == [TouchPoint(tapCount: 2, x: -16.5, y: 200), TouchPoint(tapCount: 0, x: 3, y: 4)])
    }

    /// Lines with no timestamp, a timestamp or type of another kind, or touches that are not an array: the reader
    /// skips or keeps them with a warning, and the decoder reads them as the tree does.
    @Test(arguments: [
        #"{"type": "Began", "touches": []}"#, #"{"timestamp": "1", "type": "Began"}"#, #"{"timestamp": 1, "type": 3}"#,
        #"{"timestamp": 1, "type": "Ended", "touches": {"x": 1, "y": 2}}"#, #"{"timestamp": 1, "touches": null}"#,
    ])
    func readsIncompleteRecordsAsTheTreeDoes(_ line: String) throws {
        let record = try #require(Self.decoded(line))
        #expect(record == Self.tree(line))
        #expect(record.timestamp == nil || record.type.isEmpty || record.touches.isEmpty)
    }

    /// Each of these the tree reads its own way, so the decoder leaves it to the tree; the values expected are the
    /// tree's, read off the line.
    @Test func leavesToTheTreeWhatTheTreeReadsAnotherWay() throws {
        // A key twice: the tree takes the first.
        let repeated = #"{"timestamp": 1, "type": "Began", "type": "Ended"}"#
        #expect(Self.decoded(repeated) == nil)
        #expect(Self.tree(repeated)?.type == "Began")

        // A key in another case, which the tree's look-up takes when the exact key is missing.
        // At each level of the record.
        let otherCase = #"{"Timestamp": 3, "touches": [{"locationInWindow": {"x": 5, "y": 6}}]}"#
        #expect(Self.decoded(otherCase) == nil)
        #expect(Self.tree(otherCase)?.timestamp == 3)
        let touchOtherCase = #"{"timestamp": 3, "touches": [{"LocationInWindow": {"x": 5, "y": 6}, "TAPCOUNT": 2}]}"#
        #expect(Self.decoded(touchOtherCase) == nil)
        #expect(Self.tree(touchOtherCase)?.touches == [TouchPoint(tapCount: 2, x: 5, y: 6)])
        let locationOtherCase = #"{"timestamp": 3, "touches": [{"locationInWindow": {"X": 5, "y": 6}}]}"#
        #expect(Self.decoded(locationOtherCase) == nil)
        #expect(Self.tree(locationOtherCase)?.touches == [TouchPoint(tapCount: 0, x: 5, y: 6)])

        // An escaped key: the tree reads the key it spells.
        let escaped = #"{"timestamp": 1, "t\u0079pe": "Ended"}"#
        #expect(Self.decoded(escaped) == nil)
        #expect(Self.tree(escaped)?.type == "Ended")

        // Not an object, and not JSON: the tree's, which gives no timestamp or refuses the line.
        #expect(Self.decoded("[1, 2]") == nil)
        #expect(Self.tree("[1, 2]")?.timestamp == nil)
        #expect(Self.decoded(#"{"timestamp": 1, "type": "Began",}"#) == nil)
        #expect(Self.tree(#"{"timestamp": 1, "type": "Began",}"#) == nil)
    }

    /// Seeded one-byte damages of a sample line: whenever the decoder reads the damaged line, the tree reads it too,
    /// to the same record.
    @Test func agreesWithTheTreeOnDamagedLines() throws {
        let line = Array(try #require(try Self.lines("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue").first).utf8)
        let replacements = Array(#"{}[]",:0123456789.-eE+tfnul aAxyT\"#.utf8) + [0x00, 0x1F, 0xC3]
        // Seeded, so the damages are the same on every run.
        var random = SeededNumbers(seed: 0x2545_F491_4F6C_DD1D)
        var decodedCount = 0
        for _ in 0..<400 {
            var damaged = line
            damaged[random.next(below: damaged.count)] = replacements[random.next(below: replacements.count)]
            guard let decoded = ClueTouchLineDecoder.decode(damaged[...]) else { continue }
            decodedCount += 1
            let tree = try #require(try? JSONParser.parse(damaged), "decoded a line the tree refuses")
            #expect(decoded == ClueTouchLineDecoder.record(tree))
        }
        // Most damages land in a string or a number and leave valid JSON: the decoder must have read some.
        #expect(decodedCount > 50)
    }
}
