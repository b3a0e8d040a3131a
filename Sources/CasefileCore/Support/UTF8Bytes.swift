extension String {
    /// Calls `body` with the string's UTF-8 bytes where they lie: through the string's UTF-8 span where the standard
    /// library has one (Swift 6.2 and later, and every Linux), which neither copies the bytes nor retains and releases
    /// the string; else through its contiguous storage, else a copy.
    ///
    /// For the per-field loops of the index writer and the crash-detail blob, where the retain and release that
    /// `utf8.withContiguousStorageIfAvailable` costs for each string was a tenth of the work.
    @inline(__always)
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return try utf8.span.withUnsafeBufferPointer(body)
        }
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }
}
