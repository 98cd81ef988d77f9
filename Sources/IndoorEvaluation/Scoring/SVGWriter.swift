/// A tiny SVG document builder: shapes and text in user units, written out as a standalone SVG file.
///
/// Coordinates are SVG's: origin top-left, y down. Text is escaped; numbers are written with at most
/// two decimals so that output is stable and small.
struct SVGWriter: Sendable {
    /// The document width, SVG user units (pixels).
    let width: Double
    /// The document height, SVG user units (pixels).
    let height: Double
    private var elements: [String] = []

    /// An empty document of `width` × `height` user units.
    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A straight line.
    mutating func line(
        x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width strokeWidth: Double = 1,
        dashed: Bool = false
    ) {
        var element = "<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" "
        element +=
            "y2=\"\(Self.number(y2))\" stroke=\"\(Self.escape(stroke))\" stroke-width=\"\(Self.number(strokeWidth))\""
        if dashed { element += " stroke-dasharray=\"4 3\"" }
        elements.append(element + "/>")
    }

    /// An open polyline through `points` (x, y).
    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width strokeWidth: Double = 2) {
        let list = points.map { "\(Self.number($0.x)),\(Self.number($0.y))" }.joined(separator: " ")
        elements.append(
            "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(Self.escape(stroke))\" "
                + "stroke-width=\"\(Self.number(strokeWidth))\" stroke-linejoin=\"round\"/>")
    }

    /// A rectangle.
    mutating func rectangle(
        x: Double, y: Double, width rectWidth: Double, height rectHeight: Double, fill: String,
        stroke: String? = nil
    ) {
        var element = "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(rectWidth))\" "
        element += "height=\"\(Self.number(rectHeight))\" fill=\"\(Self.escape(fill))\""
        if let stroke { element += " stroke=\"\(Self.escape(stroke))\"" }
        elements.append(element + "/>")
    }

    /// How text is placed relative to its point.
    enum Anchor: String, Sendable {
        case start, middle, end
    }

    /// Text with its baseline at (x, y), optionally rotated by `rotation` degrees about that point.
    mutating func text(
        _ content: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start, rotation: Double = 0,
        bold: Bool = false
    ) {
        var element = "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" font-size=\"\(Self.number(size))\" "
        element += "text-anchor=\"\(anchor.rawValue)\" font-family=\"sans-serif\" fill=\"#222\""
        if bold { element += " font-weight=\"bold\"" }
        if rotation != 0 {
            element += " transform=\"rotate(\(Self.number(rotation)) \(Self.number(x)) \(Self.number(y)))\""
        }
        elements.append(element + ">\(Self.escape(content))</text>")
    }

    /// The complete SVG document.
    var document: String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.number(width))\" "
        text += "height=\"\(Self.number(height))\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\">\n"
        text +=
            "<rect x=\"0\" y=\"0\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" fill=\"white\"/>\n"
        for element in elements { text += element + "\n" }
        return text + "</svg>\n"
    }

    /// A number with at most two decimals, no trailing zeros (exponent form beyond ±1e12).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        guard abs(value) < 1e12 else { return "\(value)" }
        let hundredths = (value * 100).rounded()
        let whole = Int64(hundredths) / 100
        let fraction = abs(Int64(hundredths) % 100)
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        if fraction == 0 { return "\(sign)\(whole)" }
        let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(sign)\(whole).\(digits)"
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
