#if os(Linux)
    import CasefileArchive
    import Foundation
    import Glibc
    import Testing

    /// A spill file that fails under its reader: the parts of an input read with ``reader(spillingTo:)`` keep every
    /// entry past the first compressed, and every compressed one past the first in the spill file in the folder;
    /// ``empty(in:)`` empties that file, as a disk that fails under it would leave it, so no entry in it reads back.
    enum SpillFileFailure {
        /// A reader that keeps entries compressed, and spills them into `folder`, from the second.
        static func reader(spillingTo folder: String) -> ArchiveReader {
            var reader = ArchiveReader(spillFolder: folder)
            reader.bytesKeptAsRead = 0
            reader.compressedBytesKeptInMemory = 0
            return reader
        }

        /// Empties the one spill file open in this process in `folder`: its link in `/proc/self/fd` names it, deleted.
        static func empty(in folder: String) throws {
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter {
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
                return target?.hasPrefix(folder + "/.casefile-spill.") == true
            }
            let descriptor = try #require(descriptors.count == 1 ? descriptors.first : nil)
            let emptied = open("/proc/self/fd/\(descriptor)", O_WRONLY | O_TRUNC)
            #expect(emptied >= 0)
            close(emptied)
        }
    }
#endif
