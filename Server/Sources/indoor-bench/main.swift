import IndoorBenchmarks

BenchCommand.main()
