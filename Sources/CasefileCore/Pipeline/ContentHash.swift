public import CasefileArchive
import Crypto
public import Foundation

/// The SHA-256 that identifies an input, so a nightly run processes only what it has not seen.
public enum ContentHash {
    /// The hash of a file's bytes, or of a folder's files (relative path, size and bytes, sorted by path; links
    /// are not followed), in lowercase hex.
    public static func of(_ url: URL) throws(InputError) -> String {
        try of(path: url.path)
    }

    /// ``of(_:)`` of the file or folder at `path`.
    public static func of(path: String) throws(InputError) -> String {
        guard let status = FileStatus.of(path) else {
            throw InputError(input: path, reason: "no such file or directory")
        }
        if status.kind == .directory {
            guard var directory = DirectoryInput(path: path, status: status) else {
                throw InputError(input: path, reason: "cannot list the directory")
            }
            return try of(directory: &directory, keepingWithin: nil)
        }
        var hasher = SHA256()
        try stream(path, input: path, into: &hasher)
        return hex(hasher.finalize())
    }

    /// The hash ``of(_:)`` gives the directory, from one pass over its files that keeps, within `limits`, what the
    /// reader needs (``ArchiveReader/read(directory:)``), so a package's files are read once.
    public static func of(
        directory: inout DirectoryInput, keepingWithin limits: ArchiveLimits?
    ) throws(InputError) -> String {
        var hasher = SHA256()
        do {
            try directory.readFiles(keepingWithin: limits) { step in
                switch step {
                case .file(let relativePath):
                    // The relative path with its leading slash, as earlier versions hashed it: an input keeps its hash.
                    hasher.update(data: Array(("/" + relativePath).utf8) + [0])
                case .block(let block):
                    hasher.update(bufferPointer: block)
                case .end(let size):
                    hasher.update(data: trailer(size: size))
                }
            }
        } catch {
            let name = PathText.lastComponent(error.relativePath)
            throw InputError(input: directory.path, reason: "cannot open \(name) for reading")
        }
        return hex(hasher.finalize())
    }

    /// The hash ``of(_:)`` gives a file holding `contents`: for a caller that has read a small file whole, so the
    /// file is read once.
    public static func of(contents: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(data: contents)
        hasher.update(data: trailer(size: contents.count))
        return hex(hasher.finalize())
    }

    private static func stream(_ path: String, input: String, into hasher: inout SHA256) throws(InputError) {
        let size: Int
        do {
            size = try FileBlocks.forEach(in: path) { hasher.update(bufferPointer: $0) }
        } catch {
            let name = PathText.lastComponent(path)
            throw InputError(input: input, reason: "cannot open \(name) for reading")
        }
        hasher.update(data: trailer(size: size))
    }

    /// What follows a file's bytes in the hash: its size between two NULs.
    private static func trailer(size: Int) -> [UInt8] {
        Array("\u{0}\(size)\u{0}".utf8)
    }

    /// Lowercase hex of a digest.
    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in digest {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
