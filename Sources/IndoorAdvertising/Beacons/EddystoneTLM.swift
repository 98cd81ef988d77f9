/// An unencrypted Eddystone-TLM (telemetry) frame.
///
/// Layout after the service UUID (14 bytes, big-endian): frame type `20`, version `00`, battery voltage
/// (mV, 0 when not supported), temperature (°C, signed 8.8 fixed point, 0x8000 when not supported),
/// advertising PDU count since power-on, and time since power-on in units of 0.1 s.
/// TLM carries no identity: a decoder attaches it to the beacon heard from the same address.
public struct EddystoneTLM: Hashable, Sendable {
    /// Battery voltage in millivolts; 0 means not supported.
    public var batteryMillivolts: UInt16
    /// The raw signed 8.8 temperature; 0x8000 (−128 °C) means not supported.
    public var temperatureRaw: Int16
    /// Advertising PDUs sent since power-on or reboot.
    public var advertisementCount: UInt32
    /// Time since power-on or reboot, in units of 0.1 s.
    public var uptimeTenths: UInt32

    /// A TLM frame: battery in mV, raw signed 8.8 °C, PDU count, uptime in 0.1 s units.
    public init(batteryMillivolts: UInt16, temperatureRaw: Int16, advertisementCount: UInt32, uptimeTenths: UInt32) {
        self.batteryMillivolts = batteryMillivolts
        self.temperatureRaw = temperatureRaw
        self.advertisementCount = advertisementCount
        self.uptimeTenths = uptimeTenths
    }

    /// The temperature in degrees Celsius, nil when the beacon does not measure it (0x8000).
    public var temperatureCelsius: Double? {
        temperatureRaw == Int16.min ? nil : Double(temperatureRaw) / 256
    }

    /// Time since power-on, seconds.
    public var uptimeSeconds: Double { Double(uptimeTenths) / 10 }

    /// Decodes an Eddystone frame (frame type byte first); nil when it is not a plain (version 0) TLM frame.
    public init?(frame: [UInt8]) {
        guard let value = frame.withUnsafeBytes({ EddystoneTLM.decode($0) }) else { return nil }
        self = value
    }

    static func decode(_ frame: UnsafeRawBufferPointer) -> EddystoneTLM? {
        guard frame.count == 14, frame[0] == Eddystone.tlmFrame, frame[1] == 0 else { return nil }
        return EddystoneTLM(
            batteryMillivolts: frame.u16be(2), temperatureRaw: Int16(bitPattern: frame.u16be(4)),
            advertisementCount: frame.u32be(6), uptimeTenths: frame.u32be(10))
    }

    /// The 14 frame bytes (frame type first).
    public var frame: [UInt8] {
        var bytes: [UInt8] = [Eddystone.tlmFrame, 0]
        bytes.appendU16BE(batteryMillivolts)
        bytes.appendU16BE(UInt16(bitPattern: temperatureRaw))
        bytes.appendU32BE(advertisementCount)
        bytes.appendU32BE(uptimeTenths)
        return bytes
    }

    /// Complete advertising data: flags, service UUID list and the service data.
    public var advertisingData: [UInt8] { Eddystone.advertisingData(frame: frame) }
}
