// The JSON of a group's fingerprint (`groups.explanation_json`), both ways: written field by field and read back
// without `JSONDecoder`. A field added to `Fingerprint` or `FingerprintFrame` goes into both.

extension IndexJSON {
    /// A fingerprint as JSON text (`groups.explanation_json`): the bytes its `Encodable` form gives, written field by
    /// field. The index writer writes it for every new group and each time an earlier input retitles one; through
    /// `Encodable` that was 4 % of the writer's time at 1,000 inputs.
    public static func text(_ fingerprint: Fingerprint) -> String {
        var json = JSONObjectWriter()
        json.output.reserveCapacity(256 + fingerprint.frames.count * 96)
        // In sorted order, the frames' fields as well.
        json.open()
        json.field("components", fingerprint.components)
        json.key("frames")
        json.openArray()
        for frame in fingerprint.frames {
            json.open()
            json.field("function", frame.function)
            json.field("image", frame.image)
            json.field("inApp", frame.inApp)
            json.field("inKey", frame.inKey)
            json.field("skipped", frame.skipped)
            json.close()
        }
        json.closeArray()
        json.field("key", fingerprint.key)
        json.field("keys", fingerprint.keys)
        json.field("kind", fingerprint.kind.rawValue)
        json.field("resolution", fingerprint.resolution.rawValue)
        json.field("rulesVersion", fingerprint.rulesVersion)
        json.field("source", fingerprint.source)
        json.field("title", fingerprint.title)
        json.close()
        return String(decoding: json.output, as: UTF8.self)
    }
}

extension Fingerprint {
    /// A fingerprint read back from the JSON the index stores for a group (`groups.explanation_json`, the `Encodable`
    /// form), without `JSONDecoder`: every group a run's digest lists and every page it writes reads one, on the
    /// index's one connection after the run's last input (the digest of a 1,000-input run took 16–17 ms through
    /// `JSONDecoder`, 8–9 ms this way). `nil` for any text not in exactly that form — an unknown key, a value of another
    /// type, an escaped key — which the caller decodes with `JSONDecoder`.
    package static func fromIndexJSON(_ json: String) -> Fingerprint? {
        JSONScanner.exactDocument(json, fingerprint)
    }

    private static func fingerprint(_ scanner: inout JSONScanner) throws -> Fingerprint {
        var kind: Kind?
        var resolution: Resolution?
        var key: String?
        var keys: [String: String]?
        var title: String?
        var source: String?
        var frames: [FingerprintFrame]?
        var components: [String]?
        var rulesVersion: String?
        try scanner.members { scanner, name in
            if scanner.key(name, is: "kind") {
                kind = try scanner.requiredCase(Kind.self)
            } else if scanner.key(name, is: "resolution") {
                resolution = try scanner.requiredCase(Resolution.self)
            } else if scanner.key(name, is: "key") {
                key = try scanner.requiredString()
            } else if scanner.key(name, is: "keys") {
                var found: [String: String] = [:]
                try scanner.members { scanner, entry in
                    let resolutionName = try scanner.plainKey(entry)
                    // Written once each; a repeated key is left to `JSONDecoder`'s own rule.
                    guard found.updateValue(try scanner.requiredString(), forKey: resolutionName) == nil else {
                        throw JSONScanner.Failure(offset: entry.lowerBound)
                    }
                }
                keys = found
            } else if scanner.key(name, is: "title") {
                title = try scanner.requiredString()
            } else if scanner.key(name, is: "source") {
                source = try scanner.exactString()
            } else if scanner.key(name, is: "frames") {
                var list: [FingerprintFrame] = []
                try scanner.elements { scanner in list.append(try frame(&scanner)) }
                frames = list
            } else if scanner.key(name, is: "components") {
                components = try scanner.requiredStrings()
            } else if scanner.key(name, is: "rulesVersion") {
                rulesVersion = try scanner.requiredString()
            } else {
                throw JSONScanner.Failure(offset: name.lowerBound)
            }
        }
        guard let kind, let resolution, let key, let keys, let title, let frames, let components, let rulesVersion
        else {
            throw JSONScanner.Failure(offset: scanner.index)
        }
        return Fingerprint(
            kind: kind, resolution: resolution, key: key, keys: keys, title: title, source: source, frames: frames,
            components: components, rulesVersion: rulesVersion)
    }

    private static func frame(_ scanner: inout JSONScanner) throws -> FingerprintFrame {
        var function: String?
        var image: String?
        var inApp: Bool?
        var inKey: Bool?
        var skipped: String?
        try scanner.members { scanner, name in
            if scanner.key(name, is: "function") {
                function = try scanner.requiredString()
            } else if scanner.key(name, is: "image") {
                image = try scanner.exactString()
            } else if scanner.key(name, is: "inApp") {
                inApp = try scanner.exactBool()
            } else if scanner.key(name, is: "inKey") {
                inKey = try scanner.exactBool()
            } else if scanner.key(name, is: "skipped") {
                skipped = try scanner.exactString()
            } else {
                throw JSONScanner.Failure(offset: name.lowerBound)
            }
        }
        guard let function, let inApp, let inKey else { throw JSONScanner.Failure(offset: scanner.index) }
        return FingerprintFrame(function: function, image: image, inApp: inApp, inKey: inKey, skipped: skipped)
    }
}
