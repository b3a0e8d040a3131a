import CArchive
import Foundation

/// Writes zip archives for tests, through libarchive: each file deflated.
enum ZipWriter {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `files` (path inside the archive, bytes), in order, to a zip at `url`.
    static func write(_ files: [(path: String, bytes: [UInt8])], to url: URL) throws {
        guard let archive = archive_write_new() else { throw Failure(description: "archive_write_new failed") }
        defer { archive_write_free(archive) }
        func check(_ status: Int32, _ what: String) throws {
            guard status == ARCHIVE_OK else {
                throw Failure(description: "\(what): \(String(cString: archive_error_string(archive)))")
            }
        }
        try check(archive_write_set_format_zip(archive), "zip format")
        try check(archive_write_set_options(archive, "zip:compression=deflate"), "deflate")
        try check(archive_write_open_filename(archive, url.path), "open \(url.path)")
        for file in files {
            guard let entry = archive_entry_new() else { throw Failure(description: "archive_entry_new failed") }
            defer { archive_entry_free(entry) }
            archive_entry_set_pathname(entry, file.path)
            archive_entry_set_size(entry, la_int64_t(file.bytes.count))
            archive_entry_set_filetype(entry, CASEFILE_AE_IFREG)
            archive_entry_set_perm(entry, 0o644)
            try check(archive_write_header(archive, entry), "header of \(file.path)")
            let written = file.bytes.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            guard written == file.bytes.count else { throw Failure(description: "data of \(file.path)") }
        }
        try check(archive_write_close(archive), "close")
    }
}
