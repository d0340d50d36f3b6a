import Foundation

/// Reads `name` and `filename` from a part's `Content-Disposition: form-data; name="x"; filename="y"`.
enum ContentDisposition {
    static func nameAndFileName(_ header: String?) -> (name: String?, fileName: String?) {
        guard let header else { return (nil, nil) }
        var name: String?
        var fileName: String?
        for parameter in header.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingHeaderSpace().lowercased()
            var value = String(pair[1].trimmingHeaderSpace())
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            switch key {
            case "name": name = value
            case "filename": fileName = value
            default: break
            }
        }
        return (name, fileName)
    }
}
