/// What a web page says about itself for link previews: its Open Graph (`og:`) and Twitter card
/// `<meta>` tags, and its `<title>`. Read by a scanner of tags, not a full HTML parser: only the
/// page's first megabyte comes in, and only `<meta>` and `<title>` are looked at.
public struct OpenGraph: Sendable, Equatable {
    public var title: String?
    public var description: String?
    public var image: String?
    public var siteName: String?
    public var type: String?
    public var url: String?

    /// Longest a field is kept (characters).
    static let maxField = 1000

    public init(
        title: String? = nil, description: String? = nil, image: String? = nil, siteName: String? = nil, type: String? = nil,
        url: String? = nil
    ) {
        (self.title, self.description, self.image, self.siteName, self.type, self.url) = (title, description, image, siteName, type, url)
    }

    /// The tags of `html`; the `og:` ones win over the Twitter ones and `<title>`.
    public static func parse(_ html: String) -> OpenGraph {
        var tags: [String: String] = [:]
        var title: String?
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            let name = rest.prefix { $0.isLetter }.lowercased()
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[rest.index(after: close)...]
            if name == "meta" {
                let attributes = Self.attributes(tag.dropFirst(4))
                if let key = (attributes["property"] ?? attributes["name"])?.lowercased(), let content = attributes["content"],
                    tags[key] == nil
                {
                    tags[key] = content
                }
            } else if name == "title", title == nil, let end = rest.range(of: "</title", options: .caseInsensitive) {
                title = String(rest[..<end.lowerBound])
            } else if name == "body" {
                break
            }
        }
        func field(_ names: String...) -> String? {
            for name in names {
                if let value = tags[name].map(Self.decoded)?.trimmed, !value.isEmpty { return String(value.prefix(maxField)) }
            }
            return nil
        }
        return OpenGraph(
            title: field("og:title", "twitter:title") ?? title.map(Self.decoded)?.trimmed.map { String($0.prefix(maxField)) },
            description: field("og:description", "twitter:description", "description"),
            image: field("og:image:secure_url", "og:image", "og:image:url", "twitter:image", "twitter:image:src"),
            siteName: field("og:site_name"), type: field("og:type"), url: field("og:url"))
    }

    /// A tag's attributes, names lowercased: `name="value"`, `name='value'` or `name=value`.
    static func attributes(_ text: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "/" }
            let name = rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != "/" }
            guard !name.isEmpty else { break }
            rest = rest.dropFirst(name.count).drop(while: \.isWhitespace)
            guard rest.first == "=" else {
                attributes[name.lowercased()] = attributes[name.lowercased()] ?? ""
                continue
            }
            rest = rest.dropFirst().drop(while: \.isWhitespace)
            let value: Substring
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let body = rest.dropFirst()
                let end = body.firstIndex(of: quote) ?? body.endIndex
                value = body[..<end]
                rest = end < body.endIndex ? body[body.index(after: end)...] : body[end...]
            } else {
                value = rest.prefix { !$0.isWhitespace }
                rest = rest.dropFirst(value.count)
            }
            if attributes[name.lowercased()] == nil { attributes[name.lowercased()] = String(value) }
        }
        return attributes
    }

    /// The text with HTML's character references replaced (named: the five of XML and `nbsp`).
    static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            guard let semi = rest.prefix(12).firstIndex(of: ";") else {
                out.append("&")
                rest = rest.dropFirst()
                continue
            }
            let entity = rest[rest.index(after: rest.startIndex)..<semi]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
            if let value = named[String(entity)] {
                out += value
            } else if entity.hasPrefix("#"), let code = entity.hasPrefix("#x") || entity.hasPrefix("#X")
                ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst()),
                let scalar = Unicode.Scalar(code), code != 0
            {
                out.unicodeScalars.append(scalar)
            } else {
                out += rest[...semi]
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}

extension String {
    fileprivate var trimmed: String? {
        let text = self.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        return text
    }
}
