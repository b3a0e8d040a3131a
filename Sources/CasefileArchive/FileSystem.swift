import Dispatch
import Synchronization

#if canImport(Glibc)
    public import Glibc
#elseif canImport(Darwin)
    public import Darwin
#endif

/// Numbers the temporary files `FileBlocks.replace` writes, so that two threads replacing one path at once never share
/// one.
private let temporaryFileNumbers = Atomic<Int>(0)

/// What `lstat` says about one path: the few facts the pipeline needs, without Foundation's attribute dictionary
/// (which also lists extended attributes and looks up the owner's name — three more system calls and a socket
/// connection to `nscd` per file).
public struct FileStatus: Sendable, Equatable {
    /// The kind of file; links are not followed.
    public enum Kind: Sendable, Equatable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A symbolic link (not followed).
        case symbolicLink
        /// A device, socket, FIFO or anything else.
        case other
    }

    /// The kind of file.
    public var kind: Kind
    /// The size in bytes.
    public var size: Int
    /// The modification time in nanoseconds since 1970.
    public var modified: Int64

    /// The status of `path`, or `nil` when it does not exist or cannot be examined. Symbolic links are not followed.
    public static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// The status of `name` in the directory open as `descriptor`, as ``of(_:)`` gives it for the joined path: a walk
    /// asks of each name where it is listed, without the system resolving the whole path again.
    static func of(_ name: String, inDirectory descriptor: Int32) -> FileStatus? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileStatus(info)
    }
}

