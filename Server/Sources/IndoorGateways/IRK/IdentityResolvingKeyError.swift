/// An identity resolving key that cannot be read, with a message naming the device and what is wrong.
public struct IdentityResolvingKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device the key was given for, when it was given in a table (`[device: key]`).
    public var device: String?
    /// One line, such as `IRK of device 'phone' has 31 hex digits; an IRK is 32 hex digits (16 bytes)`.
    public var message: String

    /// An error about the key of `device` (nil when the key stands alone).
    public init(device: String?, message: String) {
        self.device = device
        self.message = message
    }

    public var description: String { message }
}
