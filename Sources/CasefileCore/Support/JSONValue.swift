/// A JSON value as read, with integers kept exact and object members kept in file order.
///
/// Report formats are loose about types (Clue writes `""` where an object would be nil, booleans as 0/1 after a
/// round trip), so the accessors convert where the formats allow and return `nil` otherwise.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case int(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in file order.
    case object(JSONObject)

    /// The string, if this is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, for integers and doubles alike.
    public var double: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The number as an `Int`, when it is integral.
    public var int: Int? {
        switch self {
        case .int(let value): Int(exactly: value)
        case .double(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number as a `UInt64`, for addresses; never through a `Double` when the file wrote an integer.
    public var uint64: UInt64? {
        switch self {
        case .int(let value): UInt64(exactly: value)
        case .double(let value): UInt64(exactly: value)
        default: nil
        }
    }

    /// The boolean; `0` and `1` count too.
    public var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .int(0): false
        case .int(1): true
        default: nil
        }
    }

    /// The object, if this is one.
    public var object: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The array, if this is one.
    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// Whether this stands for "nothing": `null`, `""` or `{}` (Clue V1's nil placeholders).
    public var isNilPlaceholder: Bool {
        switch self {
        case .null: true
        case .string(let value): value.isEmpty
        case .object(let value): value.members.isEmpty
        default: false
        }
    }

    /// Reads `key` of an object value; `nil` for other values.
    public subscript(key: String) -> JSONValue? {
        object?[key]
    }
}

/// A JSON object: its members in file order, duplicates included.
public struct JSONObject: Sendable, Hashable {
    /// One `"key": value` pair.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue

        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in file order.
    public var members: [Member]

    /// Creates an object from members.
    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// The first member named exactly `key`, else the first whose key matches ignoring case.
    public subscript(key: String) -> JSONValue? {
        if let exact = members.first(where: { $0.key == key }) {
            return exact.value
        }
        return members.first { Self.equalIgnoringASCIICase($0.key, key) }?.value
    }

    /// Compares keys without allocating lowercased copies: lookups of absent keys are frequent.
    private static func equalIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20) == (y | 0x20) && (0x61...0x7A).contains(x | 0x20)
        }
    }

    /// The first member named exactly `key`, without the case-insensitive fallback: for the hot loops of
    /// machine-written formats, where a missing key is common and the fallback would cost a scan.
    public func exact(_ key: String) -> JSONValue? {
        for member in members where member.key == key {
            return member.value
        }
        return nil
    }

    /// The keys in file order.
    public var keys: [String] {
        members.map(\.key)
    }
}
