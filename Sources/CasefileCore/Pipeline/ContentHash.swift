import Crypto
public import Foundation

/// The SHA-256 that identifies an input, so a nightly run processes only what it has not seen.
public enum ContentHash {
    /// The hash of a file's bytes, or of a folder's files (relative path, size and bytes, sorted by path; links
    /// are not followed), in lowercase hex.
    public static func of(_ url: URL) throws(InputError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw InputError(input: url.path, reason: "no such file or directory")
        }
        var hasher = SHA256()
        if isDirectory.boolValue {
            let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey]
            let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: keys)
            let root = url.standardizedFileURL.path
            var files: [(String, URL)] = []
            while let child = walker?.nextObject() as? URL {
                let values = try? child.resourceValues(forKeys: Set(keys))
                guard values?.isRegularFile == true, values?.isSymbolicLink != true else { continue }
                files.append((String(child.standardizedFileURL.path.dropFirst(root.count)), child))
            }
            for (relative, child) in files.sorted(by: { $0.0 < $1.0 }) {
                hasher.update(data: Array(relative.utf8) + [0])
                try stream(child, input: url.path, into: &hasher)
            }
        } else {
            try stream(url, input: url.path, into: &hasher)
        }
        return hex(hasher.finalize())
    }

    private static func stream(_ url: URL, input: String, into hasher: inout SHA256) throws(InputError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw InputError(input: input, reason: "cannot open \(url.lastPathComponent) for reading")
        }
        defer { try? handle.close() }
        var size = 0
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            size += chunk.count
        }
        hasher.update(data: Array("\u{0}\(size)\u{0}".utf8))
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
