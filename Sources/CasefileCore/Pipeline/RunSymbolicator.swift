/// The run's symbolicator, made when the first input holding a crash asks for it.
///
/// Making it walks the symbol folders and reads what earlier runs learned of them. A team keeps dSYMs for years: with
/// 5,000 of them that took about 0.2 s of one core before any input was read. A run whose new inputs hold no crash —
/// the second run over an unchanged inbox, a night of recordings only — now never pays it.
actor RunSymbolicator {
    private let make: @Sendable () async -> Symbolicator
    private var made: Task<Symbolicator, Never>?
    private var ready: Symbolicator?

    /// A symbolicator that `make` makes when first asked for.
    init(make: @escaping @Sendable () async -> Symbolicator) {
        self.make = make
    }

    /// The symbolicator, made by the first call; the calls made meanwhile wait for that one.
    func symbolicator() async -> Symbolicator {
        if let made { return await made.value }
        let task = Task { await make() }
        made = task
        let symbolicator = await task.value
        ready = symbolicator
        return symbolicator
    }

    /// The symbolicator when it is made, without waiting for one being made. Once every input that asked for it has
    /// been answered (after the run's last input), it is the symbolicator if any input asked for one.
    func symbolicatorIfReady() -> Symbolicator? {
        ready
    }
}
