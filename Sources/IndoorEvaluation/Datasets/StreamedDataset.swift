import IndoorModel
import IndoorPositioning

/// A dataset opened for scoring without holding its test rows: the nodes and survey in memory, the test split's
/// sightings and truth as streams (``DatasetReader/open(folder:includeSurvey:)``).
public struct StreamedDataset {
    /// The dataset's name (its folder's name).
    public var name: String
    /// The fixed radios.
    public var nodes: [Node]
    /// The survey (`train/`), when the dataset has one and it was read.
    public var train: Recording?
    /// The zones of the dataset's `venue.json` (empty without one): those with polygon fences are the rooms scored.
    public var zones: [Zone]
    /// The walls and floor connections of the dataset's `venue.json` (``FloorPlan/init(venue:)``), `nil` without one
    /// or when it has neither: the particle filter's walkers keep to them.
    public var floorPlan: FloorPlan?
    /// The rows of `test/sightings.csv`.
    public var sightings: CSVRowStream<Sighting>
    /// The rows of `test/truth.csv`.
    public var truth: CSVRowStream<TruthPoint>
}
