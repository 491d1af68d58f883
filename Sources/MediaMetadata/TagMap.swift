/// The uniform tags of a file, TagLib's property map: each key with its values. Keys are
/// upper case and looked up without regard to case (`tags["title"]` is `tags["TITLE"]`), as
/// `values(_:)` and `set(_:_:)` take them. Iterates as `(key, value)` pairs in no set order
/// (sort by key for a stable listing).
public struct TagMap: Sequence, Hashable, Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The tags as a dictionary keyed by upper-case key.
    public private(set) var dictionary: [String: [String]]

    public init(_ dictionary: [String: [String]] = [:]) {
        // Keys the key space made are upper case already (ASCII without a lower-case letter).
        if dictionary.keys.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) } }) {
            self.dictionary = dictionary
            return
        }
        self.dictionary = [:]
        for (key, values) in dictionary { self.dictionary[key.uppercased(), default: []] += values }
    }

    public init(dictionaryLiteral elements: (String, [String])...) {
        self.init(Dictionary(elements, uniquingKeysWith: +))
    }

    /// The values of `key` (any case); setting nil removes the key.
    public subscript(key: String) -> [String]? {
        get { dictionary[key.uppercased()] }
        set { dictionary[key.uppercased()] = newValue }
    }

    public subscript(key: MetadataKey) -> [String]? {
        get { dictionary[key.rawValue] }
        set { dictionary[key.rawValue] = newValue }
    }

    public var keys: Dictionary<String, [String]>.Keys { dictionary.keys }
    public var count: Int { dictionary.count }
    public var isEmpty: Bool { dictionary.isEmpty }

    public func makeIterator() -> Dictionary<String, [String]>.Iterator { dictionary.makeIterator() }
    /// Every key: an array made of the tags (`sorted`, `map`) is allocated once at its size,
    /// not grown step by step from empty.
    public var underestimatedCount: Int { dictionary.count }

    public var description: String { dictionary.sorted { $0.key < $1.key }.description }

    public static func == (tags: TagMap, dictionary: [String: [String]]) -> Bool { tags == TagMap(dictionary) }
}
