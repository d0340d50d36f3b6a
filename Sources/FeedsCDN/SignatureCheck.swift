/// The verdict on a signed CDN URL's `Expires` and `Signature`. Anything but `valid` is a 403.
public enum SignatureCheck: Sendable, Hashable {
    /// Signed by us for this key, and not yet expired.
    case valid
    /// `Expires` or `Signature` is absent or empty.
    case missing
    /// Malformed, or signed for another key, expiry or secret.
    case bad
    /// Signed by us, but the expiry has passed.
    case expired
}
