public import Foundation

/// What an input looks like from its metadata alone: size and modification time of the file, or of every file in a
/// folder. An input whose path and signature are those the index recorded is not read again, so a run over an
/// unchanged inbox costs a directory walk, not a hash of every byte.
public enum InputSignature {
    /// `file:SIZE:MTIME` or `dir:FILES:BYTES:NEWEST-MTIME`; `nil` when the input cannot be examined.
    public static func of(_ url: URL) -> String? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFREG {
            return "file:\(info.st_size):\(nanoseconds(info.st_mtim))"
        }
        guard info.st_mode & S_IFMT == S_IFDIR, let walker = FileManager.default.enumerator(atPath: url.path) else {
            return nil
        }
        var files = 0
        var bytes: Int64 = 0
        var newest = nanoseconds(info.st_mtim)
        while let relative = walker.nextObject() as? String {
            var child = stat()
            guard lstat(url.path + "/" + relative, &child) == 0 else { return nil }
            newest = max(newest, nanoseconds(child.st_mtim))
            if child.st_mode & S_IFMT == S_IFREG {
                files += 1
                bytes += Int64(child.st_size)
            }
        }
        return "dir:\(files):\(bytes):\(newest)"
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
