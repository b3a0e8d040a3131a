import Testing

@testable import CasefileCore

/// The lines of a text as the app-log, `Podfile.lock` and Breakpad readers take them: at each line feed, a carriage
/// return that ends a line dropped, everything else kept.
@Suite struct TextLinesTests {
    @Test(arguments: [
        ("", [""]),
        ("one", ["one"]),
        ("a\nb\n", ["a", "b", ""]),
        ("a\r\nb\r\n", ["a", "b", ""]),
        ("a\r\n\r\nb", ["a", "", "b"]),
        // A carriage return inside a line is kept; one that ends the text ends its last line, and is dropped.
        ("a\rb\nc", ["a\rb", "c"]),
        ("a\r", ["a"]),
        ("\n", ["", ""]),
        ("é\r\nü—x\n🛒", ["é", "ü—x", "🛒"]),
    ])
    func linesKeepingEmptyOnes(_ text: String, _ lines: [String]) {
        #expect(text.lineSlices().map(String.init) == lines)
    }

    @Test(arguments: [
        ("", [String]()),
        ("\r\n\r\n", []),
        ("\n\na\n\r\nb\r\n", ["a", "b"]),
    ])
    func linesLeavingEmptyOnesOut(_ text: String, _ lines: [String]) {
        #expect(text.lineSlices(omittingEmpty: true).map(String.init) == lines)
    }

    /// Without carriage returns, the lines are those `split` gives at Character "\n": 500 seeded texts of line feeds,
    /// spaces, letters, characters of two to four UTF-8 bytes and combining accents.
    @Test func withoutCarriageReturnsTheLinesAreSplits() {
        var random = SplitMixGenerator(seed: 8)
        let pieces = ["\n", "\n", " ", "a", "bc", "é", "—", "🛒", "e\u{301}", "\u{301}"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                pieces.randomElement(using: &random)!
            }.joined()
            let splits = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(Array(text.lineSlices()) == splits, "\(text)")
            #expect(Array(text.lineSlices(omittingEmpty: true)) == splits.filter { !$0.isEmpty }, "\(text)")
        }
    }

    @Test(arguments: [("\r\n\r\nfirst\r\nsecond", "first"), ("only", "only"), ("\n\n", nil)])
    func theFirstLineIsTheFirstThatIsNotEmpty(_ text: String, _ first: String?) {
        #expect(text.firstLine.map(String.init) == first)
    }
}
