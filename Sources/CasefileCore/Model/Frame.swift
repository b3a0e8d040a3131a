/// One stack frame.
///
/// A crash report lists thousands of frames, and an input of many reports holds all of theirs at once, so a frame is
/// kept in 120 bytes rather than the 208 its fields take as plain optionals: its numbers are stored without
/// `Optional`'s padding, with a bit each saying whether they are present, and its ``symbolication`` by reference
/// (``SymbolicationBox``), which every frame of an image without a debug file shares. The fields read and write as
/// plain properties.
public struct Frame: Sendable {
    /// The binary image's name, e.g. `ShopApp`, `UIKitCore`, `???`.
    public var image: String?
    /// The image's UUID, when the frame itself names it (`backtrace_symbols` writes `UUID + offset` for
    /// `<redacted>` symbols); otherwise look it up in ``Crash/images``.
    public var imageUUID: String?
    /// The symbol, as written (mangled or not).
    public var symbol: String?
    /// The source file, when the report is symbolicated with line information.
    public var file: String?
    private var storedAddress: UInt64 = 0
    private var storedImageLoadAddress: UInt64 = 0
    private var storedImageOffset: UInt64 = 0
    private var storedSymbolOffset: UInt64 = 0
    private var storedLine = 0
    private var box: SymbolicationBox?
    private var flags: Flags = []

    /// Creates a frame.
    public init(
        image: String? = nil, address: UInt64? = nil, imageLoadAddress: UInt64? = nil, imageOffset: UInt64? = nil,
        symbol: String? = nil, symbolOffset: UInt64? = nil, file: String? = nil, line: Int? = nil,
        inlined: Bool = false
    ) {
        self.image = image
        self.symbol = symbol
        self.file = file
        self.address = address
        self.imageLoadAddress = imageLoadAddress
        self.imageOffset = imageOffset
        self.symbolOffset = symbolOffset
        self.line = line
        self.inlined = inlined
    }

    /// The absolute address (program counter or return address).
    public var address: UInt64? {
        get { flags.contains(.address) ? storedAddress : nil }
        set { (storedAddress, flags) = Self.store(newValue, flags, .address) }
    }

    /// The load address of the frame's image, when known.
    public var imageLoadAddress: UInt64? {
        get { flags.contains(.imageLoadAddress) ? storedImageLoadAddress : nil }
        set { (storedImageLoadAddress, flags) = Self.store(newValue, flags, .imageLoadAddress) }
    }

    /// The address relative to the image's load address.
    public var imageOffset: UInt64? {
        get { flags.contains(.imageOffset) ? storedImageOffset : nil }
        set { (storedImageOffset, flags) = Self.store(newValue, flags, .imageOffset) }
    }

    /// The offset of the address into the symbol.
    public var symbolOffset: UInt64? {
        get { flags.contains(.symbolOffset) ? storedSymbolOffset : nil }
        set { (storedSymbolOffset, flags) = Self.store(newValue, flags, .symbolOffset) }
    }

    /// The source line.
    public var line: Int? {
        get { flags.contains(.line) ? storedLine : nil }
        set { (storedLine, flags) = Self.store(newValue, flags, .line) }
    }

    /// Whether the report marks the frame as inlined.
    public var inlined: Bool {
        get { flags.contains(.inlined) }
        set { flags = newValue ? flags.union(.inlined) : flags.subtracting(.inlined) }
    }

    /// What symbolication found; `nil` until a symbolicator ran. The reported fields above are never changed.
    ///
    /// Reading it copies the result out of its box; code reading one field of every frame reads it through
    /// ``symbolicationBox`` instead. (A `_read` accessor, yielding it in place, ran 2.8 % more instructions over the
    /// benchmark's 100 inputs: a call to the accessor per read.) Each change gives the frame a box of its own.
    public var symbolication: FrameSymbolication? {
        get { box?.value }
        set { box = newValue.map(SymbolicationBox.init) }
    }

    /// The box holding the frame's ``symbolication``; `nil` when it has none. Through it a field is read where it lies:
    /// ``symbolication`` hands over a copy, a retain and a release of each of its strings and arrays.
    package var symbolicationBox: SymbolicationBox? { box }

    /// Gives the frame the symbolication `box` holds, shared with every other frame given the same box.
    package mutating func share(_ box: SymbolicationBox) {
        self.box = box
    }

    /// A number to store, zero when absent so that equal frames store equal bytes, and the flags saying whether it is.
    private static func store<Number: FixedWidthInteger>(
        _ value: Number?, _ flags: Flags, _ flag: Flags
    ) -> (Number, Flags) {
        guard let value else { return (0, flags.subtracting(flag)) }
        return (value, flags.union(flag))
    }

    /// Which of a frame's numbers are present, and whether it is inlined.
    private struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        static let address = Flags(rawValue: 1 << 0)
        static let imageLoadAddress = Flags(rawValue: 1 << 1)
        static let imageOffset = Flags(rawValue: 1 << 2)
        static let symbolOffset = Flags(rawValue: 1 << 3)
        static let line = Flags(rawValue: 1 << 4)
        static let inlined = Flags(rawValue: 1 << 5)
    }
}

extension Frame {
    /// A frame's ``Frame/symbolication``, held by reference: one box serves every frame given it. A frame not yet
    /// symbolicated holds none.
    package final class SymbolicationBox: Sendable {
        /// The symbolication the box holds.
        package let value: FrameSymbolication

        /// A box holding `value`.
        package init(_ value: FrameSymbolication) {
            self.value = value
        }
    }
}