extension FileStatus {
    /// What the pipeline needs of a `stat` record.
    fileprivate init(_ info: stat) {
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        self.init(
            kind: kind, size: Int(info.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}

/// A directory's contents, walked with `readdir` and `fstatat` only.
public enum FileTree {
    /// One path below the walked directory.
    public struct Entry: Sendable {
        /// The path relative to the walked directory, components joined by `/`, without a leading slash.
        public var relativePath: String
        /// Its status; symbolic links are listed, not followed.
        public var status: FileStatus
    }

    /// Every file, directory and link below `root` (not `root` itself), sorted by relative path; `nil` when
    /// `root` cannot be listed, or any directory below it unless `skippingUnreadable`, which leaves out what such a
    /// directory holds instead. Symbolic links to directories are not descended into.
    ///
    /// The directories at the top of `root` are walked by `workers` threads at once: a symbol folder kept for years
    /// holds thousands of dSYM bundles, and walking them is system calls that run side by side (5,000 dSYMs: about
    /// 130 ms on one core). The result is the same for any number of workers, in the same order.
    public static func entries(under root: String, skippingUnreadable: Bool = false, workers: Int = 1) -> [Entry]? {
        // The root must be listable even when the directories below it need not be.
        guard let listed = list(root) else { return nil }
        var found = listed.map { Entry(relativePath: $0.name, status: $0.status) }
        let directories = found.filter { $0.status.kind == .directory }.map(\.relativePath)
        // Each worker walks every `workers`-th directory into a list of its own.
        let workers = max(1, workers)
        let walked = Mutex<[(complete: Bool, entries: [Entry])]>([])
        DispatchQueue.concurrentPerform(iterations: min(workers, max(directories.count, 1))) { worker in
            var entries: [Entry] = []
            var complete = true
            for index in stride(from: worker, to: directories.count, by: workers) {
                let name = directories[index]
                guard walk(root + "/" + name, relative: name, skippingUnreadable: skippingUnreadable, into: &entries)
                else {
                    complete = false
                    break
                }
            }
            walked.withLock { $0.append((complete, entries)) }
        }
        for part in walked.withLock({ $0 }) {
            guard part.complete else { return nil }
            found += part.entries
        }
        found.sort { $0.relativePath < $1.relativePath }
        return found
    }

    /// The names in the directory at `path`, without `.` and `..`, each with its status (a name that cannot be
    /// examined is left out); `nil` when it cannot be listed. The directory is closed before its subdirectories are
    /// walked, so a deep tree holds one descriptor at a time.
    private static func list(_ path: String) -> [(name: String, status: FileStatus)]? {
        guard let stream = opendir(path) else { return nil }
        defer { closedir(stream) }
        let descriptor = dirfd(stream)
        var listed: [(name: String, status: FileStatus)] = []
        while let record = readdir(stream) {
            let name = entryName(record)
            guard name != "." && name != "..", let status = FileStatus.of(name, inDirectory: descriptor) else {
                continue
            }
            listed.append((name, status))
        }
        return listed
    }

    /// The name of a `readdir` record.
    public static func entryName(_ record: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeBytes(of: record.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func walk(
        _ directory: String, relative: String, skippingUnreadable: Bool, into found: inout [Entry]
    ) -> Bool {
        guard let listed = list(directory) else { return skippingUnreadable }
        for (name, status) in listed {
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            found.append(Entry(relativePath: relativePath, status: status))
            if status.kind == .directory,
                !walk(
                    directory + "/" + name, relative: relativePath, skippingUnreadable: skippingUnreadable,
                    into: &found)
            {
                return false
            }
        }
        return true
    }
}

/// Reads files in blocks with `open` and `read`, without a `Data` per block.
public enum FileBlocks {
    /// Why a file could not be read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The `errno` of the failing call.
        public var code: Int32

        /// The system's message for the code.
        public var description: String { String(cString: strerror(code)) }
    }

    /// Calls `body` with each block of the file at `path`, in order; returns the number of bytes read.
    @discardableResult
    public static func forEach(
        in path: String, blockSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        return try forEachBlock(of: descriptor, blockSize: blockSize, body)
    }

    /// The whole file at `path`; `sizeHint` (its expected size) saves the array's regrowth.
    ///
    /// A file of the expected size is read straight into the array, not through a block buffer copied into it; one
    /// that turns out longer (it grew since it was examined) is read on by blocks.
    public static func contents(of path: String, sizeHint: Int = 0) throws -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        // One byte more than expected: the read that returns 0 there tells the file ended where it was expected to.
        let capacity = max(sizeHint, 0) + 1
        let expected = bytes(upTo: capacity, from: descriptor)
        if let failure = expected.failure { throw failure }
        var whole = expected.bytes
        if whole.count == capacity {
            try forEachBlock(of: descriptor, blockSize: 256 * 1024) { whole.append(contentsOf: $0) }
        }
        return whole
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter, or when a read fails after opening).
    public static func prefix(of path: String, count: Int) throws -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        return bytes(upTo: count, from: descriptor).bytes
    }

    /// A descriptor of `path` opened for reading, for the caller to close.
    private static func openForReading(_ path: String) throws(Failure) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        return descriptor
    }

    /// Calls `body` with each block read from `descriptor` until the file's end; returns the number of bytes read.
    @discardableResult
    private static func forEachBlock(
        of descriptor: Int32, blockSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int {
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { block.deallocate() }
        var total = 0
        while true {
            let count = retryingInterrupts { read(descriptor, block.baseAddress, blockSize) }
            if count < 0 { throw Failure(code: errno) }
            if count == 0 { return total }
            total += count
            try body(UnsafeRawBufferPointer(rebasing: block[0..<count]))
        }
    }

    /// What `call` (a `read` or `write`) returns, calling it again while a signal interrupts it (`EINTR`): a count, or
    /// a negative number with `errno` set.
    package static func retryingInterrupts(_ call: () -> Int) -> Int {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Up to `count` bytes read from `descriptor` straight into a new array, fewer at the file's end or when a read
    /// fails (`failure`, with the bytes read before it).
    private static func bytes(upTo count: Int, from descriptor: Int32) -> (bytes: [UInt8], failure: Failure?) {
        var failure: Failure?
        let result = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while filled < count {
                let got = retryingInterrupts { read(descriptor, buffer.baseAddress! + filled, count - filled) }
                if got < 0 {
                    failure = Failure(code: errno)
                    return
                }
                if got == 0 { return }
                filled += got
            }
        }
        return (result, failure)
    }

    /// Writes `text` to a file beside `path` and renames it over `path`, without an fsync: a reader sees the old
    /// file or the new one, never half of one; after a power loss it may be the old one. Threads that replace one path
    /// at once each write a temporary file of their own, and the last rename wins.
    public static func replace(_ path: String, with text: String) throws {
        var text = text
        try text.withUTF8 { try replace(path, with: UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` to a file beside `path` and renames it over `path`, without an fsync.
    public static func replace(_ path: String, with bytes: UnsafeRawBufferPointer) throws {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // The process and a number of its own: two inputs of one run holding the same report write its summary at
        // once, and with one name per process one's rename took the other's file and the other's failed.
        let number = temporaryFileNumbers.add(1, ordering: .relaxed).newValue
        let temporary = "\(folder)/.\(name).\(getpid()).\(number).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        var offset = 0
        while offset < bytes.count {
            let count = retryingInterrupts { write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }
            if count < 0 {
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw Failure(code: code)
            }
            offset += count
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(code: code)
        }
    }
}
