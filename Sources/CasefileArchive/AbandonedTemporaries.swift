#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileBlocks {
    /// Removes from `folder` the temporary files `replace(_:with:)` leaves when the process writing them is killed
    /// between writing and renaming — `.NAME.PID.N.tmp`, or `.NAME.PID.tmp` from before Casefile 0.15 — whose process
    /// no longer runs; returns how many. Other files, and a missing folder, are left alone.
    @discardableResult
    public static func removeAbandonedTemporaries(in folder: String) -> Int {
        guard let directory = opendir(folder) else { return 0 }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = FileTree.entryName(entry)
            if name.hasPrefix("."), name.hasSuffix(".tmp"), let process = writer(of: name), process != getpid(),
                kill(process, 0) != 0, errno == ESRCH
            {
                names.append(name)
            }
        }
        closedir(directory)
        return names.filter { unlink(folder + "/" + $0) == 0 }.count
    }

    /// The process id in a temporary file's name: the number before `.N.tmp`, or before `.tmp` in the older names.
    private static func writer(of name: String) -> pid_t? {
        let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        if parts.count >= 4, let process = pid_t(parts[parts.count - 2]), UInt64(parts[parts.count - 1]) != nil {
            return process
        }
        return pid_t(parts[parts.count - 1])
    }
}
