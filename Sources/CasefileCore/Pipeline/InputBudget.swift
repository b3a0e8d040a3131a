/// Bounds the bytes the nightly run holds for the inputs it reads at once.
///
/// The run keeps a fixed number of inputs in flight, enough to keep the cores busy while inputs wait for the index
/// writer. That number suits small reports; twenty-four long recordings of 3.6 MB each held 270 MB. So each input is
/// also admitted by its bytes: it waits until what the inputs in flight hold leaves room for it, in order of arrival,
/// and is admitted at once when nothing is held, so an input larger than the budget still runs, alone.
///
/// What an archive holds is known only once it is unpacked: its size on disk says little of it (a zip of JSON holds
/// thirty times its size; one with a stored video, less than its size). Such an input is admitted on an estimate, and
/// its charge set to what unpacking found (``settle(_:to:)``) without waiting. Inputs admitted on an estimate and not
/// yet settled are at most `estimates` at once, so the budget is exceeded at most by what that many archives expand to
/// beyond their estimates.
package actor InputBudget {
    /// The bytes the inputs in flight may hold together.
    package let limit: Int
    /// How many inputs may be admitted on an estimate and not settled yet.
    package let estimates: Int
    /// The bytes the admitted inputs hold now.
    package private(set) var held = 0
    /// The most bytes held at once so far.
    package private(set) var peak = 0
    /// The inputs admitted on an estimate and not settled yet.
    private var unsettled = 0
    /// The inputs waiting to be admitted, first come first.
    private var waiting: [(bytes: Int, exact: Bool, admit: CheckedContinuation<Void, Never>)] = []

    /// What one admitted input holds of the budget.
    package struct Charge: Sendable {
        /// The bytes charged.
        package fileprivate(set) var bytes: Int
        /// Whether they are an estimate not settled yet.
        package fileprivate(set) var isEstimate: Bool

        /// Nothing: what an input not admitted holds.
        package static let none = Charge(bytes: 0, isEstimate: false)

        /// Whether releasing the charge would change nothing: no bytes, and no estimate counted among the unsettled.
        package var isEmpty: Bool { bytes == 0 && !isEstimate }
    }

    /// How many inputs wait to be admitted.
    package var waitingCount: Int { waiting.count }

    /// A budget of `limit` bytes, of which `estimates` inputs at once may be admitted on an estimate.
    package init(limit: Int, estimates: Int) {
        self.limit = limit
        self.estimates = max(1, estimates)
    }

    /// Returns once `bytes` more fit within the limit (or nothing is held), no input that asked earlier is still
    /// waiting, and, for an estimate (not `exact`), fewer than ``estimates`` inputs hold an unsettled one. The charge
    /// is held until ``release(_:)``; an estimate's is to be settled (``settle(_:to:)``) as soon as the input is read.
    package func admit(_ bytes: Int, exact: Bool) async -> Charge {
        if waiting.isEmpty, fits(bytes, exact: exact) {
            hold(bytes, exact: exact)
        } else {
            await withCheckedContinuation { waiting.append((bytes, exact, $0)) }
        }
        return Charge(bytes: bytes, isEstimate: !exact)
    }

    /// The charge set to the `actual` bytes its input holds, without waiting; an input that could not be read holds
    /// none.
    package func settle(_ charge: Charge, to actual: Int) -> Charge {
        held += actual - charge.bytes
        peak = max(peak, held)
        if charge.isEstimate { unsettled -= 1 }
        admitWaiting()
        return Charge(bytes: actual, isEstimate: false)
    }

    /// Gives back what an input held.
    package func release(_ charge: Charge) {
        held -= charge.bytes
        if charge.isEstimate { unsettled -= 1 }
        admitWaiting()
    }

    private func fits(_ bytes: Int, exact: Bool) -> Bool {
        (held == 0 || held + bytes <= limit) && (exact || unsettled < estimates)
    }

    private func hold(_ bytes: Int, exact: Bool) {
        held += bytes
        peak = max(peak, held)
        if !exact { unsettled += 1 }
    }

    /// Admits the waiting inputs that now fit, in order, stopping at the first that does not.
    private func admitWaiting() {
        var admitted = 0
        while admitted < waiting.count, fits(waiting[admitted].bytes, exact: waiting[admitted].exact) {
            hold(waiting[admitted].bytes, exact: waiting[admitted].exact)
            waiting[admitted].admit.resume()
            admitted += 1
        }
        waiting.removeFirst(admitted)
    }
}
