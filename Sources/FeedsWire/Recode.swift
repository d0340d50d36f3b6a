import Foundation

/// Moves a value between two Codable shapes of the same JSON (our `JSONObject` and the
/// generated payload types).
package func recode<Target: Decodable>(_ value: some Encodable, as _: Target.Type = Target.self) throws -> Target {
    try JSONDecoder().decode(Target.self, from: try JSONEncoder().encode(value))
}
