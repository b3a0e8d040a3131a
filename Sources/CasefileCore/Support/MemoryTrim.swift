#if canImport(Glibc)
    import Glibc
#endif

/// Gives memory the allocator holds but no longer uses back to the system.
///
/// A nightly run allocates and frees inputs of 20 KB to several MB on several threads for hours; glibc keeps what
/// was freed in per-thread arenas, fragmented, and the resident size creeps up with the number of inputs even though
/// the live heap stays flat (a heap profile of a 10,000-input run peaks at 21 MB). Trimming every so often keeps
/// the peak bounded; elsewhere it does nothing.
enum MemoryTrim {
    #if canImport(Glibc)
        /// glibc's `malloc_trim`, looked up once (`<malloc.h>` is not part of Swift's Glibc module).
        private static let trim: (@convention(c) (Int) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        }()
    #endif

    /// Returns free heap pages to the system.
    static func now() {
        #if canImport(Glibc)
            _ = trim?(0)
        #endif
    }
}
