/// One recorded payload of a data-snapshot folder: a file named `<Operation>-<identifier>`.
public struct SnapshotPayload: Sendable, Codable, Hashable {
    /// The operation, the file name up to its first `-`: `PayOrder`.
    public var operation: String
    /// The rest of the name without the extension: `8812`.
    public var identifier: String
    /// The file, as found in the input.
    public var file: String
    /// Its size in bytes.
    public var size: Int
    /// Its JSON shape, e.g. `{id: number, items: [{sku: string}]}`, or `not JSON`.
    public var shape: String

    /// Creates a payload description.
    public init(operation: String, identifier: String, file: String, size: Int, shape: String) {
        self.operation = operation
        self.identifier = identifier
        self.file = file
        self.size = size
        self.shape = shape
    }
}
