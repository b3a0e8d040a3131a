extension Array where Element: Comparable {
    /// The elements greater than `value`, for an array sorted ascending: found by binary search, not a scan.
    func sortedSuffix(after value: Element) -> ArraySlice<Element> {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return self[low...]
    }
}
