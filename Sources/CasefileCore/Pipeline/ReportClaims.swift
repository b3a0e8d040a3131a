/// The reports inputs of one run are writing: an input claims its reports' ids before it writes their summaries and
/// releases them once its rows are committed or refused, and an input holding a report another input claimed waits
/// until that one is done.
///
/// Without it, two inputs holding the same report — the same crash sent twice, or a report loose and inside a zip —
/// both found it new, both wrote its summary at once, and the summary named whichever input renamed last, not the one
/// the index records. An input that waits holds no claim, so no two inputs ever wait for each other.
actor ReportClaims {
    private var held: Set<String> = []
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Claims every id of `ids`, waiting while another input holds any of them.
    func claim(_ ids: [String]) async {
        while ids.contains(where: held.contains) {
            await withCheckedContinuation { waiting.append($0) }
        }
        held.formUnion(ids)
    }

    /// Releases ids claimed by ``claim(_:)``; the inputs waiting look again.
    func release(_ ids: [String]) {
        held.subtract(ids)
        let woken = waiting
        waiting = []
        for continuation in woken { continuation.resume() }
    }
}
