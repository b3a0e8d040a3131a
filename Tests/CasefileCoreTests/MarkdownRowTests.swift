import Testing

@testable import CasefileCore

/// A frame table's row written piece by piece: the same text a cell of inline code and an address in code make.
@Suite struct MarkdownRowTests {
    @Test(arguments: [
        // A symbol with its place: one backtick either side, as it is.
        ("-[UIViewController loadViewIfRequired] + 1036", "`-[UIViewController loadViewIfRequired] + 1036`"),
        ("Zähler::zähle (Größe.cpp:12)", "`Zähler::zähle (Größe.cpp:12)`"),
        ("", "``"),
        // A space at both ends: one more either side; at one end only: nothing added.
        (" x ", "`  x  `"),
        (" ", "`   `"),
        (" x", "` x`"),
        // A pipe would end the cell: escaped, inside the code too.
        ("operator|(a, b)", "`operator\\|(a, b)`"),
        // A backtick: a longer fence; a line break: a space.
        ("a`b", "``a`b``"),
        ("a\nb", "`a b`"),
        ("a\u{1}b", "`a\u{2401}b`"),
    ])
    func codeCell(text: String, markdown: String) {
        var row = MarkdownRow()
        row.start()
        row.append(codeCell: text)
        #expect(row.line == "| " + markdown)
    }

    @Test(arguments: [
        (0 as UInt64, "`0x0`"),
        (0xF, "`0xf`"),
        (0x10, "`0x10`"),
        (0x1_a2c1_f0a8, "`0x1a2c1f0a8`"),
        (UInt64.max, "`0xffffffffffffffff`"),
    ])
    func addressInCode(value: UInt64, markdown: String) {
        var row = MarkdownRow()
        row.start()
        row.append(hexCode: value)
        #expect(row.line == "| " + markdown)
    }

    /// Each row starts afresh: nothing of the one before is left.
    @Test func aRowHoldsOnlyWhatWasWrittenSinceItStarted() {
        var row = MarkdownRow()
        row.start()
        row.append(decimal: 12)
        row.append(" | ")
        row.append("UIKitCore")
        row.append(" |")
        #expect(row.line == "| 12 | UIKitCore |")
        row.start()
        row.append(decimal: -3)
        row.append(" |")
        #expect(row.line == "| -3 |")
    }
}
