/// A follower to tell about a new activity: the owner of a feed that follows one of the
/// activity's feeds with `push_preference` `all`, who may read it, with their enabled devices.
public struct FollowerPush: Sendable, Equatable {
    public var recipient: String
    /// The followed feed the activity is in.
    public var feed: String
    public var devices: [Device]

    public init(recipient: String, feed: String, devices: [Device]) {
        (self.recipient, self.feed, self.devices) = (recipient, feed, devices)
    }

    /// How many followers one read of them takes.
    public static let page = 500
}
