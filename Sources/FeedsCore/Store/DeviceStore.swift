import Logging

/// Where users' push devices live. A user registers, lists and removes only their own; the server
/// names the user.
public protocol DeviceStore: Sendable {
    /// Registers `device` for its user (again: unchanged); a token another user held moves to
    /// this one, and past `Device.maxPerUser` the user's oldest goes.
    func addDevice(_ device: Device, logger: Logger) async throws

    /// `user`'s devices, newest first.
    func devices(of user: String, logger: Logger) async throws -> [Device]

    /// Removes `user`'s device `id`; not found when they have none of that id.
    func deleteDevice(_ id: String, of user: String, logger: Logger) async throws
}
