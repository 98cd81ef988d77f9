extension RandomAccessCollection where Index == Int {
    /// The indices of the two neighbouring elements around `time` in a collection sorted by time (binary search).
    ///
    /// `lower` is the last element at or before `time` and `upper` the next one, when `time` lies between the
    /// first and last times; before the first time the answer is the first two elements, after the last time
    /// the last two. With one element both indices are that element's. Times are in any unit, as long as
    /// `time` and `timeOf` agree.
    ///
    /// - Precondition: The collection is not empty and is sorted by `timeOf`, ascending.
    /// - Complexity: O(log n) calls of `timeOf`.
    package func bracket(time: Double, by timeOf: (Element) -> Double) -> (lower: Int, upper: Int) {
        var low = startIndex
        var high = Swift.max(startIndex, endIndex - 1)
        while high - low > 1 {
            let middle = (low + high) / 2
            if timeOf(self[middle]) <= time { low = middle } else { high = middle }
        }
        return (low, high)
    }
}
