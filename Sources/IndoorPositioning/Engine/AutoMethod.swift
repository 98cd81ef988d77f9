import IndoorModel
import IndoorRanging

/// The one method that adapts to what a venue has: a survey, a calibration, many nodes or a few.
///
/// With a survey it locates by the posterior mean over a ``RadioMap`` learned from the survey (path loss from the
/// calibration plus interpolated residuals), its kernel and weighting chosen on the survey alone by
/// ``RadioMapCrossValidation``; without one (or with a survey too small to cross-validate) by the posterior mean over
/// the calibration's path-loss model with generic weighting (``genericConfiguration``, or
/// ``calibratedConfiguration`` when the calibration knows the path loss). Without a calibration that knows the path
/// loss, that posterior is held near the centroid of the strongest nodes heard (``centroidPrior``) and answers however
/// many nodes are heard. With one (or with the prior turned off by the configuration) it answers except where fewer
/// than ``denseMinimum`` mapped nodes are heard: there a few readings leave the posterior broad and its mean is pulled towards the middle
/// of the grid, so ``sparse`` answers (trilateration with a calibration that knows the path loss, else trilateration
/// where the ranges agree and the weighted centroid where they do not); without a calibration that knows the path
/// loss, ranges that agree are trilaterated however many nodes are heard (``agreement``).
/// Without a survey the posterior's mean is weighed on a coarser lattice of the grid (``PosteriorLattice``).
/// One or two nodes heard still give a fix (the weighted centroid, or the posterior over the rings around them when
/// trilateration has too few), and floors come from the grid's floors.
public struct AutoMethod: PositioningMethod {
    public let name: String
    /// The method doing the work.
    public let inner: any PositioningMethod
    /// The posterior over the chosen radio map (with or without the k-NN share blended in by ``inner``): what a
    /// ``ParticleFilter`` weighs its particles by.
    public let posterior: PosteriorGrid
    /// What the cross-validation found, `nil` when none was run (no survey, or too small a one).
    public let selection: RadioMapCrossValidation.Outcome?
    /// Without a survey, what answers when fewer than ``denseMinimum`` mapped nodes are heard: nonlinear least squares
    /// when the calibration knows the path loss (``Calibration/knowsPathLoss``), else ``AgreeingRanges``
    /// (trilateration where the ranges agree, the weighted centroid elsewhere). `nil` with a survey (the learned map
    /// answers everywhere). Its fixes carry the name of the estimator that answered.
    public let sparse: (any PositioningMethod)?
    /// Without a survey or a calibration that knows the path loss, the trilateration that answers ahead of the
    /// posterior where ``denseMinimum`` or more nodes are heard and their ranges agree (``AgreeingRanges``): the
    /// generic weighting does not trust the ranges' level, so exact ranges are answered where they meet, not near
    /// it. `nil` otherwise.
    let agreement: AgreeingRanges?
    /// Without a survey, the fewest mapped nodes heard for the posterior to answer rather than ``sparse``
    /// (``denseMinimum`` unless the configuration's ``DefaultTuning`` sets another).
    let sparseBelow: Int
    /// Without a survey, ``inner`` as its own type: handed the readings' map columns ``estimate(from:)`` has taken.
    let lattice: PosteriorLattice?
    /// Without a survey, the factor on the weighted centroid's radius beyond which the weighted centroid of the
    /// strongest nodes answers instead of the posterior's mean (``DefaultTuning/centroidGate``); `nil` (the default,
    /// and always with a survey): the posterior answers wherever it is.
    ///
    /// Where the posterior is broad its mean is pulled towards the middle of the grid, which along a corridor is
    /// away from every node; the centroid's radius (its nodes' spread about it, at least the nearest range) bounds
    /// where the simple estimate puts the device. Not the default: measured with each real dataset held out, it
    /// moved the development sets' medians by a few centimetres either way
    /// (docs/notes/auto-no-survey-simple-estimators.md).
    let centroidGate: Double?
    /// Without a survey or a calibration that knows the path loss, the prior the posterior is multiplied by
    /// (``CentroidPrior/standard`` unless the configuration's ``DefaultTuning`` sets another or none): it then answers
    /// however many nodes are heard, without ``sparse`` or ``agreement``. `nil` otherwise.
    let centroidPrior: CentroidPrior?
    /// The coverage of a survey given but set aside because it covers too little of the venue (``SurveyCoverage``):
    /// the method then locates as without a survey. `nil` when there was no survey or it was learned from.
    public internal(set) var surveySetAside: SurveyCoverage? = nil

    /// Grid spacing of the posterior without a survey, metres (0.5; with a survey the map's grid is 0.25 m).
    ///
    /// The path-loss posterior is broad (the model's spread is the shadowing's, 6 dB without a fit), so a coarser grid
    /// moves its mean by centimetres and costs a quarter of the points: compared without any test split, on the
    /// development sets of ``denseMinimum``, medians moved by −0.04…+0.01 m against 0.25 m (1 m: −0.09…+0.04 m).
    static let pathLossSpacing = 0.5

