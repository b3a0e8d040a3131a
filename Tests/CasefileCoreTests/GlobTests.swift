import Foundation
import Testing

@testable import CasefileCore

/// Wildcards in ignore patterns and grouping rules: `*` any run of characters, `?` one character, over the whole
/// text, characters as a reader sees them.
@Suite struct GlobTests {
    @Test(arguments: [
        ("*", "", true), ("", "", true), ("", "a", false), ("a*b", "ab", true), ("a*b", "axxb", true),
        ("a*b", "axxbc", false), ("a?c", "abc", true), ("a?c", "ac", false), ("*.tmp", "notes.tmp", true),
        ("*.tmp", "notes.tmp.md", false), ("dyld*start*", "dyld4 start", true), ("dyld*start*", "dyld_stub", false),
        ("-[__NSArray* objectAtIndex*]*", "-[__NSArrayM objectAtIndex:]", true),
        ("-[__NSArray* objectAtIndex*]*", "-[__NSDictionaryM objectForKey:]", false),
        // A `*` or `?` in the text is only a character: the pattern's `*` still stands for any run.
        ("*a", "*ba", true), ("x*y", "x*zy", true), ("??", "*?", true), ("a", "*", false),
        // One character each, however many bytes or scalars: `é` composed and decomposed, an emoji with its skin tone,
        // a line break of `\r\n`.
        ("caf?", "café", true), ("caf?", "cafe\u{301}", true), ("caf??", "cafe\u{301}", false), ("?", "👍🏽", true),
        ("?", "\r\n", true), ("??", "\r\n", false), ("a*", "a\r\nb", true), ("é*", "e\u{301}x", true),
    ])
    func matchesWholeTextByCharacter(_ pattern: String, _ text: String, _ expected: Bool) {
        #expect(Glob.matches(pattern, text) == expected)
    }

    /// Random patterns and texts over ASCII and characters of several bytes or scalars, against Swift's `Regex` (which
    /// matches by character): `*` as `.*`, `?` as `.`, everything else literal.
    @Test func agreesWithRegexOnRandomText() throws {
        let alphabet = ["a", "b", "_", "*", "?", "[", ".", "é", "e\u{301}", "\r\n", "\r", "\n", "👍🏽", "ß"]
        var generator = SplitMixGenerator(seed: 8)
        var checked = 0
        for _ in 0..<3_000 {
            let pattern = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            let source = pattern.map { piece in
                switch piece {
                case "*": ".*"
                case "?": "."
                default: piece.unicodeScalars.map { "\\x{\(String($0.value, radix: 16))}" }.joined()
                }
            }.joined()
            let regex = try Regex("(?s)" + source)
            let expected = (try regex.wholeMatch(in: text)) != nil
            #expect(
                Glob.matches(pattern.joined(), text) == expected,
                "\(pattern.joined().debugDescription) \(text.debugDescription)")
            checked += 1
        }
        #expect(checked == 3_000)
    }
}
