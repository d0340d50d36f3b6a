import FeedsAPI
import FeedsCore
import FeedsWire

/// CreateDevice, ListDevices and DeleteDevice: a user's push devices, their own; the server names
/// the user (`user_id`). Stored and listed: this server sends no pushes.
extension FeedsAPIImplementation {
    func createDevice(_ input: Operations.CreateDevice.Input) async throws -> Operations.CreateDevice.Output {
        let request = try request
        guard case .json(let body) = input.body else { throw FeedsError(.unsupportedMediaType, "expected a JSON body") }
        let user = try Self.actingUser(request, body.userId ?? body.user?.id)
        let device = try Device.checked(
            id: body.id, userID: user, provider: body.pushProvider.rawValue, providerName: body.pushProviderName,
            hardwareID: body.hardwareId, voip: body.voipToken)
        try await store.addDevice(device, logger: request.logger)
        return .created(.init(body: .json(.init(duration: request.duration))))
    }

    func listDevices(_ input: Operations.ListDevices.Input) async throws -> Operations.ListDevices.Output {
        let request = try request
        let user = try Self.actingUser(request, input.query.userId)
        let devices = try await store.devices(of: user, logger: request.logger)
        return .ok(
            .init(
                body: .json(
                    .init(
                        devices: devices.map { device in
                            .init(
                                createdAt: WireTime.nanoseconds(device.createdAt), disabled: device.disabled,
                                disabledReason: device.disabledReason, hardwareId: device.hardwareID, id: device.id,
                                pushProvider: device.provider.rawValue, pushProviderName: device.providerName,
                                userId: device.userID, voip: device.voip)
                        }, duration: request.duration))))
    }

    func deleteDevice(_ input: Operations.DeleteDevice.Input) async throws -> Operations.DeleteDevice.Output {
        let request = try request
        let user = try Self.actingUser(request, input.query.userId)
        try await store.deleteDevice(input.query.id, of: user, logger: request.logger)
        return .ok(.init(body: .json(.init(duration: request.duration))))
    }
}
