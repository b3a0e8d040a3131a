/// Reads `Info/info_device.json` and `Info/info_exception.json`: one JSON object each.
enum ClueInfoReader {
    /// Parses an info file: one compact line as Clue writes it, or a whole document someone pretty-printed.
    static func document(_ bytes: [UInt8], file: String, warnings: inout [Diagnostic]) -> JSONValue? {
        if let whole = try? JSONParser.parse(bytes) {
            return whole
        }
        var first: JSONValue?
        let diagnostics = JSONLines(file: file, bytes: bytes).scan { record in
            if first == nil { first = record.value }
        }
        warnings += diagnostics
        if first == nil, diagnostics.isEmpty {
            warnings.append(Diagnostic(file: file, message: "file is empty"))
        }
        return first
    }

    /// The device described by `info_device.json`.
    static func device(_ value: JSONValue, file: String, warnings: inout [Diagnostic]) -> Device? {
        guard let object = value.object else {
            warnings.append(Diagnostic(file: file, message: "expected a JSON object; device info ignored"))
            return nil
        }
        func text(_ key: String) -> String? {
            guard let string = object[key]?.string, !string.isEmpty else { return nil }
            return string
        }
        let level = object["batteryLevel"]?.double
        return Device(
            name: text("name"),
            model: text("model"),
            systemName: text("systemName"),
            systemVersion: text("systemVersion"),
            identifierForVendor: text("identifierForVendor"),
            batteryLevel: level.flatMap { $0 >= 0 ? $0 : nil },
            batteryState: object["batteryState"]?.int.flatMap(BatteryState.init(rawState:))
        )
    }

    /// The exception described by `info_exception.json`; `nil` for V2's `{}` when there was none.
    static func exception(_ value: JSONValue, file: String, warnings: inout [Diagnostic]) -> AppException? {
        guard let object = value.object else {
            warnings.append(Diagnostic(file: file, message: "expected a JSON object; exception info ignored"))
            return nil
        }
        guard !object.members.isEmpty else { return nil }
        let reason = object["reson"] ?? object["reason"]
        let symbols = object["callStackSymbols"]?.array?.compactMap(\.string) ?? []
        var addresses: [UInt64] = []
        for (index, value) in (object["callStackReturnAddresses"]?.array ?? []).enumerated() {
            if let address = value.uint64 {
                addresses.append(address)
            } else {
                warnings.append(
                    Diagnostic(file: file, message: "callStackReturnAddresses[\(index)] is not an address; skipped"))
            }
        }
        let userInfo = object["userInfo"].flatMap { $0.isNilPlaceholder ? nil : $0 }
        return AppException(
            name: object["name"]?.string, reason: reason?.string, userInfo: userInfo, callStackSymbols: symbols,
            returnAddresses: addresses)
    }
}
