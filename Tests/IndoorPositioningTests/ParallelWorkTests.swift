import Testing

@testable import IndoorPositioning

@Suite("Parallel work")
struct ParallelWorkTests {
    /// Pieces of uneven length finish in any order on the cores; their results come back in index order, the same as
    /// a serial `map`, on every run.
    @Test(arguments: [0, 1, 2, 257])
    func resultsComeBackInIndexOrder(count: Int) {
        let piece: @Sendable (Int) -> Double = { index in
            // Uneven work: later pieces are shorter, so they tend to finish first.
            var sum = 0.0
            for k in 0..<((count - index) * 200) { sum += Double(k % 7) }
            return Double(index) * 1000 + sum
        }
        let serial = (0..<count).map(piece)
        #expect(ParallelWork.map(count, piece) == serial)
        #expect(ParallelWork.map(count, piece) == serial)
        #expect(ParallelWork.map(-1, piece).isEmpty)
    }

    /// Optional results stay optional: a piece that answers `nil` keeps its slot.
    @Test func aPieceWithoutAnAnswerKeepsItsPlace() {
        let halves = ParallelWork.map(6) { index -> Int? in index.isMultiple(of: 2) ? index / 2 : nil }
        #expect(halves == [0, nil, 1, nil, 2, nil])
    }
}
