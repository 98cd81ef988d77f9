import IndoorCommands

await IndoorCommand.main()
