public import Foundation

extension ArchiveReader {
    /// Copies the entry at `entry` (a path as ``ArchiveEntry/path`` gives it) out of the input at `input` to
    /// `destination`, in 64 KiB blocks: a screen video of a gigabyte costs no more memory than a small one.
    ///
    /// Reads a directory input's file or a top-level archive's entry; entries of nested archives are not reachable
    /// this way. The destination is a path the caller chose, never one taken from the archive.
    public func copyEntry(_ entry: String, of input: String, to destination: URL) throws(ArchiveError) {
        guard let normalized = EntryPath.normalize(entry), normalized == entry, !entry.isEmpty else {
            throw ArchiveError(code: .unsafePath, input: input, entry: entry, reason: "not a path inside the input")
        }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let output = try? FileHandle(forWritingTo: destination)
        else {
            throw ArchiveError(
                code: .unreadable, input: input, entry: entry, reason: "cannot create \(destination.path)")
        }
        defer { try? output.close() }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
            guard let source = FileHandle(forReadingAtPath: input + "/" + entry) else {
                throw ArchiveError(code: .unreadable, input: input, entry: entry, reason: "cannot open the file")
            }
            defer { try? source.close() }
            while let block = try? source.read(upToCount: 64 * 1024), !block.isEmpty {
                output.write(block)
            }
            return
        }
        let handle: LibarchiveHandle
        do {
            handle = try LibarchiveHandle.open(path: input)
        } catch {
            throw ArchiveError(code: .corrupt, input: input, reason: "cannot open archive: \(error.message)")
        }
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { block.deallocate() }
        do {
            while let header = try handle.nextHeader() {
                guard header.isRegularFile, header.pathname.flatMap(EntryPath.normalize) == entry else { continue }
                while true {
                    let count = try handle.read(into: block)
                    if count == 0 { return }
                    output.write(Data(UnsafeRawBufferPointer(rebasing: block[0..<count])))
                }
            }
        } catch {
            throw ArchiveError(
                code: .corrupt, input: input, entry: entry, reason: "cannot read entry: \(error.message)")
        }
        throw ArchiveError(code: .unreadable, input: input, entry: entry, reason: "no such entry")
    }
}
