internal import CArchive
import Foundation

/// The one place that calls libarchive: a read handle over a file or a memory buffer.
///
/// Every `archive_*` call of the package lives in this file, so ownership of the C handle and of the memory
/// libarchive reads from is decided here once.
final class LibarchiveHandle {
    /// The header fields the reader needs from one entry.
    struct Header {
        var pathname: String?
        var isRegularFile: Bool
        var isDirectory: Bool
        var declaredSize: Int?
        var modified: Date?
    }

    private let handle: OpaquePointer
    /// A copy of the buffer libarchive reads from; it must outlive the handle.
    private var buffer: UnsafeMutableRawBufferPointer?

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        archive_read_free(handle)
        buffer?.deallocate()
    }

    /// Opens a file on disk for streaming, 64 KiB at a time.
    static func open(path: String) throws(LibarchiveFailure) -> LibarchiveHandle {
        let reader = try makeReader()
        guard archive_read_open_filename(reader.handle, path, 64 * 1024) == ARCHIVE_OK else {
            throw reader.failure()
        }
        return reader
    }

    /// Opens bytes held in memory, such as a nested archive entry.
    static func open(bytes: [UInt8]) throws(LibarchiveFailure) -> LibarchiveHandle {
        try open(bytes: bytes, reader: makeReader())
    }

    /// Opens bytes held in memory that are one compressed stream and never an archive, such as the index's blobs:
    /// read with every filter and the raw format alone. Through every format, the text a blob held could be taken for
    /// one (a short run of repeated lines read as no data at all).
    static func openStream(bytes: [UInt8]) throws(LibarchiveFailure) -> LibarchiveHandle {
        try open(bytes: bytes, reader: makeReader(archives: false))
    }

    private static func open(bytes: [UInt8], reader: LibarchiveHandle) throws(LibarchiveFailure) -> LibarchiveHandle {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
        reader.buffer = copy
        guard archive_read_open_memory(reader.handle, copy.baseAddress, bytes.count) == ARCHIVE_OK else {
            throw reader.failure()
        }
        return reader
    }

    /// A reader with every filter; with every archive format too unless `archives` is false.
    private static func makeReader(archives: Bool = true) throws(LibarchiveFailure) -> LibarchiveHandle {
        guard let raw = archive_read_new() else {
            throw LibarchiveFailure(message: "libarchive could not allocate a reader")
        }
        let reader = LibarchiveHandle(handle: raw)
        archive_read_support_filter_all(raw)
        if archives { archive_read_support_format_all(raw) }
        // The raw format bids lowest, so it only claims a compressed stream that holds no archive (crash.ips.gz).
        archive_read_support_format_raw(raw)
        archive_read_support_format_empty(raw)
        return reader
    }

    /// Advances to the next entry; `nil` at the end of the archive.
    func nextHeader() throws(LibarchiveFailure) -> Header? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(handle, &entry)
        if status == ARCHIVE_EOF {
            return nil
        }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
            throw failure()
        }
        let fileType = archive_entry_filetype(entry)
        let pathname =
            archive_entry_pathname_utf8(entry).map { String(cString: $0) }
            ?? archive_entry_pathname(entry).map { String(cString: $0) }
        return Header(
            pathname: pathname,
            isRegularFile: fileType == CASEFILE_AE_IFREG,
            isDirectory: fileType == CASEFILE_AE_IFDIR,
            declaredSize: archive_entry_size_is_set(entry) != 0 ? Int(archive_entry_size(entry)) : nil,
            modified: archive_entry_mtime_is_set(entry) != 0
                ? Date(timeIntervalSince1970: TimeInterval(archive_entry_mtime(entry))) : nil
        )
    }

    /// Reads the current entry's next block into `block`; returns the count, 0 at the entry's end.
    func read(into block: UnsafeMutableRawBufferPointer) throws(LibarchiveFailure) -> Int {
        let count = archive_read_data(handle, block.baseAddress, block.count)
        guard count >= 0 else {
            throw failure()
        }
        return count
    }

    /// Whether the archive was recognized as the raw format: a compressed stream with no archive inside.
    var isRawFormat: Bool {
        archive_format(handle) == ARCHIVE_FORMAT_RAW
    }

    /// libarchive's name for the detected format, e.g. "ZIP 2.0 (deflation)".
    var formatName: String {
        archive_format_name(handle).map { String(cString: $0) } ?? "unknown"
    }

    private func failure() -> LibarchiveFailure {
        let message = archive_error_string(handle).map { String(cString: $0) } ?? "unknown libarchive error"
        return LibarchiveFailure(message: message)
    }
}

/// libarchive's own message for a failed call.
struct LibarchiveFailure: Error {
    var message: String
}
