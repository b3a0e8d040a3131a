import Foundation

/// Writes an `Encodable` value as compact JSON with sorted keys and unescaped slashes: byte for byte what Foundation's
/// `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes, without its tree of dictionaries and boxed
/// values. A value's scalars are written as they are encoded, into one buffer per object or array; members are sorted
/// by the bytes of their keys when the object is written, the last of equal keys winning, as `JSONEncoder` does.
///
/// Values `JSONEncoder` treats apart (`Data`, `URL`, `Decimal`), a value that encodes nothing at the top, and numbers
/// JSON cannot hold throw ``Unsupported``: the caller asks `JSONEncoder`, which writes or refuses them its own way.
enum SortedJSONEncoder {
    /// A value this encoder leaves to `JSONEncoder`.
    struct Unsupported: Error {}

    /// The JSON text of `value`.
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        try Self.refuseSpecial(value)
        let writer = ValueWriter(place: Place(writer: nil, keys: []), key: nil)
        try value.encode(to: writer)
        guard let result = writer.result else { throw Unsupported() }
        var output: [UInt8] = []
        output.reserveCapacity(256)
        result.write(into: &output)
        return output
    }

    /// Throws for the types `JSONEncoder` encodes by its own rules rather than by their `encode(to:)`.
    /// The static type is compared, not the value cast: a cast asks the runtime, and this runs for every value.
    fileprivate static func refuseSpecial<T: Encodable>(_ value: T) throws {
        if T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw Unsupported() }
    }
}

// MARK: - Values

/// An object or array being encoded: its scalar and finished members are bytes in ``buffer``; nested containers and
/// super-encoders still open are kept by reference and written when the box is.
private final class Box {
    enum Member {
        /// Bytes of ``Box/buffer``.
        case span(Range<Int>)
        /// A nested container, written when this box is.
        case box(Box)
        /// A super-encoder's value, written when this box is.
        case writer(ValueWriter)
    }

    let isObject: Bool
    // Not checked for exclusive access at run time: a box lives within one `encode` call on one thread, and the
    // checks (a thread-local access set consulted on every append) were an eighth of encoding a timeline event.
    @exclusivity(unchecked) var buffer: [UInt8]
    @exclusivity(unchecked) var keys: [String] = []
    @exclusivity(unchecked) var members: [Member]

    /// Room reserved for the members' bytes and for their list: a timeline event's objects hold a few members of a
    /// few dozen bytes, and growing the arrays from empty reallocated each of them several times.
    init(isObject: Bool) {
        self.isObject = isObject
        buffer = []
        buffer.reserveCapacity(128)
        members = []
        members.reserveCapacity(8)
        if isObject { keys.reserveCapacity(8) }
    }

    /// Appends the bytes `body` writes as the member under `key` (`nil` in an array).
    func append(_ key: String?, _ body: (inout [UInt8]) throws -> Void) rethrows {
        let start = buffer.count
        try body(&buffer)
        add(key, .span(start..<buffer.count))
    }

    func add(_ key: String?, _ member: Member) {
        if let key { keys.append(key) }
        members.append(member)
    }

    func write(into output: inout [UInt8]) {
        if !isObject {
            output.append(UInt8(ascii: "["))
            for index in members.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(members[index], into: &output)
            }
            output.append(UInt8(ascii: "]"))
            return
        }
        // Sorted by the keys' bytes; stable, so of equal keys the last is the one kept.
        var order = Array(keys.indices)
        order.sort { left, right in
            let comparison = Self.compare(keys[left], keys[right])
            return comparison < 0 || (comparison == 0 && left < right)
        }
        output.append(UInt8(ascii: "{"))
        var first = true
        for (position, index) in order.enumerated() {
            if position + 1 < order.count, Self.compare(keys[index], keys[order[position + 1]]) == 0 { continue }
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONText.appendString(keys[index], to: &output)
            output.append(UInt8(ascii: ":"))
            write(members[index], into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    private func write(_ member: Member, into output: inout [UInt8]) {
        switch member {
        case .span(let range): output.append(contentsOf: buffer[range])
        case .box(let box): box.write(into: &output)
        case .writer(let writer): (writer.result ?? .box(Box(isObject: true))).write(into: &output)
        }
    }

    /// The keys' UTF-8 bytes compared: negative, zero or positive.
    private static func compare(_ left: String, _ right: String) -> Int {
        var left = left
        var right = right
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let common = min(a.count, b.count)
                if common > 0, let base = a.baseAddress, let other = b.baseAddress {
                    let result = memcmp(base, other, common)
                    if result != 0 { return Int(result) }
                }
                return a.count - b.count
            }
        }
    }
}

/// What one `Encoder` produced: a container, or a single value's bytes.
private enum Result {
    case box(Box)
    case bytes([UInt8])

    func write(into output: inout [UInt8]) {
        switch self {
        case .box(let box): box.write(into: &output)
        case .bytes(let bytes): output.append(contentsOf: bytes)
        }
    }
}

/// Where an encoder or a container is in the value being encoded, as links rather than an array: the coding path is
/// made only when something asks for it, not twice per nested value (`codingPath + [key]` allocated two arrays).
private struct Place {
    /// The encoder of the value this place is in (`nil` at the top).
    let writer: ValueWriter?
    /// The keys of the containers nested below that encoder's own (usually none).
    let keys: [any CodingKey]

    var codingPath: [any CodingKey] {
        (writer?.codingPath ?? []) + keys
    }

