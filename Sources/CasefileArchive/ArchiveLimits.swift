/// Bounds that stop an archive bomb or a runaway input before it exhausts memory.
///
/// Every limit applies to one input file, counting the entries of nested archives inside it too. The pipeline
/// definition sets them (`[limits]` in `Pipelines/nightly.toml`); ``default`` is what applies when it does not.
public struct ArchiveLimits: Sendable, Hashable, Codable {
    /// The most entries one input may hold, nested archives' entries included.
    public var maxEntries: Int
    /// The most bytes one entry may expand to (media entries, which are streamed, are exempt).
    public var maxEntryBytes: Int
    /// The most bytes all the entries of one input may expand to together.
    public var maxTotalBytes: Int
    /// The largest ratio of expanded to compressed bytes, checked once an archive has expanded past 1 MiB.
    public var maxCompressionRatio: Int
    /// How deep archives may nest inside one another; the input itself is depth 1.
    public var maxNestingDepth: Int

    /// Creates limits from explicit values.
    public init(maxEntries: Int, maxEntryBytes: Int, maxTotalBytes: Int, maxCompressionRatio: Int, maxNestingDepth: Int)
    {
        self.maxEntries = maxEntries
        self.maxEntryBytes = maxEntryBytes
        self.maxTotalBytes = maxTotalBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.maxNestingDepth = maxNestingDepth
    }

    /// Defaults sized for bug reports: 64 MiB per entry, 256 MiB per input, ratio 200, three levels of nesting.
    public static let `default` = ArchiveLimits(
        maxEntries: 10_000,
        maxEntryBytes: 64 << 20,
        maxTotalBytes: 256 << 20,
        maxCompressionRatio: 200,
        maxNestingDepth: 3
    )

    /// Expansion below this many bytes is never judged by ratio: tiny files compress unusually well.
    static let ratioFloorBytes = 1 << 20
}
