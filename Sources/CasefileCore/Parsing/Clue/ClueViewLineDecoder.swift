/// Decodes one line of `module_view.json` — a snapshot's timestamp and its view tree — straight from its bytes,
/// keeping only what ``ViewNode`` keeps. Clue writes every property of every view (colors, fonts, margins, layers), and
/// a tree of them cost more than the rest of reading a recording.
///
/// What it returns is what the tree parser and ``ViewNode/init(_:depth:)`` would give, or nothing. The scanner reads
/// strictly (the lines are strict JSON to the tree as well), and a line the tree would read another way returns
/// `nil`: an escaped or repeated key, or a key the tree's look-up would match ignoring case. ``ClueViewReader`` then
/// parses that line as a tree.
enum ClueViewLineDecoder {
    /// One line's snapshot, as the reader takes it from the tree: `timestamp` is `nil` when it is not a number, `view`
    /// when there is no view object with a class.
    struct Snapshot: Equatable {
        var timestamp: Double?
        var view: ViewNode?
    }

    /// The keys looked up in each kind of object, which the tree would also find in another case.
    private static let lineKeys: [StaticString] = ["timestamp", "view"]
    private static let viewKeys: [StaticString] = ["class", "properties", "subviews"]
    private static let propertyKeys: [StaticString] = [
        "frame", "hidden", "userInteractionEnabled", "text", "placeholder",
    ]
    private static let frameKeys: [StaticString] = ["x", "y", "width", "height"]

    /// The snapshot of a line; `nil` when the tree must read it.
    static func decode(_ line: ArraySlice<UInt8>) -> Snapshot? {
        // Anything but an object is the tree's, which gives it no timestamp.
        JSONScanner.objectLine(line) { scanner in
            var snapshot = Snapshot()
            var seen = JSONKeySet()
            try scanner.plainMembers { scanner, key in
                if scanner.key(key, is: "timestamp") {
                    try seen.insert(0)
                    snapshot.timestamp = try scanner.double()
                } else if scanner.key(key, is: "view") {
                    try seen.insert(1)
                    snapshot.view = try node(&scanner, depth: 0)
                } else {
                    try scanner.skipValue(ofKey: key, besides: lineKeys)
                }
            }
            return snapshot
        }
    }

    /// The view at the cursor, as ``ViewNode/init(_:depth:)`` makes it of the tree: `nil` for anything but an object
    /// with a string `class`, or past 200 levels of subviews.
    private static func node(_ scanner: inout JSONScanner, depth: Int) throws -> ViewNode? {
        guard depth < 200, scanner.current == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return nil
        }
        var className: String?
        var properties = Properties()
        var children: [ViewNode] = []
        var seen = JSONKeySet()
        try scanner.plainMembers { scanner, key in
            if scanner.key(key, is: "class") {
                try seen.insert(0)
                className = try scanner.string()
            } else if scanner.key(key, is: "properties") {
                try seen.insert(1)
                properties = try Self.properties(&scanner)
            } else if scanner.key(key, is: "subviews") {
                try seen.insert(2)
                guard scanner.current == UInt8(ascii: "[") else {
                    try scanner.skipValue()
                    return
                }
                try scanner.elements { scanner in
                    if let child = try node(&scanner, depth: depth + 1) { children.append(child) }
                }
            } else {
                try scanner.skipValue(ofKey: key, besides: viewKeys)
            }
        }
        guard let className else { return nil }
        return ViewNode(
            className: className, x: properties.x, y: properties.y, width: properties.width,
            height: properties.height, hidden: properties.hidden, interactive: properties.interactive,
            recordedText: properties.text, placeholder: properties.placeholder, children: children)
    }

    /// What a view's `properties` hold for ``ViewNode``, with its defaults for what is missing or of another kind.
    private struct Properties {
        var x = 0.0
        var y = 0.0
        var width = 0.0
        var height = 0.0
        var hidden = false
        var interactive = true
        var text: String?
        var placeholder: String?
    }

    private static func properties(_ scanner: inout JSONScanner) throws -> Properties {
        var properties = Properties()
        guard scanner.current == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return properties
        }
        var seen = JSONKeySet()
        try scanner.plainMembers { scanner, key in
            if scanner.key(key, is: "frame") {
                try seen.insert(0)
                try frame(&scanner, into: &properties)
            } else if scanner.key(key, is: "hidden") {
                try seen.insert(1)
                properties.hidden = try scanner.bool() ?? false
            } else if scanner.key(key, is: "userInteractionEnabled") {
                try seen.insert(2)
                properties.interactive = try scanner.bool() ?? true
            } else if scanner.key(key, is: "text") {
                try seen.insert(3)
                properties.text = try scanner.string()
            } else if scanner.key(key, is: "placeholder") {
                try seen.insert(4)
                properties.placeholder = try scanner.string()
            } else {
                try scanner.skipValue(ofKey: key, besides: propertyKeys)
            }
        }
        return properties
    }

    private static func frame(_ scanner: inout JSONScanner, into properties: inout Properties) throws {
        guard scanner.current == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return
        }
        var seen = JSONKeySet()
        try scanner.plainMembers { scanner, key in
            if scanner.key(key, is: "x") {
                try seen.insert(0)
                properties.x = try scanner.double() ?? 0
            } else if scanner.key(key, is: "y") {
                try seen.insert(1)
                properties.y = try scanner.double() ?? 0
            } else if scanner.key(key, is: "width") {
                try seen.insert(2)
                properties.width = try scanner.double() ?? 0
            } else if scanner.key(key, is: "height") {
                try seen.insert(3)
                properties.height = try scanner.double() ?? 0
            } else {
                try scanner.skipValue(ofKey: key, besides: frameKeys)
            }
        }
    }
}
