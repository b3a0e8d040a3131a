/// Decodes one line of `module_interaction.json` — a touch phase's timestamp, type and touch locations — straight from
/// its bytes. A recording holds a line for every phase of every touch, and a tree of each line cost more than reading
/// what the line says.
///
/// What it returns is what ``ClueTouchLineDecoder/record(_:)`` gives for the line's tree, or nothing, as
/// ``ClueViewLineDecoder`` does for view snapshots: the scanner reads strictly, and a line the tree would read another
/// way (an escaped or repeated key, or a key the tree's look-up would match ignoring case) returns `nil`, for
/// ``ClueInteractionReader`` to parse as a tree.
enum ClueTouchLineDecoder {
    /// One line's touch record, as the reader takes it from the tree: `timestamp` is `nil` when it is not a number,
    /// `type` empty when it is not a string, and a touch without a numeric location left out.
    struct Record: Equatable {
        var timestamp: Double?
        var type = ""
        var touches: [TouchPoint] = []
    }

    /// The keys looked up in each kind of object, which the tree would also find in another case.
    private static let lineKeys: [StaticString] = ["timestamp", "type", "touches"]
    private static let touchKeys: [StaticString] = ["locationInWindow", "tapCount"]
    private static let locationKeys: [StaticString] = ["x", "y"]

    /// The record of a line's tree.
    static func record(_ value: JSONValue) -> Record {
        // V2 omits "touches" when empty.
        let touches = (value["touches"]?.array ?? []).compactMap { touch -> TouchPoint? in
            guard let location = touch["locationInWindow"], let x = location["x"]?.double,
                let y = location["y"]?.double
            else { return nil }
            return TouchPoint(tapCount: touch["tapCount"]?.int ?? 0, x: x, y: y)
        }
        return Record(timestamp: value["timestamp"]?.double, type: value["type"]?.string ?? "", touches: touches)
    }

    /// The record of a line; `nil` when the tree must read it.
    static func decode(_ line: ArraySlice<UInt8>) -> Record? {
        // Anything but an object is the tree's, which gives it no timestamp.
        JSONScanner.objectLine(line) { scanner in
            var record = Record()
            var seen = JSONKeySet()
            try scanner.plainMembers { scanner, key in
                if scanner.key(key, is: "timestamp") {
                    try seen.insert(0)
                    record.timestamp = try scanner.double()
                } else if scanner.key(key, is: "type") {
                    try seen.insert(1)
                    record.type = try scanner.string() ?? ""
                } else if scanner.key(key, is: "touches") {
                    try seen.insert(2)
                    guard scanner.current == UInt8(ascii: "[") else { return try scanner.skipValue() }
                    try scanner.elements { scanner in
                        if let touch = try touch(&scanner) { record.touches.append(touch) }
                    }
                } else {
                    try scanner.skipValue(ofKey: key, besides: lineKeys)
                }
            }
            return record
        }
    }

    /// The touch at the cursor: `nil` for anything but an object with a numeric `x` and `y` in `locationInWindow`.
    private static func touch(_ scanner: inout JSONScanner) throws -> TouchPoint? {
        guard scanner.current == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return nil
        }
        var location: (x: Double?, y: Double?)?
        var tapCount: Int?
        var seen = JSONKeySet()
        try scanner.plainMembers { scanner, key in
            if scanner.key(key, is: "locationInWindow") {
                try seen.insert(0)
                location = try Self.location(&scanner)
            } else if scanner.key(key, is: "tapCount") {
                try seen.insert(1)
                tapCount = try scanner.int()
            } else {
                try scanner.skipValue(ofKey: key, besides: touchKeys)
            }
        }
        guard let x = location?.x, let y = location?.y else { return nil }
        return TouchPoint(tapCount: tapCount ?? 0, x: x, y: y)
    }

    /// The `x` and `y` of a location object; `nil` for anything but an object.
    private static func location(_ scanner: inout JSONScanner) throws -> (x: Double?, y: Double?)? {
        guard scanner.current == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return nil
        }
        var location: (x: Double?, y: Double?) = (nil, nil)
        var seen = JSONKeySet()
        try scanner.plainMembers { scanner, key in
            if scanner.key(key, is: "x") {
                try seen.insert(0)
                location.x = try scanner.double()
            } else if scanner.key(key, is: "y") {
                try seen.insert(1)
                location.y = try scanner.double()
            } else {
                try scanner.skipValue(ofKey: key, besides: locationKeys)
            }
        }
        return location
    }
}
