/// A frame compares, hashes, encodes, decodes and prints by its fields, as if each were a stored property: equal frames
/// are equal however their symbolication is held, `--format json` names the fields as before frames were packed, and
/// `print`, `dump` and a failed test show the fields, not how they are stored.
extension Frame: Hashable, Codable, CustomReflectable {
    private enum CodingKeys: String, CodingKey {
        case image, imageUUID, address, imageLoadAddress, imageOffset, symbol, symbolOffset, file, line, inlined
        case symbolication
    }

    /// Whether two frames have the same fields.
    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.image == rhs.image && lhs.imageUUID == rhs.imageUUID && lhs.address == rhs.address
            && lhs.imageLoadAddress == rhs.imageLoadAddress && lhs.imageOffset == rhs.imageOffset
            && lhs.symbol == rhs.symbol && lhs.symbolOffset == rhs.symbolOffset && lhs.file == rhs.file
            && lhs.line == rhs.line && lhs.inlined == rhs.inlined && lhs.symbolication == rhs.symbolication
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(image)
        hasher.combine(imageUUID)
        hasher.combine(address)
        hasher.combine(imageLoadAddress)
        hasher.combine(imageOffset)
        hasher.combine(symbol)
        hasher.combine(symbolOffset)
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(inlined)
        hasher.combine(symbolication)
    }

    /// Decodes a frame: every field may be absent but `inlined`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            image: try container.decodeIfPresent(String.self, forKey: .image),
            address: try container.decodeIfPresent(UInt64.self, forKey: .address),
            imageLoadAddress: try container.decodeIfPresent(UInt64.self, forKey: .imageLoadAddress),
            imageOffset: try container.decodeIfPresent(UInt64.self, forKey: .imageOffset),
            symbol: try container.decodeIfPresent(String.self, forKey: .symbol),
            symbolOffset: try container.decodeIfPresent(UInt64.self, forKey: .symbolOffset),
            file: try container.decodeIfPresent(String.self, forKey: .file),
            line: try container.decodeIfPresent(Int.self, forKey: .line),
            inlined: try container.decode(Bool.self, forKey: .inlined))
        imageUUID = try container.decodeIfPresent(String.self, forKey: .imageUUID)
        symbolication = try container.decodeIfPresent(FrameSymbolication.self, forKey: .symbolication)
    }

    /// Encodes the fields that are present, and `inlined`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(image, forKey: .image)
        try container.encodeIfPresent(imageUUID, forKey: .imageUUID)
        try container.encodeIfPresent(address, forKey: .address)
        try container.encodeIfPresent(imageLoadAddress, forKey: .imageLoadAddress)
        try container.encodeIfPresent(imageOffset, forKey: .imageOffset)
        try container.encodeIfPresent(symbol, forKey: .symbol)
        try container.encodeIfPresent(symbolOffset, forKey: .symbolOffset)
        try container.encodeIfPresent(file, forKey: .file)
        try container.encodeIfPresent(line, forKey: .line)
        try container.encode(inlined, forKey: .inlined)
        try container.encodeIfPresent(symbolication, forKey: .symbolication)
    }

    /// The fields, in the order they are declared.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "image": image as Any, "imageUUID": imageUUID as Any, "address": address as Any,
                "imageLoadAddress": imageLoadAddress as Any, "imageOffset": imageOffset as Any, "symbol": symbol as Any,
                "symbolOffset": symbolOffset as Any, "file": file as Any, "line": line as Any, "inlined": inlined,
                "symbolication": symbolication as Any,
            ], displayStyle: .struct)
    }
}
