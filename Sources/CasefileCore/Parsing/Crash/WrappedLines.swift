/// Lines of a text crash report that a mail client, a ticket or a page wrapped: a frame line broken after its address
/// or inside its symbol, the raw exception backtrace's list of addresses, and the uncaught-exception line of
/// `Application Specific Information` broken over several. (An image line broken before its path is mended where
/// images are read.)
///
/// Wrapping breaks at spaces, so a continuation is joined back with one space — except inside an Objective-C method
/// name whose class and selector are already apart (`-[NSApplication(NSEvent) _nextEvent…:untilDate:`), where a
/// selector holds no space. Any other symbol broken inside a word (as a page's typesetting may) keeps a space there;
/// its frame, image and address are still right.
enum WrappedLines {
    /// Whether the line `frame` was read from looks cut short: it ends at the address, or inside the symbol's
    /// brackets or parentheses (`-[NSApplication(NSEvent)`, `std::__terminate(void`), with no offset or file after.
    static func isCut(_ frame: Frame) -> Bool {
        guard let symbol = frame.symbol else {
            return frame.imageLoadAddress == nil && frame.imageOffset == nil
        }
        guard frame.symbolOffset == nil, frame.file == nil else { return false }
        var brackets = 0
        var parentheses = 0
        for byte in symbol.utf8 {
            switch byte {
            case UInt8(ascii: "["): brackets += 1
            case UInt8(ascii: "]"): brackets -= 1
            case UInt8(ascii: "("): parentheses += 1
            case UInt8(ascii: ")"): parentheses -= 1
            default: break
            }
        }
        return brackets > 0 || parentheses > 0
    }

    /// The frame of the frame line `text` continued by the line `continuation` (both trimmed), and the joined text;
    /// `nil` when the two together are not a frame line.
    static func frame(
        _ text: String, continuedBy continuation: String, pool: inout StringPool
    ) -> (text: String, frame: Frame)? {
        let joined = text + (isInsideSelector(text) ? "" : " ") + continuation
        guard let parsed = AppleFrameLine.frame(trimmed: joined, pool: &pool) else { return nil }
        return (joined, parsed.frame)
    }

    /// Whether `text` ends inside an Objective-C method name, after the space between its class and its selector.
    private static func isInsideSelector(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard
            let open = bytes.indices.last(where: {
                $0 > 0 && bytes[$0] == 0x5B && (bytes[$0 - 1] == 0x2D || bytes[$0 - 1] == 0x2B)
            })
        else { return false }
        let name = bytes[(open + 1)...]
        return !name.contains(0x5D) && name.contains(0x20)
    }

    /// The addresses of a line that continues the raw exception backtrace `(0x… 0x… …)`, and whether its `)` closes
    /// the list; `nil` when the line holds anything but addresses.
    static func addresses(_ line: String) -> (values: [UInt64], closed: Bool)? {
        let closed = line.hasSuffix(")")
        let words = (closed ? line.dropLast() : Substring(line)).split(separator: " ")
        var values: [UInt64] = []
        for word in words {
            guard word.hasPrefix("0x"), let value = CrashNumber.parse(word) else { return nil }
            values.append(value)
        }
        return values.isEmpty && !closed ? nil : (values, closed)
    }

    /// The name and reason of `*** Terminating app due to uncaught exception 'Name', reason: 'Reason'` broken over
    /// lines of `text` (its lines joined by line feeds), each break read as a space; `nil` when there is none.
    ///
    /// The reason ends at a quote that ends a line, as on one unbroken line.
    static func uncaughtException(_ text: String) -> (name: String, reason: String?)? {
        let bytes = Array(text.utf8)
        // The same bytes with each line feed a space (the same length, so offsets carry over): the patterns are found
        // in these, and the reason's end, a quote before a line feed, in the original.
        let spaced = bytes.map { $0 == 0x0A ? 0x20 : $0 }
        guard let nameStart = end(of: "uncaught exception '", in: spaced, from: 0),
            let nameEnd = spaced[nameStart...].firstIndex(of: UInt8(ascii: "'"))
        else { return nil }
        let name = String(decoding: spaced[nameStart..<nameEnd], as: UTF8.self)
        guard let reasonStart = end(of: "reason: '", in: spaced, from: nameEnd) else { return (name, nil) }
        var reasonEnd = reasonStart
        while reasonEnd < bytes.count,
            !(bytes[reasonEnd] == UInt8(ascii: "'") && (reasonEnd + 1 == bytes.count || bytes[reasonEnd + 1] == 0x0A))
        {
            reasonEnd += 1
        }
        return (name, String(decoding: spaced[reasonStart..<reasonEnd], as: UTF8.self))
    }

    /// Where the first match of `pattern` at or after `start` ends.
    private static func end(of pattern: StaticString, in bytes: [UInt8], from start: Int) -> Int? {
        let pattern = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        return ByteScan.find(pattern, in: bytes, from: start).map { $0 + pattern.count }
    }
}