    /// Without a survey, the fewest mapped nodes heard for the posterior to answer (4).
    ///
    /// Chosen with each real dataset held out in turn (docs/notes/leave-one-venue-out-parameters.md): against 5, it
    /// lowered the summed medians of the development sets by 0.13 m. docs/POSITIONING.md lists the figures.
    static let denseMinimum = 4

    /// The per-node RSSI filter `auto` reads without a survey (fix by fix): a Kalman filter whose mean may move 12 dB²
    /// per second, three times the engine's default (``PositioningEngine/Configuration/filter``): with a sample every
    /// half second its value trails a change by about 0.6 s, the default's by 1.2 s. Chosen with each real dataset held
    /// out in turn on `train/` splits and unscored simulated offices (docs/notes/auto-no-survey-reading-filter.md);
    /// `--tuning reading-noise` compares others.
    public static let readingFilterWithoutSurvey = readingFilter(processNoise: 12)

    /// That filter with another process noise, dB² per second (each sample's variance stays 16 dB²).
    static func readingFilter(processNoise: Double) -> RSSIFilter.Kind {
        .kalman(processNoise: processNoise, measurementNoise: 16)
    }

    /// Generic weighting without a survey: plain Bayes (temperature 1), a broad receiver offset prior of 15 dB (without
    /// a survey the path-loss model's absolute level is a guess, and phones differ by up to 13 dB), and no unheard
    /// nodes' term (the model's chance of hearing a node is a guess too).
    ///
    /// Chosen without any test split: on the `train/` splits of uji-library and kolakowski-flat scored as if they were
    /// test data, and on eight simulated offices that are not scored (seeds 3, 7, 11, 13; one floor and three);
    /// docs/ACCURACY.md lists what was compared.
    public static let genericConfiguration = PosteriorGrid.Configuration(
        temperature: 1, offsetSigma: 15, missingWeight: 0)

    /// Weighting without a survey but with a calibration that knows the path loss (``Calibration/knowsPathLoss``):
    /// ``genericConfiguration`` with a receiver offset prior of 4 dB instead of 15 (the fit knows the model's absolute
    /// level, so only the phones' own gains are left to explain, as with a survey).
    ///
    /// Chosen without any test split, on the development sets of ``denseMinimum`` with a calibration fitted on their
    /// `train/`: 4 dB was better or equal on all ten simulated offices with enough beacons (e.g. 1.73 → 1.67 m,
    /// 2.01 → 1.93 m) and on uji-library's `train/` (1.698 → 1.684 m), 0.006 m worse on kolakowski-flat's; 2, 6 and 8 dB
    /// and temperatures 1.5 and 2 were compared (the higher temperatures better on one floor, worse on three).
    static let calibratedConfiguration = PosteriorGrid.Configuration(
        temperature: 1, offsetSigma: 4, missingWeight: 0)

    /// The most (grid point, node) entries a radio map of `auto` holds by default: 4 000 000 (its tables then take
    /// about 128 MB). The map is dense (every grid point of every floor, every node), so a venue with many nodes and
    /// floors gets a coarser grid rather than unbounded memory: up to 12 000 points per floor while nodes × floors
    /// ≤ 333, fewer beyond (a 2 000-node, 10-floor venue: 200 points per floor).
    public static let maximumMapEntries = 4_000_000

