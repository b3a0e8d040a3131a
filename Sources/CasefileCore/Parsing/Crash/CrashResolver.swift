/// Completes frames from the binary image table after parsing: load address, image offset, image name, and
/// which image is the app — the same steps for every format.
enum CrashResolver {
    static func resolve(_ crash: inout Crash) {
        markAppImage(&crash)
        // Indexed once: every frame of every thread asks it.
        let table = ImageTable(crash.images)
        for thread in crash.threads.indices {
            for frame in crash.threads[thread].frames.indices {
                resolve(&crash.threads[thread].frames[frame], table: table)
            }
        }
        for frame in crash.exceptionBacktrace.indices {
            resolve(&crash.exceptionBacktrace[frame], table: table)
        }
    }

    /// Fills the image, load address and offset of a frame from the image that contains its address, or the
    /// image of the same name. The offset is always recomputed as address − load address (§2.6).
    private static func resolve(_ frame: inout Frame, table: ImageTable) {
        let position: Int? =
            if let address = frame.address, let byAddress = table.position(containing: address) {
                byAddress
            } else if let name = frame.image {
                table.position(named: name)
            } else {
                nil
            }
        if let position {
            if frame.image == nil { frame.image = table.images[position].name }
            frame.imageLoadAddress = table.images[position].loadAddress
        }
        if let address = frame.address, let load = frame.imageLoadAddress, address >= load {
            frame.imageOffset = address - load
        } else if frame.address == nil, let load = frame.imageLoadAddress, let offset = frame.imageOffset {
            // No address past the top of the address space: a damaged report's sum would trap.
            let (address, overflow) = load.addingReportingOverflow(offset)
            if !overflow { frame.address = address }
        }
    }

    /// The app image: the one flagged `+`, else the one whose path is the process path (ignoring `/private`),
    /// else the one named like the process.
    static func markAppImage(_ crash: inout Crash) {
        guard !crash.images.contains(where: \.isApp) else { return }
        func strip(_ path: String) -> String { path.hasPrefix("/private/") ? String(path.dropFirst(8)) : path }
        if let path = crash.processPath.map(strip),
            let index = crash.images.firstIndex(where: { $0.path.map(strip) == path })
        {
            crash.images[index].isApp = true
        } else if let name = crash.processName, let index = crash.images.firstIndex(where: { $0.name == name }) {
            crash.images[index].isApp = true
        }
    }
}
