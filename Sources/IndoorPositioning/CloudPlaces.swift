/// Where a ``ParticleFilter`` looks each particle up in the radio map: the grid point nearest the place the particle
/// was when the readings were heard, and the box of grid columns and rows the whole cloud covers.
///
/// The filter records each particle while it moves it (the particle's place and velocity are at hand then), so
/// weighing does not read the cloud once more to find them.
struct CloudPlaces {
    /// Per particle i: its grid column at 2i, its row at 2i + 1 (the weighing reuses the buffer).
    let place: UnsafeMutableBufferPointer<Int32>
    /// Seconds back along each particle's velocity to the place where the readings were heard.
    let age: Double
    private let minimumX: Double
    private let minimumY: Double
    private let inverseSpacing: Double
    private let lastColumn: Double
    private let lastRow: Double
    // The box, as the grid coordinates before truncation (truncating keeps the order, so the box's bounds truncate
    // to the bounds of the truncated coordinates).
    private var lowColumn = Double.infinity
    private var highColumn = -Double.infinity
    private var lowRow = Double.infinity
    private var highRow = -Double.infinity

    /// Places on `grid`, looked up `age` seconds back, into `place` (two entries per particle).
    init(grid: RadioMap.Grid, age: Double, place: UnsafeMutableBufferPointer<Int32>) {
        self.place = place
        self.age = age
        minimumX = grid.minimum.x
        minimumY = grid.minimum.y
        inverseSpacing = 1 / grid.spacing
        lastColumn = Double(max(grid.columns - 1, 0))
        lastRow = Double(max(grid.rows - 1, 0))
    }

    /// Records particle `index` now at (`x`, `y`) (metres) walking at (`vx`, `vy`) (m/s): the grid point nearest
    /// where it was ``age`` seconds ago (clamped to the grid).
    @inline(__always)
    mutating func record(_ index: Int, x: Double, y: Double, vx: Double, vy: Double) {
        let column = min(max((x - age * vx - minimumX) * inverseSpacing, 0), lastColumn) + 0.5
        let row = min(max((y - age * vy - minimumY) * inverseSpacing, 0), lastRow) + 0.5
        place[2 * index] = Int32(truncatingIfNeeded: Int(column))
        place[2 * index + 1] = Int32(truncatingIfNeeded: Int(row))
        lowColumn = min(lowColumn, column)
        highColumn = max(highColumn, column)
        lowRow = min(lowRow, row)
        highRow = max(highRow, row)
    }

    /// The grid columns and rows of the recorded particles (`nil` before any was recorded).
    var box: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        guard lowColumn <= highColumn, lowRow <= highRow else { return nil }
        return (Int(lowColumn)...Int(highColumn), Int(lowRow)...Int(highRow))
    }
}
