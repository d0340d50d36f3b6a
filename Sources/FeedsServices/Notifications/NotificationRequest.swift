/// A write's `create_notification_activity`: a notification is asked for, copying the write's
/// custom data (`copy_custom_to_notification`) or not, and pushed unless `skip_push`.
package struct NotificationRequest: Sendable {
    package var copyCustom: Bool
    package var push: Bool

    /// Nil when the write asked for none.
    package init?(create: Bool?, copyCustom: Bool?, skipPush: Bool? = nil) {
        guard create == true else { return nil }
        (self.copyCustom, self.push) = (copyCustom ?? false, skipPush != true)
    }
}
