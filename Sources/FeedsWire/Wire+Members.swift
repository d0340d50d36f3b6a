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
            role: member.role,
            status: .init(rawValue: member.status.rawValue) ?? .member,
            updatedAt: WireTime.nanoseconds(member.updatedAt),
            user: try user(member.user))
    }
}

extension Wire {
    /// Members where a hand-written reply carries them (GetOrCreateFeed's `members`): the
    /// generated encoder's bytes of `feedMember`, so the shape has one definition.
    package static func encoded(_ members: [FeedMember]) throws -> [UInt8] {
        guard !members.isEmpty else { return Array("[]".utf8) }  // most feeds: no encoder for them
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(try members.map(feedMember)))
    }
}
