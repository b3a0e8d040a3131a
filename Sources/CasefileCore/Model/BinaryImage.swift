/// A binary image loaded in the crashed process.
public struct BinaryImage: Sendable, Codable, Hashable {
    /// The image name, e.g. `ShopApp`.
    public var name: String
    /// The image path.
    public var path: String?
    /// The architecture, e.g. `arm64`, `arm64e`.
    public var arch: String?
    /// The image UUID, normalized to lowercase with dashes.
    public var uuid: String?
    /// The load address.
    public var loadAddress: UInt64
    /// The last address of the image (inclusive), when known.
    public var endAddress: UInt64?
    /// Whether this is the app's main executable.
    public var isApp: Bool

    /// Creates an image.
    public init(
        name: String, path: String? = nil, arch: String? = nil, uuid: String? = nil, loadAddress: UInt64,
        endAddress: UInt64? = nil, isApp: Bool = false
    ) {
        self.init(
            name: name, path: path, arch: arch, normalizedUUID: uuid.flatMap(UUIDText.normalize),
            loadAddress: loadAddress, endAddress: endAddress, isApp: isApp)
    }

    /// An image whose UUID its parser has normalized already (``UUIDText/normalize(_:)``), so it is not checked
    /// again: a report lists hundreds of images.
    init(
        name: String, path: String?, arch: String?, normalizedUUID: String?, loadAddress: UInt64, endAddress: UInt64?,
        isApp: Bool
    ) {
        self.name = name
        self.path = path
        self.arch = arch
        self.uuid = normalizedUUID
        self.loadAddress = loadAddress
        self.endAddress = endAddress
        self.isApp = isApp
    }

    /// Whether an address falls inside the image.
    public func contains(_ address: UInt64) -> Bool {
        guard address >= loadAddress else { return false }
        guard let endAddress else { return false }
        return address <= endAddress
    }
}