    /// The place of a container nested under `key`.
    func appending(_ key: any CodingKey) -> Place {
        Place(writer: writer, keys: keys + [key])
    }
}

/// The `Encoder` a value encodes itself to.
private final class ValueWriter: Encoder {
    /// Where the value is, and its key there (`nil` for the top value, a super-encoder's or a single value's).
    private let place: Place
    private let key: (any CodingKey)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Not checked for exclusive access at run time, as ``Box``'s members are not.
    @exclusivity(unchecked) var result: Result?

    var codingPath: [any CodingKey] {
        key.map { place.codingPath + [$0] } ?? place.codingPath
    }

    init(place: Place, key: (any CodingKey)?) {
        self.place = place
        self.key = key
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedWriter<Key>(box: box(object: true), place: Place(writer: self, keys: [])))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedWriter(box: box(object: false), place: Place(writer: self, keys: []))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleWriter(writer: self)
    }

    /// The container asked for before, when of the same kind, or a new one.
    private func box(object: Bool) -> Box {
        if case .box(let existing)? = result, existing.isObject == object { return existing }
        let box = Box(isObject: object)
        result = .box(box)
        return box
    }

    /// Writes `value`, the member under `key` at `place`, to `output`.
    static func write<T: Encodable>(
        _ value: T, at place: Place, key: (any CodingKey)?, into output: inout [UInt8]
    ) throws {
        try SortedJSONEncoder.refuseSpecial(value)
        let writer = ValueWriter(place: place, key: key)
        try value.encode(to: writer)
        // A value that encodes nothing is an empty object, as JSONEncoder writes it.
        (writer.result ?? .box(Box(isObject: true))).write(into: &output)
    }
}

// MARK: - Containers

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: Box
    let place: Place
    var codingPath: [any CodingKey] { place.codingPath }

    mutating func encodeNil(forKey key: Key) throws { box.append(key.stringValue) { JSONText.appendNull(to: &$0) } }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        box.append(key.stringValue) { JSONText.appendBool(value, to: &$0) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        box.append(key.stringValue) { JSONText.appendString(value, to: &$0) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try box.append(key.stringValue) { try JSONText.appendNumber(value, to: &$0) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try box.append(key.stringValue) { try JSONText.appendNumber(value, to: &$0) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encodeInteger(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let place = place
        try box.append(key.stringValue) { try ValueWriter.write(value, at: place, key: key, into: &$0) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = Box(isObject: true)
        box.add(key.stringValue, .box(nested))
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(box: nested, place: place.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = Box(isObject: false)
        box.add(key.stringValue, .box(nested))
        return UnkeyedWriter(box: nested, place: place.appending(key))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let writer = ValueWriter(place: place, key: nil)
        box.add(name, .writer(writer))
        return writer
    }

    private func encodeInteger(_ value: some FixedWidthInteger, _ key: Key) {
        box.append(key.stringValue) { JSONText.appendInteger(value, to: &$0) }
    }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer, ScalarWriting {
    let box: Box
    let place: Place
    var codingPath: [any CodingKey] { place.codingPath }
    var count: Int { box.members.count }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let (place, key) = (place, IndexKey(index: box.members.count))
        try box.append(nil) { try ValueWriter.write(value, at: place, key: key, into: &$0) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = Box(isObject: true)
        let path = place.appending(IndexKey(index: box.members.count))
        box.add(nil, .box(nested))
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(box: nested, place: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = Box(isObject: false)
        let path = place.appending(IndexKey(index: box.members.count))
        box.add(nil, .box(nested))
        return UnkeyedWriter(box: nested, place: path)
    }

    mutating func superEncoder() -> any Encoder {
        let writer = ValueWriter(place: place, key: IndexKey(index: box.members.count))
        box.add(nil, .writer(writer))
        return writer
    }

    func put(_ body: (inout [UInt8]) throws -> Void) rethrows { try box.append(nil, body) }
}

private struct SingleWriter: SingleValueEncodingContainer, ScalarWriting {
    let writer: ValueWriter
    var codingPath: [any CodingKey] { writer.codingPath }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let place = Place(writer: writer, keys: [])
        try put { try ValueWriter.write(value, at: place, key: nil, into: &$0) }
    }

    func put(_ body: (inout [UInt8]) throws -> Void) rethrows {
        var bytes: [UInt8] = []
        try body(&bytes)
        writer.result = .bytes(bytes)
    }
}

/// The scalars an unkeyed and a single-value container write alike, each as the next value ``put(_:)`` places.
private protocol ScalarWriting {
    /// Places the bytes `body` writes as the container's next value.
    func put(_ body: (inout [UInt8]) throws -> Void) rethrows
}

extension ScalarWriting {
    mutating func encodeNil() throws { put { JSONText.appendNull(to: &$0) } }
    mutating func encode(_ value: Bool) throws { put { JSONText.appendBool(value, to: &$0) } }
    mutating func encode(_ value: String) throws { put { JSONText.appendString(value, to: &$0) } }
    mutating func encode(_ value: Double) throws { try put { try JSONText.appendNumber(value, to: &$0) } }
    mutating func encode(_ value: Float) throws { try put { try JSONText.appendNumber(value, to: &$0) } }
    mutating func encode(_ value: Int) throws { encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { encodeInteger(value) }

    private func encodeInteger(_ value: some FixedWidthInteger) {
        put { JSONText.appendInteger(value, to: &$0) }
    }
}

/// The coding key of an array element: its position.
private struct IndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }

    init(index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
}
