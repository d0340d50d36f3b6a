import Foundation

/// A device a user registered for push (CreateDevice): its push token is its id. Stored and
/// listed; this server sends no pushes (docs/sdk-compatibility.md).
public struct Device: Sendable, Hashable {
    public enum Provider: String, Sendable, CaseIterable {
        case firebase, apn, huawei, xiaomi
    }

    /// A user keeps at most this many; a new one past it lets the oldest go.
    public static let maxPerUser = 25

    public var id: String
    public var userID: String
    public var provider: Provider
    public var providerName: String
    public var hardwareID: String
    public var voip: Bool
    public var disabled: Bool
    public var disabledReason: String
    public var createdAt: Date

    public init(
        id: String, userID: String, provider: Provider, providerName: String = "", hardwareID: String = "", voip: Bool = false,
        disabled: Bool = false, disabledReason: String = "", createdAt: Date = Date()
    ) {
        (self.id, self.userID, self.provider, self.providerName) = (id, userID, provider, providerName)
        (self.hardwareID, self.voip, self.disabled, self.disabledReason) = (hardwareID, voip, disabled, disabledReason)
        self.createdAt = createdAt
    }

    /// CreateDevice's fields, checked: an id (the push token) of 1 to 255 bytes and a known provider.
    public static func checked(
        id: String, userID: String, provider: String, providerName: String?, hardwareID: String?, voip: Bool?
    ) throws(FeedsError) -> Device {
        guard (1...255).contains(id.utf8.count) else { throw .input("id (the push token) is 1 to 255 bytes", field: "id") }
        guard let provider = Provider(rawValue: provider) else {
            throw .input("push_provider is firebase, apn, huawei or xiaomi", field: "push_provider")
        }
        for (value, field) in [(providerName, "push_provider_name"), (hardwareID, "hardware_id")] {
            if let value, value.utf8.count > 255 { throw .input("\(field) is at most 255 bytes", field: field) }
        }
        return Device(
            id: id, userID: userID, provider: provider, providerName: providerName ?? "", hardwareID: hardwareID ?? "",
            voip: voip ?? false)
    }
}
