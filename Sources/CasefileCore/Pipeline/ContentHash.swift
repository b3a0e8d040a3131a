import CasefileArchive
import Crypto
public import Foundation

/// The SHA-256 that identifies an input, so a nightly run processes only what it has not seen.
public enum ContentHash {
    /// The hash of a file's bytes, or of a folder's files (relative path, size and bytes, sorted by path; links
    /// are not followed), in lowercase hex.
    public static func of(_ url: URL) throws(InputError) -> String {
        let path = url.path
        guard let status = FileStatus.of(path) else {
            throw InputError(input: path, reason: "no such file or directory")
        }
        var hasher = SHA256()
        if status.kind == .directory {
            guard let entries = FileTree.entries(under: path) else {
                throw InputError(input: path, reason: "cannot list the directory")
            }
            for entry in entries where entry.status.kind == .regular {
                // The relative path with its leading slash, as earlier versions hashed it: an input keeps its hash.
                hasher.update(data: Array(("/" + entry.relativePath).utf8) + [0])
                try stream(path + "/" + entry.relativePath, input: path, into: &hasher)
            }
        } else {
            try stream(path, input: path, into: &hasher)
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
