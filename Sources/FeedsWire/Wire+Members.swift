import FeedsAPI
import FeedsCore
import Foundation

extension Wire {
    /// A feed member as Stream's `FeedMemberResponse` shows it.
    package static func feedMember(_ member: FeedMember) throws -> Components.Schemas.FeedMemberResponse {
        Components.Schemas.FeedMemberResponse(
            createdAt: WireTime.nanoseconds(member.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(member.custom)),
            inviteAcceptedAt: member.inviteAcceptedAt.map(WireTime.nanoseconds),
            inviteRejectedAt: member.inviteRejectedAt.map(WireTime.nanoseconds),
            membershipLevel: try member.membershipLevel.map(membershipLevel),
            role: member.role,
            status: .init(rawValue: member.status.rawValue) ?? .member,
            updatedAt: WireTime.nanoseconds(member.updatedAt),
            user: try user(member.user))
    }
}

extension Wire {
    /// A membership level as Stream's `MembershipLevelResponse` shows it.
    package static func membershipLevel(_ level: MembershipLevel) throws -> Components.Schemas.MembershipLevelResponse {
        Components.Schemas.MembershipLevelResponse(
            createdAt: WireTime.nanoseconds(level.createdAt),
            custom: .init(additionalProperties: try FreeForm.containers(level.custom)),
            description: level.description,
            id: level.id,
            name: level.name,
            priority: Int32(clamping: level.priority),
            tags: level.tags,
            updatedAt: WireTime.nanoseconds(level.updatedAt))
    }
}

extension Wire {
    /// Members where a hand-written reply carries them (GetOrCreateFeed's `members`).
    package static func encoded(_ members: [FeedMember]) throws -> [UInt8] {
        try encodedArray(try members.map(feedMember))
    }

    /// An array of generated values as their encoder writes it, for a hand-written reply that
    /// embeds them, so each shape has one definition. Empty (most feeds) needs no encoder.
    static func encodedArray<Value: Encodable>(_ values: [Value]) throws -> [UInt8] {
        guard !values.isEmpty else { return Array("[]".utf8) }
        return try encodedValue(values)
    }

    /// One generated value as its encoder writes it.
    package static func encodedValue<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// The viewer's `own_capabilities` on a feed, as the generated enum spells them.
    package static func ownCapabilities(_ viewer: Principal, on feed: Feed) -> [Components.Schemas.FeedOwnCapability] {
        FeedCapabilities.of(viewer, on: feed, grants: .inForce)
            .compactMap(Components.Schemas.FeedOwnCapability.init(rawValue:))
    }
}
