extension Array {
    /// Copies the elements into storage of their count, and lets the old storage go, when more than an eighth of it
    /// is empty.
    ///
    /// An array grown one append at a time doubles its storage as it goes: a parser's array of frames or images ends
    /// with up to half of it empty. Over a zip of 837 crash reports, the frames took 57 MB where their values take about
    /// 37 MB. The copy retains each element's references once more and the old storage releases them, so it is for
    /// arrays held a long time, not for every array.
    mutating func trimToCount() {
        guard capacity - count > count / 8 else { return }
        var trimmed: [Element] = []
        trimmed.reserveCapacity(count)
        trimmed.append(contentsOf: self)
        self = trimmed
    }
}
