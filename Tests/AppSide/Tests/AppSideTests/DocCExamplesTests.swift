import Foundation
import Testing

/// The DocC catalogs' Swift examples are compiled (DocCExamples.swift) as the catalogs show them, and this package
/// uses the products as an app does.
@Suite("App side: DocC examples")
struct DocCExamplesTests {
    /// The repository's root: the nearest folder above this file that holds `Sources/IndoorSession`.
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Sources/IndoorSession").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    /// This test target's folder.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The `*.md` files of every DocC catalog under `Sources/`, by path from the root.
    static func catalogArticles() throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        var articles: [String] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let targetFolder = sources.appendingPathComponent(target)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: targetFolder.path)) ?? []
            for catalog in entries.sorted() where catalog.hasSuffix(".docc") {
                let files = try FileManager.default.contentsOfDirectory(
                    atPath: targetFolder.appendingPathComponent(catalog).path)
                for file in files.sorted() where file.hasSuffix(".md") {
                    articles.append("Sources/\(target)/\(catalog)/\(file)")
                }
            }
        }
        return articles
    }

    /// The fenced ```swift blocks of `text`, each as its lines.
    static func swiftBlocks(_ text: String) -> [[Substring]] {
        var blocks: [[Substring]] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```swift" { current = [] }
            } else if trimmed == "```" {
                blocks.append(current ?? [])
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Whether `source` shows `block`: its `import` lines are lines of `source`, and its other lines, without the
    /// blank lines around them, appear in `source` in one piece, each indented by the same number of spaces.
    static func shows(_ source: String, _ block: [Substring]) -> Bool {
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let imports = block.filter { $0.hasPrefix("import ") }
        guard imports.allSatisfy({ sourceLines.contains(String($0)) }) else { return false }
        var body = Array(block.filter { !$0.hasPrefix("import ") })
        while body.first?.isEmpty == true { body.removeFirst() }
        while body.last?.isEmpty == true { body.removeLast() }
        guard !body.isEmpty else { return true }
        return stride(from: 0, through: 16, by: 4).contains { indent in
            let prefix = String(repeating: " ", count: indent)
            let indented = body.map { $0.isEmpty ? "" : prefix + $0 }.joined(separator: "\n")
            return source.contains("\n" + indented + "\n")
        }
    }

    @Test("The block matcher: imports among the file's, the rest verbatim at one indentation")
    func theMatcherIsStrict() {
        let source = "import A\nimport B\n\nfunc f() {\n    let x = 1\n\n    print(x)\n}\n"
        #expect(Self.shows(source, ["import B", "", "let x = 1", "", "print(x)"]))
        #expect(!Self.shows(source, ["import C", "let x = 1"]))
        #expect(!Self.shows(source, ["let x = 2"]))
        #expect(!Self.shows(source, ["let x = 1", "print(x)"]))
        #expect(!Self.shows(source, ["let x =  1"]))
    }

    @Test("Every Swift block of every DocC catalog is compiled as written in DocCExamples.swift")
    func everyCatalogExampleIsCompiled() throws {
        let compiled = try String(
            contentsOf: Self.folder.appendingPathComponent("DocCExamples.swift"), encoding: .utf8)
        let articles = try Self.catalogArticles()
        #expect(articles.count >= 8, "found only \(articles)")
        var count = 0
        for article in articles {
            let text = try String(contentsOf: Self.root.appendingPathComponent(article), encoding: .utf8)
            for block in Self.swiftBlocks(text) {
                count += 1
                #expect(
                    Self.shows(compiled, block),
                    "\(article): this example is not in Tests/AppSide/Tests/AppSideTests/DocCExamples.swift as written:\n\(block.joined(separator: "\n"))"
                )
            }
        }
        #expect(count >= 6, "the catalogs have \(count) Swift blocks; were the examples moved?")
    }

    @Test("This package uses the products as an app does: plain imports (no testable import), no unsafe flags")
    func plainImportsOnly() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("@" + "testable import"), "\(file) uses a testable import")
        }
        let manifest = try String(
            contentsOf: Self.folder.appendingPathComponent("../../Package.swift").standardizedFileURL, encoding: .utf8)
        #expect(!manifest.contains("unsafeFlags") && manifest.contains(#".package(name: "Indoor", path: "../..")"#))
    }
}
