/// Writes JSON text value by value, for the index's JSON columns that are written too often to go through
/// `Encodable`: the same bytes ``SortedJSONEncoder`` writes, provided the caller gives each object's fields in the
/// order of their keys' bytes. An absent value is left out, as `encodeIfPresent` leaves it out.
struct JSONObjectWriter {
    /// The text so far.
    var output: [UInt8] = []
    /// Whether the innermost open object or array holds a member yet.
    private var hasMember = false
    /// Whether a number JSON cannot hold (infinite, not a number) was met and left out: the text is then not what
    /// `Encodable` would give, and the caller leaves the value to it.
    private(set) var refused = false

    /// Begins an object, as a value or as an array's element.
    mutating func open() { begin(UInt8(ascii: "{")) }

    /// Ends the innermost object.
    mutating func close() { end(UInt8(ascii: "}")) }

    /// Begins an array, as a value or as an array's element.
    mutating func openArray() { begin(UInt8(ascii: "[")) }

    /// Ends the innermost array.
    mutating func closeArray() { end(UInt8(ascii: "]")) }

    private mutating func begin(_ bracket: UInt8) {
        separate()
        output.append(bracket)
        hasMember = false
    }

    /// After the bracket, the enclosing object or array holds a member: the value just closed.
    private mutating func end(_ bracket: UInt8) {
        output.append(bracket)
        hasMember = true
    }

    /// Writes the key of the next field of the innermost object; its value follows.
    mutating func key(_ name: StaticString) {
        separate()
        output.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { output.append(contentsOf: $0) }
        output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        // The value is part of this member: the next one separates itself from it.
        hasMember = false
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        JSONText.appendString(value, to: &output)
        hasMember = true
    }

    mutating func field(_ name: StaticString, _ value: (some FixedWidthInteger)?) {
        guard let value else { return }
        key(name)
        JSONText.appendInteger(value, to: &output)
        hasMember = true
    }

    mutating func field(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        key(name)
        do {
            try JSONText.appendNumber(value, to: &output)
        } catch {
            refused = true
        }
        hasMember = true
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        JSONText.appendBool(value, to: &output)
        hasMember = true
    }

    /// An array of strings under `name`, written even when empty, as a non-optional array is encoded.
    mutating func field(_ name: StaticString, _ values: [String]) {
        key(name)
        openArray()
        for value in values {
            string(value)
        }
        closeArray()
    }

    /// A dictionary of strings under `name`: its keys in the order of their bytes, as `JSONEncoder` sorts them.
    mutating func field(_ name: StaticString, _ values: [String: String]) {
        key(name)
        object(values)
    }

    /// A dictionary of strings as an object, its keys in the order of their bytes.
    mutating func object(_ values: [String: String]) {
        open()
        for (key, value) in values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            string(key)
            output.append(UInt8(ascii: ":"))
            JSONText.appendString(value, to: &output)
        }
        close()
    }

    /// A string as the next element of the innermost array, or as the next key of the innermost object (its value
    /// follows).
    private mutating func string(_ value: String) {
        separate()
        JSONText.appendString(value, to: &output)
        hasMember = true
    }

    /// A comma before a member or element that follows another.
    private mutating func separate() {
        if hasMember { output.append(UInt8(ascii: ",")) }
    }
}
