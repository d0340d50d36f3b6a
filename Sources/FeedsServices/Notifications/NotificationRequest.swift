/// A write's `create_notification_activity`: a notification is asked for, copying the write's
/// custom data (`copy_custom_to_notification`) or not.
package struct NotificationRequest: Sendable {
    package var copyCustom: Bool

    /// Nil when the write asked for none.
    package init?(create: Bool?, copyCustom: Bool?) {
        guard create == true else { return nil }
        self.copyCustom = copyCustom ?? false
    }
}
