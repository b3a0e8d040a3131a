/// A jetsam event: which processes the kernel killed for memory.
public struct JetsamEvent: Sendable, Codable, Hashable {
    /// The largest process at the time.
    public var largestProcess: String?
    /// The processes killed, with the kernel's reason (`per-process-limit`, `vm-pageshortage`, …).
    public var killed: [KilledProcess]
    /// The page size the kernel reported.
    public var pageSize: Int?

    /// Creates a jetsam event.
    public init(largestProcess: String? = nil, killed: [KilledProcess] = [], pageSize: Int? = nil) {
        self.largestProcess = largestProcess
        self.killed = killed
        self.pageSize = pageSize
    }
}

/// One process a jetsam event killed.
public struct KilledProcess: Sendable, Codable, Hashable {
    /// The process name.
    public var name: String
    /// The kernel's reason.
    public var reason: String
    /// Resident pages at the time.
    public var residentPages: Int?

    /// Creates a killed process.
    public init(name: String, reason: String, residentPages: Int? = nil) {
        self.name = name
        self.reason = reason
        self.residentPages = residentPages
    }
}
