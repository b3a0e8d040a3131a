import Testing

@testable import CasefileCore

/// Inline code (CommonMark, "Code spans"): the text shows verbatim whatever it holds.
@Suite struct MarkdownCodeTests {
    @Test(arguments: [
        // A symbol or an address: one backtick either side.
        ("abort", "`abort`"),
        ("0x1a2b", "`0x1a2b`"),
        ("", "``"),
        // Starting and ending with a space: CommonMark strips one space from each end, so one more goes in.
        (" x ", "`  x  `"),
        (" ", "`   `"),
        // Only one end with a space: nothing is stripped, nothing added.
        (" x", "` x`"),
        // A backtick inside: a fence one longer than the longest run.
        ("a`b", "``a`b``"),
        ("a``b`c", "```a``b`c```"),
        // A backtick at an end: padded so it is not read as part of the fence.
        ("`x", "`` `x ``"),
        // Line breaks become spaces, other control characters their pictures.
        ("a\nb", "`a b`"),
        ("a\u{1}b\u{7F}", "`a\u{2401}b\u{2421}`"),
    ])
    func codeSpan(text: String, markdown: String) {
        #expect(Markdown.code(text) == markdown)
    }
}

/// Table cells: a pipe would end the cell and a line break the row, so pipes are escaped and line breaks folded.
@Suite struct MarkdownCellTests {
    @Test(arguments: [
        ("libsystem_kernel.dylib", "libsystem_kernel.dylib"),
        ("", ""),
        ("a|b", "a\\|b"),
        ("|", "\\|"),
        ("one\ntwo", "one two"),
        ("one\r\ntwo", "one two"),
        ("one\rtwo", "one two"),
        ("Zahlungsübersicht | laden()\n", "Zahlungsübersicht \\| laden() "),
    ])
    func cell(text: String, markdown: String) {
        #expect(Markdown.cell(text) == markdown)
    }
}

/// A sequence diagram's message: what would end it, start a comment or open markup is written as Mermaid's entity
/// codes, and a line break, which would end the diagram's line, as a space.
@Suite struct MarkdownMermaidTests {
    @Test(arguments: [
        ("tap Pay now", "tap Pay now"),
        ("", ""),
        ("tap \"Pay now\"", "tap #34;Pay now#34;"),
        ("a;b#c%d", "a#59;b#35;c#37;d"),
        ("<b>{x}`y`", "#60;b#62;#123;x#125;#96;y#96;"),
        ("one\ntwo", "one two"),
        ("one\r\ntwo", "one two"),
        ("one\rtwo", "one two"),
        ("one\n\ntwo", "one  two"),
        ("Größe; 5 € #1", "Größe#59; 5 € #35;1"),
    ])
    func message(text: String, mermaid: String) {
        #expect(Markdown.mermaid(text) == mermaid)
    }
}
