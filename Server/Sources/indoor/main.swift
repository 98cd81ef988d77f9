import IndoorCommands

IndoorCommand.main()
