/// Reads an app log attached beside a report: the in-house logger's lines
/// `HH:mm:ss.SSS LEVEL [module-context] Type.function():line - message` (the context label may carry an emoji; a
/// line that does not start with a time continues the message above), or an OSLog export as `log show` writes it
/// (`2026-11-20 13:02:05.120000+0100  0x1a2b  Error  0x0  412  0  ShopApp: [com.shop:net] message`).
///
/// Each line keeps its clock: seconds since local midnight, placed on the recording clock by ``AttachmentAligner``.
enum AppLogParser {
    /// One parsed line and where it was.
    struct Entry {
        var line: LogLine
        var number: Int
        /// Seconds since midnight on the device's local clock.
        var secondsOfDay: Double
    }

    /// The lines of `bytes`, or `nil` when fewer than half of the lines that start a record look like a log.
    static func parse(_ bytes: [UInt8]) -> [Entry]? {
        let text = String(decoding: bytes, as: UTF8.self)
        var entries: [Entry] = []
        var misses = 0
        for (index, line) in text.lineSlices().enumerated() {
            guard !isBlank(line) else { continue }
            if let entry = logger(line, number: index + 1) ?? osLog(line, number: index + 1) {
                entries.append(entry)
            } else if !entries.isEmpty {
                entries[entries.count - 1].line.message += "\n" + line
            } else {
                misses += 1
            }
        }
        return entries.count > misses ? entries : nil
    }

    /// Whether `line` holds only whitespace: decided by its first byte when that is ASCII (the ASCII whitespace is tab,
    /// line feed, vertical tab, form feed, carriage return and space), else by its Characters.
    private static func isBlank(_ line: Substring) -> Bool {
        if let byte = line.utf8.first, byte < 0x80, byte != 0x20, !(0x09...0x0D).contains(byte) { return false }
        return line.allSatisfy(\.isWhitespace)
    }

    /// `13:02:05.120 ERROR [Checkout-💳] CheckoutViewModel.pay():88 - Payment failed`.
    private static func logger(_ line: Substring, number: Int) -> Entry? {
        guard let (seconds, clockEnd) = clock(line, from: line.startIndex) else { return nil }
        var rest = line[clockEnd...].drop { $0 == " " }
        let levelName = rest.prefix { $0.isLetter }
        guard let level = LogLine.Level(name: levelName) else { return nil }
        rest = rest.dropFirst(levelName.count).drop { $0 == " " }
        var context: String?
        if rest.first == "[", let close = rest.firstIndex(of: "]") {
            context = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        var function: String?
        var sourceLine: Int?
        if let dash = separator(in: rest) {
            let head = rest[..<dash]
            if let colon = head.lastIndex(of: ":"), head[..<colon].hasSuffix(")") {
                function = String(head[..<colon])
                sourceLine = Int(head[head.index(after: colon)...])
            } else if !head.contains(" ") {
                function = String(head)
            }
            if function != nil { rest = rest[rest.index(dash, offsetBy: 3)...] }
        }
        return Entry(
            line: LogLine(
                clock: String(line[..<clockEnd]), level: level, context: context, function: function,
                sourceLine: sourceLine, message: String(rest)),
            number: number, secondsOfDay: seconds)
    }

    /// Where the first ` - ` starts.
    private static func separator(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix(" - ") { return index }
            index = text.index(after: index)
        }
        return nil
    }

    /// `2026-11-20 13:02:05.120000+0100  0x1a2b  Error  0x0  412  0  ShopApp: [sub:cat] message`.
    private static func osLog(_ line: Substring, number: Int) -> Entry? {
        // Eight fields need 15 bytes; the date comes first. Both are checked before the line is split: a line of another
        // kind of file can run to megabytes, and a file to millions of lines.
        guard line.utf8.count >= 15,
            line.drop(while: { $0 == " " }).prefix(11).prefix(while: { $0 != " " }).count == 10
        else { return nil }
        let fields = line.split(separator: " ", maxSplits: 7, omittingEmptySubsequences: true)
        guard fields.count == 8, fields[0].count == 10, fields[0].filter({ $0 == "-" }).count == 2,
            let (seconds, _) = clock(fields[1], from: fields[1].startIndex),
            let level = LogLine.Level(name: fields[3])
        else { return nil }
        var message = fields[7]
        var context: String?
        if let colon = message.firstIndex(of: ":") {
            let process = message[..<colon]
            message = message[message.index(after: colon)...].drop { $0 == " " }
            if message.first == "[", let close = message.firstIndex(of: "]") {
                context = String(message[message.index(after: message.startIndex)..<close])
                message = message[message.index(after: close)...].drop { $0 == " " }
            } else {
                context = String(process)
            }
        }
        return Entry(
            line: LogLine(clock: "\(fields[0]) \(fields[1])", level: level, context: context, message: String(message)),
            number: number, secondsOfDay: seconds)
    }

    /// `HH:mm:ss.SSS…` at `start`: seconds since midnight and the end of the clock; at least `minimumFraction`
    /// digits after the point (a log line has three; an ISO-8601 time may have none, and then no point).
    static func clock(
        _ text: Substring, from start: Substring.Index, minimumFraction: Int = 3
    ) -> (Double, Substring.Index)? {
        // `HH:` before the bytes are copied: most lines of a file that is not a log end there.
        let utf8 = text.utf8[start...]
        guard utf8.count >= 8, utf8[utf8.index(utf8.startIndex, offsetBy: 2)] == 0x3A else { return nil }
        let bytes = Array(utf8.prefix(15))
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[at..<(at + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 8, bytes[2] == 0x3A, bytes[5] == 0x3A,
            let hours = digits(0, 2), let minutes = digits(3, 2), let seconds = digits(6, 2), hours < 24,
            minutes < 60, seconds < 61
        else { return nil }
        let hasPoint = bytes.count > 8 && bytes[8] == 0x2E
        var fractionDigits = 0
        var fraction = 0.0
        var scale = 0.1
        while hasPoint, 9 + fractionDigits < bytes.count, (0x30...0x39).contains(bytes[9 + fractionDigits]) {
            fraction += Double(bytes[9 + fractionDigits] - 0x30) * scale
            scale /= 10
            fractionDigits += 1
        }
        guard fractionDigits >= minimumFraction, !hasPoint || fractionDigits > 0 else { return nil }
        let end = text.utf8.index(start, offsetBy: hasPoint ? 9 + fractionDigits : 8)
        return (Double(hours * 3600 + minutes * 60 + seconds) + fraction, end)
    }
}
