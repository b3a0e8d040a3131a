import Foundation
import Testing

@testable import CasefileCore

/// View snapshots are read straight from each line's bytes (`ClueViewLineDecoder`); what that gives must be what the
/// tree parser and `ViewNode(_:)` give, and a line the tree would read another way must be left to the tree.
@Suite struct ClueViewDecoderTests {
    /// The snapshot the tree gives, or `nil` when the tree refuses the line.
    private static func tree(_ line: String) -> ClueViewLineDecoder.Snapshot? {
        (try? JSONParser.parse(Array(line.utf8))).map(ClueViewReader.snapshot)
    }

    private static func decoded(_ line: String) -> ClueViewLineDecoder.Snapshot? {
        ClueViewLineDecoder.decode(Array(line.utf8)[...])
    }

    /// Every snapshot of both sample recordings: decoded, and as the tree reads it. The second recording's second line
    /// is cut off mid-object: the tree refuses it, and so does the decoder.
    @Test(arguments: [
        ("5B0F1C2E-9D4A-4C61-8E07-3A1F6B2C9D10.clue", [Bool](repeating: true, count: 6)),
        ("E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue", [true, false, true]),
    ])
    func decodesTheSamplesAsTheTreeReadsThem(_ recording: String, _ readable: [Bool]) throws {
        let text = try String(contentsOfFile: Samples.sample("\(recording)/Modules/module_view.json"), encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == readable.count)
        for (line, readable) in zip(lines, readable) {
            let decoded = Self.decoded(line)
            #expect((decoded != nil) == readable)
            #expect(decoded?.view != nil || !readable)
            #expect(decoded == Self.tree(line))
        }
    }

    /// One line written by hand, its values read off it: numbers of every spelling, 0/1 booleans, an empty text, a
    /// text field's typed text, `class` after `subviews`, a child without a class, and members of every other kind.
    @Test func readsALineAsWritten() throws {
        let line = """
            {"skipped": [1, -2.5e3, {"a": [null, true]}, "x\\"y"], "timestamp": 12.25, "view": {"subviews": [\
            {"class": "UILabel", "properties": {"text": "Total", "frame": {"x": 16, "y": 84.5, "width": 2e2, \
            "height": -1}, "hidden": 1, "font": {"pointSize": 22.0}}, "subviews": []}, \
            {"class": "UITextField", "properties": {"text": "4242 4242", "placeholder": "", \
            "userInteractionEnabled": false}}, {"properties": {"text": "no class"}}, \
            {"class": "UIButton", "properties": "not an object", "subviews": 7}], \
            "class": "ShopApp.CartView", "properties": {"frame": [1, 2], "text": ""}}}
            """
        let snapshot = try #require(Self.decoded(line))
        #expect(snapshot == Self.tree(line))
        #expect(snapshot.timestamp == 12.25)
        let root = try #require(snapshot.view)
        #expect(root.className == "ShopApp.CartView")
        #expect(root.text == nil)
        #expect([root.x, root.y, root.width, root.height] == [0, 0, 0, 0])
        #expect(root.children.map(\.className) == ["UILabel", "UITextField", "UIButton"])
        let label = root.children[0]
        #expect([label.x, label.y, label.width, label.height] == [16, 84.5, 200, -1])
        #expect(label.hidden)
        #expect(label.interactive)
        #expect(label.text == "Total")
        let field = root.children[1]
        #expect(field.text != nil)
        #expect(field.text != "4242 4242")
        #expect(field.placeholder == nil)
        #expect(!field.interactive)
        let button = root.children[2]
        #expect(!button.hidden)
        #expect(button.children.isEmpty)
    }

    /// Lines with no timestamp, a timestamp of another kind, no view or a view without a class: the reader skips them
    /// with a warning, and the decoder says so as the tree does.
    @Test(arguments: [
        #"{"view": {"class": "A"}}"#, #"{"timestamp": "1", "view": {"class": "A"}}"#, #"{"timestamp": 1}"#,
        #"{"timestamp": 1, "view": {"klass": "A"}}"#, #"{"timestamp": 1, "view": [{"class": "A"}]}"#,
        #"{"timestamp": -0.5, "view": {"class": 7}}"#,
    ])
    func readsIncompleteSnapshotsAsTheTreeDoes(_ line: String) throws {
        let snapshot = try #require(Self.decoded(line))
        #expect(snapshot == Self.tree(line))
        #expect(snapshot.timestamp == nil || snapshot.view == nil)
    }

