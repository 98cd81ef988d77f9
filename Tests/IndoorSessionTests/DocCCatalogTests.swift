import Foundation
import IndoorTestSupport
import Testing

/// Each app-facing product's DocC catalog (`Sources/<Target>/<Target>.docc/<Target>.md`) lists its public API by
/// topic: every public top-level declaration of the target exactly once, and no symbol that is not one.
@Suite("DocC catalogs")
struct DocCCatalogTests {
    static let products = [
        "IndoorModel", "IndoorAdvertising", "IndoorRanging", "IndoorPositioning", "IndoorGeofencing",
        "IndoorSession", "IndoorCoreLocation",
    ]

    /// The name a top-level line declares when it is `public` or `open` (`public struct Venue: …` → `Venue`);
    /// nil for anything else: indented lines, extensions, other access levels, and declarations of a system
    /// programming interface (`@_spi(…)`), which only the project's own packages import.
    static func publicTopLevelName(_ line: Substring) -> Substring? {
        guard let first = line.first, !first.isWhitespace, !line.hasPrefix("@_spi(") else { return nil }
        var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
        while let word = words.first, word.hasPrefix("@") { words = words.dropFirst() }
        guard let access = words.popFirst(), access == "public" || access == "open" else { return nil }
        if words.first == "final" { words = words.dropFirst() }
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "actor", "typealias", "func", "let", "var"]
        guard let kind = words.popFirst(), kinds.contains(kind), let rest = words.first else { return nil }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return name.isEmpty ? nil : name
    }

    /// The public top-level names declared in the Swift files under `Sources/<target>`, with the files.
    static func publicTopLevelNames(of target: String) throws -> [Substring: [String]] {
        let folder = RepositoryFiles.url("Sources/\(target)")
        var names: [Substring: [String]] = [:]
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if let name = publicTopLevelName(line) { names[name, default: []].append(file.lastPathComponent) }
            }
        }
        return names
    }

    /// The symbols the catalog lists in its topics (`- ``Venue```), without links into members or other modules.
    static func listedSymbols(of target: String) throws -> [Substring] {
        let catalog = RepositoryFiles.url("Sources/\(target)/\(target).docc/\(target).md")
        let text = try String(contentsOf: catalog, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Substring? in
            let trimmed = line.drop { $0.isWhitespace }
            guard trimmed.hasPrefix("- ``"), trimmed.hasSuffix("``") else { return nil }
            let symbol = trimmed.dropFirst(4).dropLast(2)
            return symbol.contains("/") ? nil : symbol
        }
    }

    @Test func theDeclarationParserFindsPublicTopLevelNames() {
        #expect(Self.publicTopLevelName("public struct Venue: Codable {") == "Venue")
        #expect(Self.publicTopLevelName("@MainActor public final class Source {") == "Source")
        #expect(Self.publicTopLevelName("public enum Btsnoop {") == "Btsnoop")
        #expect(Self.publicTopLevelName("package struct CSVRow {") == nil)
        #expect(Self.publicTopLevelName("struct Hidden {") == nil)
        #expect(Self.publicTopLevelName("@_spi(IndoorPackages) public struct JSONByteScanner {") == nil)
        #expect(Self.publicTopLevelName("    public var nested: Int") == nil)
        #expect(Self.publicTopLevelName("public extension Venue {") == nil)
    }

    @Test(arguments: products)
    func theCatalogListsEveryPublicTopLevelSymbolOnce(target: String) throws {
        let declared = try Self.publicTopLevelNames(of: target)
        let listed = try Self.listedSymbols(of: target)
        #expect(!declared.isEmpty, "no public declaration found in Sources/\(target)")
        var counts: [Substring: Int] = [:]
        for symbol in listed { counts[symbol, default: 0] += 1 }
        for (name, files) in declared.sorted(by: { $0.key < $1.key }) {
            #expect(
                counts[name] == 1,
                "\(target).docc lists ``\(name)`` \(counts[name] ?? 0) times (declared public in \(files.joined(separator: ", ")))"
            )
        }
        for symbol in counts.keys.sorted() where declared[symbol] == nil {
            Issue.record("\(target).docc lists ``\(symbol)``, which is not a public top-level symbol of \(target)")
        }
    }
}
