import Foundation
import IndoorGateways
import IndoorModel

/// The file `--irks` names: identity resolving keys by device name, `{"anna-iphone": "<32 hex digits>"}`, each in
/// ESPresense's or the macOS keychain's byte order (docs/GATEWAYS.md). Read by `indoor serve`, `indoor gateway` and
/// `indoor decode`.
enum IRKFile {
    /// The keys of the file at `path`, by device name.
    /// - Throws: ``CommandFailure`` naming the file: unreadable, not such a JSON object.
    static func keys(path: String) throws -> [String: String] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("cannot read the IRK file '\(path)' (--irks): \(CommandFailure.reason(error))")
        }
        do {
            return try JSONFormat.decode([String: String].self, from: data, file: path)
        } catch {
            throw CommandFailure("\(error) (--irks expects {\"device name\": \"32 hex digits\"})")
        }
    }

    /// A resolver of the keys of the file at `path`.
    /// - Throws: ``CommandFailure`` naming the file, and the device whose key is not 32 hex digits.
    static func resolver(path: String) throws -> IRKResolver {
        let keys = try keys(path: path)
        do {
            return try IRKResolver(keys: keys)
        } catch {
            throw CommandFailure("--irks '\(path)': \(error)")
        }
    }
}