    /// Each of these the tree reads its own way, so the decoder leaves it to the tree; the values expected are the
    /// tree's, read off the line.
    @Test func leavesToTheTreeWhatTheTreeReadsAnotherWay() throws {
        // A key twice: the tree takes the first.
        let repeated = #"{"timestamp": 1, "view": {"class": "First", "class": "Second"}}"#
        #expect(Self.decoded(repeated) == nil)
        #expect(Self.tree(repeated)?.view?.className == "First")

        // A key in another case, which the tree's look-up takes when the exact key is missing.
        let otherCase = #"{"Timestamp": 3, "view": {"CLASS": "Upper"}}"#
        #expect(Self.decoded(otherCase) == nil)
        #expect(Self.tree(otherCase)?.timestamp == 3)
        #expect(Self.tree(otherCase)?.view?.className == "Upper")

        // An escaped key: the tree reads the key it spells.
        let escaped = #"{"timestamp": 1, "view": {"cl\u0061ss": "Escaped"}}"#
        #expect(Self.decoded(escaped) == nil)
        #expect(Self.tree(escaped)?.view?.className == "Escaped")

        // Not an object, and not JSON: the tree's, which gives no snapshot or refuses the line.
        #expect(Self.decoded("[1, 2]") == nil)
        #expect(Self.decoded(#"{"timestamp": 1, "view": {"class": "A"},}"#) == nil)
        #expect(Self.tree(#"{"timestamp": 1, "view": {"class": "A"},}"#) == nil)
    }

    /// Nesting is counted as the tree counts it, 256 levels at most: the line's object, the root view, then an array
    /// and an object per level of subviews. 127 views deep is the most a line holds (its last `subviews` array is
    /// level 255); 128 is refused by both.
    @Test func nestsAsDeepAsTheTreeAndNoDeeper() throws {
        func nested(_ levels: Int) -> String {
            #"{"timestamp": 1, "view": "# + String(repeating: #"{"class": "V", "subviews": ["#, count: levels)
                + String(repeating: "]}", count: levels) + "}"
        }
        let deepest = try #require(Self.decoded(nested(127)))
        #expect(deepest == Self.tree(nested(127)))
        var depth = 0
        var node = try #require(deepest.view)
        while let child = node.children.first {
            depth += 1
            node = child
        }
        #expect(depth == 126)
        #expect(Self.decoded(nested(128)) == nil)
        #expect(Self.tree(nested(128)) == nil)
    }

    /// Seeded one-byte damages of a sample line: whenever the decoder reads the damaged line, the tree reads it too,
    /// to the same snapshot.
    @Test func agreesWithTheTreeOnDamagedLines() throws {
        let text = try String(
            contentsOfFile: Samples.sample("E2A7C3D4-1B2F-4A5E-9C8D-7F6E5D4C3B2A.clue/Modules/module_view.json"),
            encoding: .utf8)
        let line = Array(try #require(text.split(separator: "\n").first).utf8)
        let replacements = Array(#"{}[]",:0123456789.-eE+tfnul aA\"#.utf8) + [0x00, 0x1F, 0xC3]
        // Seeded, so the damages are the same on every run.
        var random = SeededNumbers(seed: 0x9E37_79B9_7F4A_7C15)
        var decodedCount = 0
        for _ in 0..<400 {
            var damaged = line
            damaged[random.next(below: damaged.count)] = replacements[random.next(below: replacements.count)]
            guard let decoded = ClueViewLineDecoder.decode(damaged[...]) else { continue }
            decodedCount += 1
            let tree = try #require(try? JSONParser.parse(damaged), "decoded a line the tree refuses")
            #expect(decoded == ClueViewReader.snapshot(tree))
        }
        // Most damages land in a string or a number and leave valid JSON: the decoder must have read some.
        #expect(decodedCount > 50)
    }
}