    /// The method for `nodes`, learning from `survey` when given.
    /// - Parameters:
    ///   - nodes: The fixed radios.
    ///   - survey: Sightings with truth (`train/`), or `nil`.
    ///   - calibration: The path-loss model (fitted on the survey, or given).
    ///   - configuration: The engine tuning live data will see (the survey passes through its filters).
    ///   - validation: How parameters are chosen on the survey.
    ///   - name: The name in reports (default `auto`).
    ///   - maximumMapEntries: The most (grid point, node) entries of the radio map (default
    ///     ``maximumMapEntries``): the grid gets coarser to stay within it.
    ///   - progress: Told how far the cross-validation on the survey has got.
    ///   - levelKnown: Whether the calibration knows the located devices' level, not only each node's against the
    ///     others: ``calibratedConfiguration`` and nonlinear least squares for few nodes when it does, the generic
    ///     weighting and ``AgreeingRanges`` when not. `nil` (default): ``Calibration/knowsPathLoss``. A fit from
    ///     node-to-node links (``NodeLinkCalibration``) knows the nodes' levels as heard by nodes, not by phones.
    public init(
        nodes: [Node], survey: Recording?, calibration: Calibration,
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration(),
        validation: RadioMapCrossValidation = RadioMapCrossValidation(), name: String = "auto",
        maximumMapEntries: Int = AutoMethod.maximumMapEntries, progress: LearningProgress? = nil,
        levelKnown: Bool? = nil
    ) {
        self.name = name
        let extra = survey?.truth.map(\.point) ?? []
        let grid = Self.grid(
            nodes: nodes, extra: extra, height: calibration.deviceHeight, spacing: 0.25, entries: maximumMapEntries)
        if let survey {
            let fingerprints = MethodCatalog.surveyFingerprints(
                nodes: nodes, survey: survey, configuration: configuration, calibration: calibration)
            if let outcome = validation.choose(
                nodes: nodes, fingerprints: fingerprints, calibration: calibration, grid: grid, progress: progress)
            {
                let map = RadioMap.surveyed(
                    nodes: nodes, fingerprints: fingerprints, calibration: calibration, grid: grid,
                    configuration: outcome.best.map)
                let posterior = PosteriorGrid(map: map, configuration: outcome.best.posterior, name: name)
                self.posterior = posterior
                if outcome.knnShare > 0 {
                    let knn = FingerprintKNN(fingerprints: FingerprintKNN.averagedByPosition(fingerprints), k: 3)
                    self.inner = Blend(
                        [.init(posterior, trust: 1 - outcome.knnShare), .init(knn, trust: outcome.knnShare)],
                        name: name)
                } else {
                    self.inner = posterior
                }
                self.selection = outcome
                self.sparse = nil
                self.agreement = nil
                self.sparseBelow = Self.denseMinimum
                self.lattice = nil
                self.centroidGate = nil
                self.centroidPrior = nil
                return
            }
        }
        let coarse = Self.grid(
            nodes: nodes, extra: extra, height: calibration.deviceHeight, spacing: Self.pathLossSpacing,
            entries: maximumMapEntries)
        let known = levelKnown ?? calibration.knowsPathLoss
        let posterior = PosteriorGrid(
            map: RadioMap.pathLoss(nodes: nodes, calibration: calibration, grid: coarse),
            configuration: known ? Self.calibratedConfiguration : configuration.defaultTuning.genericConfiguration,
            name: name)
        self.posterior = posterior
        // Its mean weighed on a lattice 1 m apart: within millimetres of every grid point's, ten times faster.
        let lattice = PosteriorLattice(posterior: posterior)
        self.lattice = lattice
        self.inner = lattice
        self.selection = nil
        var ranges = AgreeingRanges(deviceHeight: calibration.deviceHeight)
        if let tolerance = configuration.defaultTuning.rangesBar { ranges.tolerance = tolerance }
        self.sparse = known ? NonlinearLeastSquares(deviceHeight: calibration.deviceHeight) : ranges
        self.agreement = known ? nil : ranges
        self.sparseBelow = configuration.defaultTuning.denseMinimum ?? Self.denseMinimum
        self.centroidGate = configuration.defaultTuning.centroidGate
        self.centroidPrior = known ? nil : configuration.defaultTuning.centroidPrior
    }

    /// The grid around `nodes` and `extra` at `spacing` metres (at most 12 000 points per floor), coarser where a map
    /// over it for every node would hold more than `entries` (grid point, node) entries.
    static func grid(nodes: [Node], extra: [Point2D], height: Double?, spacing: Double, entries: Int) -> RadioMap.Grid {
        let nodeCount = max(1, nodes.count)
        var points = 12_000
        while true {
            let grid = RadioMap.Grid.around(
                nodes: nodes, extra: extra, height: height, spacing: spacing, maximumCells: points)
            // The box's edges add a row and a column beyond `points`: shrink until the whole grid fits.
            let size = Double(grid.columns * grid.rows * grid.floors.count)
            let held = size * Double(nodeCount)
            if points == 1 || held <= Double(entries) { return grid }
            points = max(1, min(points - 1, Int(Double(points) * Double(max(1, entries)) / held)))
        }
    }

    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard let sparse else { return inner.estimate(from: readings) }
        let heard = posterior.map.heard(readings)
        if let centroidPrior, let lattice {
            return gated(
                lattice.estimate(heard: heard, readings: readings, prior: centroidPrior.prior(for: readings)),
                readings: readings)
        }
        if heard.columns.count < sparseBelow, case .success(var estimate) = sparse.estimate(from: readings) {
            estimate.method = estimate.method ?? sparse.name
            return .success(estimate)
        }
        if let agreement, heard.columns.count >= sparseBelow, let estimate = agreement.agreeing(readings) {
            return .success(estimate)
        }
        if let lattice { return gated(lattice.estimate(heard: heard, readings: readings), readings: readings) }
        return gated(inner.estimate(from: readings), readings: readings)
    }

    /// `answer`, or the weighted centroid of the strongest readings (named so) where ``centroidGate`` is set and the
    /// answer lies farther from it than the gate times the centroid's radius.
    func gated(_ answer: Result<Estimate, NoFix>, readings: [NodeReading]) -> Result<Estimate, NoFix> {
        guard let centroidGate, case .success(let estimate) = answer else { return answer }
        let centroid = WeightedCentroid()
        guard case .success(var near) = centroid.estimate(from: readings),
            estimate.position.horizontal.distance(to: near.position.horizontal) > centroidGate * near.accuracy
        else { return answer }
        near.method = centroid.name
        return .success(near)
    }
}
