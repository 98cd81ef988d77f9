import IndoorCommands

/// The `indoor` executable: `IndoorCommand` run asynchronously (`indoor serve` and `indoor gateway` are asynchronous
/// commands). An `@main` type rather than top-level code, where the synchronous `main()` would be chosen.
@main
enum IndoorMain {
    static func main() async {
        await IndoorCommand.main()
    }
}
