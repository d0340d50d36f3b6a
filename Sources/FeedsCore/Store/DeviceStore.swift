import Logging

/// Where users' push devices and push settings live. A user registers, lists and removes only
/// their own; the server names the user.
public protocol DeviceStore: Sendable {
    /// Registers `device` for its user (again: unchanged); a token another user held moves to
    /// this one, and past `Device.maxPerUser` the user's oldest goes.
    func addDevice(_ device: Device, logger: Logger) async throws

    /// `user`'s devices, newest first.
    func devices(of user: String, logger: Logger) async throws -> [Device]

    /// Removes `user`'s device `id`; not found when they have none of that id.
    func deleteDevice(_ id: String, of user: String, logger: Logger) async throws

    /// Each user's push settings (the defaults for one who set none).
    func pushPreferences(of users: [String], logger: Logger) async throws -> [String: PushPreferences]

    /// The followers to tell about activity `id` (`FollowerPush`), other than its author and
    /// users blocked either way with them, in recipient order after `after`, at most `limit` (a
    /// recipient's devices may be none, when they were removed between two reads).
    func followerPushes(of id: String, after: String?, limit: Int, logger: Logger) async throws -> [FollowerPush]

    /// Replaces each user's push settings, all or none (a user that does not exist is made).
    func setPushPreferences(_ preferences: [String: PushPreferences], logger: Logger) async throws
}
