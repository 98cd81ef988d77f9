/// Where a ``ParticleFilter`` looks each particle up in the radio map: the lattice point (every `stride`-th grid
/// column and row) nearest the place the particle was when the readings were heard, and the box of lattice columns
/// and rows the whole cloud covers.
///
/// The filter records each particle while it moves it (the particle's place and velocity are at hand then), so
/// weighing does not read the cloud once more to find them.
struct CloudPlaces {
    /// Per particle i: its lattice column at 2i, its row at 2i + 1 (the weighing reuses the buffer).
    let place: UnsafeMutableBufferPointer<Int32>
    /// Seconds back along each particle's velocity to the place where the readings were heard.
    let age: Double
    private let minimumX: Double
    private let minimumY: Double
    private let inverseSpacing: Double
    private let lastColumn: Int32
    private let lastRow: Int32

    /// Places on `lattice`'s points of `grid` (the lattice the cloud is weighed on), looked up `age` seconds back,
    /// into `place` (two entries per particle, in lattice units: multiply by the lattice's stride for the grid's
    /// column and row).
    init(grid: RadioMap.Grid, lattice: ParticleLikelihood, age: Double, place: UnsafeMutableBufferPointer<Int32>) {
        self.place = place
        self.age = age
        minimumX = grid.minimum.x
        minimumY = grid.minimum.y
        inverseSpacing = 1 / (grid.spacing * Double(lattice.stride))
        lastColumn = Int32(clamping: max(lattice.columns - 1, 0))
        lastRow = Int32(clamping: max(lattice.rows - 1, 0))
    }

    /// Records particle `index` now at (`x`, `y`) (metres) walking at (`vx`, `vy`) (m/s): the lattice point nearest
    /// where it was ``age`` seconds ago (clamped to the grid).
    @inline(__always)
    func record(_ index: Int, x: Double, y: Double, vx: Double, vy: Double) {
        place[2 &* index] = Self.nearest((x - age * vx - minimumX) * inverseSpacing, last: lastColumn)
        place[2 &* index &+ 1] = Self.nearest((y - age * vy - minimumY) * inverseSpacing, last: lastRow)
    }

    /// The integer nearest `value` (ties to even) within 0…`last`; a NaN gives 0.
    ///
    /// Without a conversion that checks its range (the filter's hottest loop records every particle): adding
    /// 1.5 × 2⁵² to a number of magnitude below 2⁵¹ leaves it rounded to an integer in the low bits of the sum.
    @inline(__always)
    static func nearest(_ value: Double, last: Int32) -> Int32 {
        let high = Double(last)
        // Within 0…last (a NaN passes both tests, and its sum's low bits are 0).
        let bounded = value < 0 ? 0 : (value > high ? high : value)
        return Int32(truncatingIfNeeded: (bounded + 0x1.8p52).bitPattern)
    }

    /// The lattice columns and rows of the first `count` particles, once each is recorded (`nil` for none).
    func box(count: Int) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let count = min(count, place.count / 2)
        guard count > 0 else { return nil }
        var lowColumn = Int32.max
        var highColumn = Int32.min
        var lowRow = Int32.max
        var highRow = Int32.min
        for i in 0..<count {
            lowColumn = min(lowColumn, place[2 &* i])
            highColumn = max(highColumn, place[2 &* i])
            lowRow = min(lowRow, place[2 &* i &+ 1])
            highRow = max(highRow, place[2 &* i &+ 1])
        }
        return (Int(lowColumn)...Int(highColumn), Int(lowRow)...Int(highRow))
    }
}
