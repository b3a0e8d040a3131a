/// A JSON value's shape in one line, to see what a payload holds without its data:
/// `{id: number, items: [{sku: string, qty: number}], total: number}`.
enum JSONShape {
    /// The shape of `value`, nested at most `depth` levels, at most `width` keys per object.
    static func describe(_ value: JSONValue, depth: Int = 3, width: Int = 8) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array(let items):
            guard let first = items.first else { return "[]" }
            return depth == 0 ? "[…]" : "[\(describe(first, depth: depth - 1, width: width))]"
        case .object(let object):
            guard !object.members.isEmpty else { return "{}" }
            guard depth > 0 else { return "{…}" }
            let members = object.members.prefix(width).map {
                "\($0.key): \(describe($0.value, depth: depth - 1, width: width))"
            }
            return "{" + members.joined(separator: ", ") + (object.members.count > width ? ", …" : "") + "}"
        }
    }
}
