import Foundation
import IndoorModel

/// Records a site survey on the phone (or tag) being carried: the sightings it hears and the marks its user taps on
/// the plan (where they are at each turn or doorway, or a spot they stand at), into a ``Recording`` that a
/// ``LocationSession`` learns from, or a dataset folder's `train/` files that `indoor evaluate` and the server take.
///
/// ```swift
/// var recorder = SurveyRecorder(device: "phone-anna", startedAt: now)
/// recorder.record(sighting)                                   // each sighting the app hears, as it hears it
/// try recorder.mark(Point2D(x: 2, y: 3), floor: 0, at: now)   // the user taps where they are
/// try recorder.mark(Point2D(x: 9, y: 3), floor: 0, at: now + 8, hold: 10)  // and stands there for 10 s
/// try recorder.stop(at: now + 20)
/// let survey = try recorder.recording()                      // sightings and truth, for the session's `survey`
/// ```
///
/// Between consecutive marks the truth is interpolated at constant speed (``SurveyMark/truth(device:marks:step:)``).
/// Only the recorded device's sightings between the start and the stop are kept, at most ``maximumSightings`` (the
/// rest counted in ``droppedSightings``), so memory stays bounded however long a recording runs.
public struct SurveyRecorder: Sendable {
    /// The device carried, as its sightings name it.
    public let device: String
    /// When the recording started, seconds on the sightings' clock.
    public let startedAt: Double
    /// When it stopped, or `nil` while it runs.
    public private(set) var stoppedAt: Double?
    /// The marks so far, in time order.
    public private(set) var marks: [SurveyMark] = []
    /// The device's sightings kept so far, in the order heard.
    public private(set) var sightings: [Sighting] = []
    /// Sightings of the device not kept: beyond ``maximumSightings``.
    public private(set) var droppedSightings = 0
    /// The most sightings kept (default 500 000: about three hours of ten nodes heard five times a second).
    public var maximumSightings: Int

    /// A recording of `device` from `startedAt` seconds.
    public init(device: String, startedAt: Double, maximumSightings: Int = 500_000) {
        self.device = device
        self.startedAt = startedAt
        self.maximumSightings = max(0, maximumSightings)
    }

    /// Keeps `sighting` when it is of the recorded device, heard while the recording runs; answers whether it did.
    @discardableResult
    public mutating func record(_ sighting: Sighting) -> Bool {
        guard sighting.device == device, sighting.time >= startedAt, stoppedAt.map({ sighting.time <= $0 }) ?? true
        else { return false }
        guard sightings.count < maximumSightings else {
            droppedSightings += 1
            return false
        }
        sightings.append(sighting)
        return true
    }

    /// Marks that the device is at `point` (metres) on `floor` at `time` seconds, and stood there for `hold` seconds.
    /// - Throws: ``SurveyError`` (``SurveyError/Code/badMark``) for a time or point that is not finite, a negative
    ///   hold, a time before the start or the previous mark's end, or a mark after the stop.
    public mutating func mark(_ point: Point2D, floor: Int? = nil, at time: Double, hold: Double = 0)
        throws(SurveyError)
    {
        guard stoppedAt == nil else { throw SurveyError(.stopped, "the recording of '\(device)' has stopped") }
        guard time.isFinite, point.x.isFinite, point.y.isFinite else {
            throw SurveyError(.badMark, "a mark needs a finite time and point")
        }
        guard hold.isFinite, hold >= 0 else {
            throw SurveyError(.badMark, "hold \(hold) s: a hold is 0 or more seconds")
        }
        let earliest = marks.last.map { $0.time + $0.hold } ?? startedAt
        guard time >= earliest else {
            throw SurveyError(
                .badMark,
                "a mark at \(DatasetCSV.number(time)) s is before \(DatasetCSV.number(earliest)) s (the "
                    + (marks.isEmpty ? "recording's start" : "previous mark's end") + "): marks come in time order")
        }
        marks.append(SurveyMark(time: time, point: point, floor: floor, hold: hold))
    }

    /// Stops the recording at `time` seconds.
    /// - Throws: ``SurveyError`` (``SurveyError/Code/noMarks``) when nothing was marked (a survey needs to know where the
    ///   device was), (``SurveyError/Code/stopped``) when it has stopped already, (``SurveyError/Code/badMark``) for
    ///   a time before the last mark's end.
    public mutating func stop(at time: Double) throws(SurveyError) {
        guard stoppedAt == nil else { throw SurveyError(.stopped, "the recording of '\(device)' has stopped") }
        guard let last = marks.last else {
            throw SurveyError(.noMarks, "the recording of '\(device)' has no mark: tap where the device is first")
        }
        guard time.isFinite, time >= last.time + last.hold else {
            throw SurveyError(.badMark, "the stop at \(DatasetCSV.number(time)) s is before the last mark's end")
        }
        stoppedAt = time
        sightings.removeAll { $0.time > time }
    }

    /// The truth rows the marks give (every `step` seconds between marks).
    public func truth(step: Double = 0.5) -> [TruthPoint] {
        SurveyMark.truth(device: device, marks: marks, step: step)
    }

    /// The survey: the device's sightings from its first mark to its last mark's end (where the truth is known) and
    /// the truth rows.
    /// - Throws: ``SurveyError`` (``SurveyError/Code/noMarks``) without marks, (``SurveyError/Code/notHeard``) when
    ///   the device was not heard between its first and last marks.
    public func recording(step: Double = 0.5) throws(SurveyError) -> Recording {
        guard let first = marks.first, let last = marks.last else {
            throw SurveyError(.noMarks, "the recording of '\(device)' has no mark")
        }
        let end = last.time + last.hold
        let heard = sightings.filter { $0.time >= first.time && $0.time <= end }
        guard !heard.isEmpty else {
            throw SurveyError(
                .notHeard,
                "'\(device)' was not heard between the first and the last mark: is the device id the one the "
                    + "sightings name?")
        }
        return Recording(sightings: heard, truth: truth(step: step))
    }

    /// The survey as a dataset folder's files, path → text: `train/sightings.csv` and `train/truth.csv` (FORMAT.md's
    /// layout), and `nodes.csv` when `nodes` are given.
    public func datasetFiles(nodes: [Node] = [], step: Double = 0.5) throws(SurveyError) -> [String: String] {
        let survey = try recording(step: step)
        var files = [
            "train/sightings.csv": DatasetCSV.sightingsText(survey.sightings),
            "train/truth.csv": DatasetCSV.truthText(survey.truth),
        ]
        if !nodes.isEmpty { files["nodes.csv"] = DatasetCSV.nodesText(nodes) }
        return files
    }
}

/// A survey recording that cannot go on as asked, with a code to compare and a message that says why.
public struct SurveyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Hashable, Sendable {
        /// A mark or stop time that cannot be taken (not finite, out of order, a negative hold).
        case badMark
        /// The recording has no mark.
        case noMarks
        /// The device was not heard while it was marked.
        case notHeard
        /// The recording has stopped.
        case stopped
    }

    /// What went wrong.
    public var code: Code
    /// Why, for people.
    public var message: String

    /// An error of `code` saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
