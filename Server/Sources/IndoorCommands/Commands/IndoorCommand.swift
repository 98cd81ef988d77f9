import ArgumentParser

/// The `indoor` command: the command-line front end of the Indoor engine.
///
/// An `AsyncParsableCommand`, so that `indoor serve` and `indoor gateway` run their async work on the Swift runtime's
/// executor (`await IndoorCommand.main()`); the other subcommands are synchronous.
public struct IndoorCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "indoor",
        abstract: "Beacon-based indoor positioning: simulate, evaluate, decode, locate.",
        version: "0.1.0",
        subcommands: [
            DemoCommand.self,
            SimulateCommand.self,
            EvaluateCommand.self,
            CalibrateCommand.self,
            DecodeCommand.self,
            VenueCommand.self,
            ReplayCommand.self,
            ScanCommand.self,
            ServeCommand.self,
            GatewayCommand.self,
            ForgetCommand.self,
            ExportCommand.self,
            SurveyCommand.self,
            ReportCommand.self,
        ]
    )

    public init() {}
}
