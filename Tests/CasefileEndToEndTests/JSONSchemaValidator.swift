import Foundation

/// A JSON value read with `JSONDecoder`, keeping booleans and numbers apart.
enum JSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    /// Parses JSON text.
    static func parse(_ text: String) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
    }

    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var array: [JSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// Every key of every object, at any depth.
    var allKeys: [String] {
        switch self {
        case .object(let members): Array(members.keys) + members.values.flatMap(\.allKeys)
        case .array(let items): items.flatMap(\.allKeys)
        default: []
        }
    }
}

/// Checks a JSON value against the subset of JSON Schema 2020-12 that `Schemas/triage-v1.schema.json` uses:
/// `type`, `const`, `enum`, `properties`, `required`, `additionalProperties: false`, `items`, `minItems`, `minimum`,
/// `maximum`, `pattern`, `oneOf`, and `$ref` to `#/$defs/…`. Any other keyword is refused, so the schema cannot
/// silently use one this does not check.
struct JSONSchemaValidator {
    let root: JSON

    /// The validator of `Schemas/<name>` in the repository.
    static func schema(_ name: String) throws -> JSONSchemaValidator {
        let url = Casefile.repository.appendingPathComponent("Schemas").appendingPathComponent(name)
        return JSONSchemaValidator(root: try JSON.parse(try String(contentsOf: url, encoding: .utf8)))
    }

    private static let known: Set<String> = [
        "$schema", "$id", "$defs", "title", "description", "type", "const", "enum", "properties", "required",
        "additionalProperties", "items", "minItems", "minimum", "maximum", "pattern", "maxLength", "oneOf", "$ref",
    ]

    /// Every violation, as `path: message`; empty when the value is valid.
    func errors(of value: JSON) -> [String] {
        var errors: [String] = []
        check(value, against: root, at: "$", errors: &errors)
        return errors
    }

    private func check(_ value: JSON, against schema: JSON, at path: String, errors: inout [String]) {
        guard case .object(let keywords) = schema else {
            errors.append("\(path): schema is not an object")
            return
        }
        for key in keywords.keys where !Self.known.contains(key) {
            errors.append("\(path): schema keyword \(key) is not supported by the validator")
        }
        if let reference = keywords["$ref"]?.string {
            guard reference.hasPrefix("#/$defs/"), let target = root["$defs"]?[String(reference.dropFirst(8))] else {
                errors.append("\(path): unresolvable $ref \(reference)")
                return
            }
            check(value, against: target, at: path, errors: &errors)
        }
        if let type = keywords["type"]?.string, !Self.matches(value, type: type) {
            errors.append("\(path): expected \(type), found \(value)")
            return
        }
        if let constant = keywords["const"], value != constant {
            errors.append("\(path): expected \(constant), found \(value)")
        }
        if let options = keywords["enum"]?.array, !options.contains(value) {
            errors.append("\(path): \(value) is not one of the enum")
        }
        if let number = value.number {
            if let minimum = keywords["minimum"]?.number, number < minimum {
                errors.append("\(path): \(number) < \(minimum)")
            }
            if let maximum = keywords["maximum"]?.number, number > maximum {
                errors.append("\(path): \(number) > \(maximum)")
            }
        }
        if let limit = keywords["maxLength"]?.number, let text = value.string, Double(text.count) > limit {
            errors.append("\(path): \(text.count) characters, more than \(Int(limit))")
        }
        if let pattern = keywords["pattern"]?.string, let text = value.string,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            errors.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if case .object(let members) = value {
            for case .string(let name) in keywords["required"]?.array ?? [] where members[name] == nil {
                errors.append("\(path): missing \(name)")
            }
            for (name, member) in members {
                if let propertySchema = keywords["properties"]?[name] {
                    check(member, against: propertySchema, at: "\(path).\(name)", errors: &errors)
                } else if keywords["additionalProperties"] == .bool(false) {
                    errors.append("\(path): unexpected key \(name)")
                }
            }
        }
        if case .array(let items) = value {
            if let minimum = keywords["minItems"]?.number, Double(items.count) < minimum {
                errors.append("\(path): fewer than \(Int(minimum)) items")
            }
            if let itemSchema = keywords["items"] {
                for (index, item) in items.enumerated() {
                    check(item, against: itemSchema, at: "\(path)[\(index)]", errors: &errors)
                }
            }
        }
        if let options = keywords["oneOf"]?.array {
            let passing = options.filter { option in
                var optionErrors: [String] = []
                check(value, against: option, at: path, errors: &optionErrors)
                return optionErrors.isEmpty
            }
            if passing.count != 1 {
                errors.append("\(path): matches \(passing.count) of the oneOf options, not exactly one")
            }
        }
    }

    private static func matches(_ value: JSON, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("number", .number),
            ("null", .null):
            true
        case ("integer", .number(let number)): number == number.rounded()
        default: false
        }
    }
}
