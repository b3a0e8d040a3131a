/// Decodes a response or data record of `module_network.json` straight from its line's bytes: most of a recording's
/// network lines are one or the other, and a tree of each cost more than reading what it says.
///
/// What it returns is what ``ClueNetworkLineDecoder/record(_:)`` gives for the line's tree, or nothing, as
/// ``ClueViewLineDecoder`` does for view snapshots: the scanner reads strictly, and a line the tree would read another
/// way (an escaped or repeated key, or a key the tree's look-up would match ignoring case) returns `nil`. So does a
/// record of another label, or one whose `properties` come before its `label`: ``ClueNetworkReader`` parses those as
/// trees.
enum ClueNetworkLineDecoder {
    /// One line's record: `timestamp` is `nil` when it is not a number.
    struct Record: Equatable {
        var timestamp: Double?
        var kind: Kind
    }

    /// What a record says.
    enum Kind: Equatable {
        /// `DidReceiveResponse`: the response object, `nil` when the first property is not an object.
        case response(Response?)
        /// `DidReceiveData`: the chunk's `HTTPBody`, empty when there is none (or it is not a string).
        case data(body: String)
        /// Any other label (empty when there is none), and the line's tree.
        case other(label: String, tree: JSONValue)
    }

    /// What a response object says: its texts (`nil` when empty or not strings), its numbers (`nil` when not integers)
    /// and its headers in file order (a value that is not a string as empty).
    struct Response: Equatable {
        var url: String?
        var statusCode: Int?
        var statusText: String?
        var mimeType: String?
        var headers: [HeaderField] = []
        var expectedContentLength: Int?

        /// The response of a tree.
        init(_ object: JSONObject) {
            func text(_ key: String) -> String? {
                guard let value = object[key]?.string, !value.isEmpty else { return nil }
                return value
            }
            url = text("URL")
            statusCode = object["statusCode"]?.int
            statusText = text("localizedStringForStatusCode")
            mimeType = text("MIMEType")
            headers = (object["allHeaderFields"]?.object?.members ?? []).map { member in
                HeaderField(name: member.key, value: member.value.string ?? "")
            }
            expectedContentLength = object["expectedContentLength"]?.int
        }

        fileprivate init() {}
    }

    private struct Refused: Error {}

    /// The keys looked up in each kind of object, which the tree would also find in another case.
    private static let lineKeys: [StaticString] = ["timestamp", "label", "properties"]
    private static let responseKeys: [StaticString] = [
        "URL", "statusCode", "localizedStringForStatusCode", "MIMEType", "allHeaderFields", "expectedContentLength",
    ]
    private static let dataKeys: [StaticString] = ["HTTPBody"]

    /// The record of a line's tree.
    static func record(_ value: JSONValue) -> Record {
        let label = value["label"]?.string ?? ""
        let first = value["properties"]?.array?.first
        let kind: Kind =
            switch label {
            case "DidReceiveResponse": .response(first?.object.map(Response.init))
            case "DidReceiveData": .data(body: first?["HTTPBody"]?.string ?? "")
            default: .other(label: label, tree: value)
            }
        return Record(timestamp: value["timestamp"]?.double, kind: kind)
    }

    /// The record of a response or data line; `nil` when the tree must read it.
    static func decode(_ line: ArraySlice<UInt8>) -> Record? {
        JSONScanner.objectLine(line) { scanner in
            var timestamp: Double?
            var kind: Kind?
            var seen = JSONKeySet()
            try scanner.plainMembers { scanner, key in
                if scanner.key(key, is: "timestamp") {
                    try seen.insert(0)
                    timestamp = try scanner.double()
                } else if scanner.key(key, is: "label") {
                    try seen.insert(1)
                    switch try scanner.string() {
                    case "DidReceiveResponse": kind = .response(nil)
                    case "DidReceiveData": kind = .data(body: "")
                    default: throw Refused()
                    }
                } else if scanner.key(key, is: "properties") {
                    try seen.insert(2)
                    guard let label = kind else { throw Refused() }
                    kind = try properties(&scanner, of: label)
                } else {
                    try scanner.skipValue(ofKey: key, besides: lineKeys)
                }
            }
            guard let kind else { throw Refused() }
            return Record(timestamp: timestamp, kind: kind)
        }
    }

    /// The record's `properties`, read for a record of `kind` (its label's): the first one counts, the rest are
    /// checked and skipped.
    private static func properties(_ scanner: inout JSONScanner, of kind: Kind) throws -> Kind {
        guard scanner.current == UInt8(ascii: "[") else {
            try scanner.skipValue()
            return kind
        }
        var read = kind
        var first = true
        try scanner.elements { scanner in
            defer { first = false }
            guard first, scanner.current == UInt8(ascii: "{") else { return try scanner.skipValue() }
            if case .response = kind {
                read = .response(try response(&scanner))
            } else {
                read = .data(body: try body(&scanner))
            }
        }
        return read
    }

    /// The response object at the cursor.
    private static func response(_ scanner: inout JSONScanner) throws -> Response {
        var response = Response()
        var seen = JSONKeySet()
        func text(_ scanner: inout JSONScanner) throws -> String? {
            guard let value = try scanner.string(), !value.isEmpty else { return nil }
            return value
        }
        try scanner.plainMembers { scanner, key in
            if scanner.key(key, is: "URL") {
                try seen.insert(0)
                response.url = try text(&scanner)
            } else if scanner.key(key, is: "statusCode") {
                try seen.insert(1)
                response.statusCode = try scanner.int()
            } else if scanner.key(key, is: "localizedStringForStatusCode") {
                try seen.insert(2)
                response.statusText = try text(&scanner)
            } else if scanner.key(key, is: "MIMEType") {
                try seen.insert(3)
                response.mimeType = try text(&scanner)
            } else if scanner.key(key, is: "allHeaderFields") {
                try seen.insert(4)
                response.headers = try headers(&scanner)
            } else if scanner.key(key, is: "expectedContentLength") {
                try seen.insert(5)
                response.expectedContentLength = try scanner.int()
            } else {
                try scanner.skipValue(ofKey: key, besides: responseKeys)
            }
        }
        return response
    }

    /// The headers of the object at the cursor, in file order; none for anything but an object.
    private static func headers(_ scanner: inout JSONScanner) throws -> [HeaderField] {
        guard scanner.current == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return []
        }
        var headers: [HeaderField] = []
        try scanner.plainMembers { scanner, key in
            headers.append(HeaderField(name: scanner.text(key), value: try scanner.string() ?? ""))
        }
        return headers
    }

    /// The `HTTPBody` of the data object at the cursor; empty when there is none.
    private static func body(_ scanner: inout JSONScanner) throws -> String {
        var body = ""
        var seen = JSONKeySet()
        try scanner.plainMembers { scanner, key in
            if scanner.key(key, is: "HTTPBody") {
                try seen.insert(0)
                body = try scanner.string() ?? ""
            } else {
                try scanner.skipValue(ofKey: key, besides: dataKeys)
            }
        }
        return body
    }
}
