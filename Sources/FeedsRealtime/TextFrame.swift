import NIOCore

/// A whole WebSocket text frame, header and all, as a server sends it (unmasked): the hub makes
/// one per event and every socket writes the same bytes, past the frame encoder.
package enum TextFrame {
    package static func make(_ payload: some Collection<UInt8>) -> ByteBuffer {
        var frame = ByteBuffer()
        frame.reserveCapacity(payload.count + 10)
        frame.writeInteger(UInt8(0x81))  // FIN, text
        switch payload.count {
        case ..<126: frame.writeInteger(UInt8(payload.count))
        case ...0xFFFF:
            frame.writeInteger(UInt8(126))
            frame.writeInteger(UInt16(payload.count))
        default:
            frame.writeInteger(UInt8(127))
            frame.writeInteger(UInt64(payload.count))
        }
        frame.writeBytes(payload)
        return frame
    }
}
