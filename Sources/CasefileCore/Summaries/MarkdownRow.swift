/// One line of a Markdown table, written as bytes into memory kept from one row to the next.
///
/// A crash's frame table has a row per frame of the crashed thread, each of a dozen pieces. Made by interpolation,
/// each row cost the inline code of its address and of its location as strings of their own, then the row's text
/// twice over; here each piece is copied once, and the row is made into a string once.
struct MarkdownRow {
    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(256)
    }

    /// The row written since the last ``start()``.
    var line: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Forgets the last row and begins the next with its opening pipe.
    mutating func start() {
        bytes.removeAll(keepingCapacity: true)
        append("| ")
    }

    /// Appends `literal` as it is.
    mutating func append(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `text` as it is: text already made safe for a cell.
    mutating func append(_ text: String) {
        text.withUTF8Bytes { bytes.append(contentsOf: $0) }
    }

    /// Appends the decimal digits of `value`.
    mutating func append(decimal value: Int) {
        append(String(value))
    }

    /// Appends ``Markdown/code(_:)`` of ``CrashNumber/hex(_:width:)`` of `value`: `` `0x1a2b` ``.
    mutating func append(hexCode value: UInt64) {
        append("`0x")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: HexDigits.maximumCount) { digits in
            // The allocation has room for every digit, so it has an address.
            let count = HexDigits.write(value, to: digits.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<count]))
        }
        append("`")
    }

    /// Appends ``Markdown/cell(_:)`` of ``Markdown/code(_:)`` of `text`: in place when the text holds no backtick,
    /// control character or pipe, as a symbol's name and place usually do.
    mutating func append(codeCell text: String) {
        let copied = text.withUTF8Bytes { utf8 -> Bool in
            guard !utf8.contains(where: Self.changesCode) else { return false }
            // Starting and ending with a space, CommonMark strips one from each end: one more goes in either side.
            let pad = utf8.first == UInt8(ascii: " ") && utf8.last == UInt8(ascii: " ")
            bytes.append(UInt8(ascii: "`"))
            if pad { bytes.append(UInt8(ascii: " ")) }
            bytes.append(contentsOf: utf8)
            if pad { bytes.append(UInt8(ascii: " ")) }
            bytes.append(UInt8(ascii: "`"))
            return true
        }
        if !copied { append(Markdown.cell(Markdown.code(text))) }
    }

    /// Whether `byte` makes inline code in a cell other than the text between single backticks.
    private static func changesCode(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "|")
    }
}
