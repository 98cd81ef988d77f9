/// What the packets in a btsnoop file are.
public enum BtsnoopDatalink: UInt32, Hashable, Sendable {
    /// HCI packets without a type byte; flags bit 0 = received, bit 1 = command or event (1001).
    case hciUnencapsulated = 1001
    /// HCI packets with the H4 type byte first, as Android's `btsnoop_hci.log` (1002).
    case hciUART = 1002
    /// Linux monitor packets, as `btmon -w` writes (2001); flags hold the adapter index and an opcode.
    case linuxMonitor = 2001
}
