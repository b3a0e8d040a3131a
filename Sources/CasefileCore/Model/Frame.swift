/// One stack frame.
public struct Frame: Sendable, Codable, Hashable {
    /// The binary image's name, e.g. `ShopApp`, `UIKitCore`, `???`.
    public var image: String?
    /// The image's UUID, when the frame itself names it (`backtrace_symbols` writes `UUID + offset` for
    /// `<redacted>` symbols); otherwise look it up in ``Crash/images``.
    public var imageUUID: String?
    /// The absolute address (program counter or return address).
    public var address: UInt64?
    /// The load address of the frame's image, when known.
    public var imageLoadAddress: UInt64?
    /// The address relative to the image's load address.
    public var imageOffset: UInt64?
    /// The symbol, as written (mangled or not).
    public var symbol: String?
    /// The offset of the address into the symbol.
    public var symbolOffset: UInt64?
    /// The source file, when the report is symbolicated with line information.
    public var file: String?
    /// The source line.
    public var line: Int?
    /// Whether the report marks the frame as inlined.
    public var inlined: Bool
    /// What symbolication found; `nil` until a symbolicator ran. The reported fields above are never changed.
    public var symbolication: FrameSymbolication?

    /// Creates a frame.
    public init(
        image: String? = nil, address: UInt64? = nil, imageLoadAddress: UInt64? = nil, imageOffset: UInt64? = nil,
        symbol: String? = nil, symbolOffset: UInt64? = nil, file: String? = nil, line: Int? = nil,
        inlined: Bool = false
    ) {
        self.image = image
        self.address = address
        self.imageLoadAddress = imageLoadAddress
        self.imageOffset = imageOffset
        self.symbol = symbol
        self.symbolOffset = symbolOffset
        self.file = file
        self.line = line
        self.inlined = inlined
    }
}
