import Foundation

/// Reads the byte ranges of a debug file that its own headers name, each checked against the file's size first.
///
/// A damaged or hostile header can name any 64-bit offset and any count: `FileHandle.seek(toOffset:)` traps on an
/// offset past `Int64.max`, and a count read from a header could ask for gigabytes. A range is read only where it
/// lies in the file.
struct DebugFileReader {
    /// The file's path, for errors.
    let path: String
    /// The file's size in bytes when it was opened.
    let size: UInt64
    /// Closes the file when the last copy of the reader goes away (`init(forReadingAtPath:)` owns its descriptor).
    private let handle: FileHandle

    /// Opens the file at `path`.
    init(path: String) throws(SymbolicationError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SymbolicationError(file: path, reason: "cannot open for reading")
        }
        do {
            size = try handle.seekToEnd()
        } catch {
            throw SymbolicationError(file: path, reason: "cannot find the end of the file")
        }
        self.path = path
        self.handle = handle
    }

    /// Up to `count` bytes from `offset`: fewer where the file ends, none from its end on.
    func read(at offset: UInt64, upTo count: Int) throws(SymbolicationError) -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        let length = Int(min(UInt64(count), size - offset))
        do {
            try handle.seek(toOffset: offset)
            return [UInt8](try handle.read(upToCount: length) ?? Data())
        } catch {
            throw SymbolicationError(file: path, reason: "cannot read \(length) bytes at offset \(offset)")
        }
    }

    /// Exactly `count` bytes at `offset` bytes past `base`, or an error saying that `what` runs past the end of the
    /// file.
    func read(at base: UInt64, plus offset: UInt64, exactly count: Int, what: String) throws(SymbolicationError)
        -> [UInt8]
    {
        let (start, startOverflows) = base.addingReportingOverflow(offset)
        let (end, endOverflows) = start.addingReportingOverflow(UInt64(max(count, 0)))
        guard !startOverflows, !endOverflows, end <= size else {
            throw SymbolicationError(file: path, reason: "\(what) runs past the end of the file")
        }
        let bytes = try read(at: start, upTo: count)
        guard bytes.count == count else {
            throw SymbolicationError(file: path, reason: "\(what) runs past the end of the file")
        }
        return bytes
    }
}
