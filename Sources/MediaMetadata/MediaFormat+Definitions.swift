import Carriers
import MediaBytes

extension MediaFormat {
    /// How a format's files are laid out, and so which reader shows their structure.
    public enum Structure: Sendable, Hashable, CaseIterable {
        /// ISO-BMFF / QuickTime atoms.
        case atoms
        /// MPEG audio or ADTS frames, with tags at either end.
        case mpegStream
        /// IFF chunks (AIFF, RIFF WAVE).
        case iffChunks
        /// FLAC metadata blocks before the audio frames.
        case flacBlocks
        /// Ogg pages carrying a stream's packets.
        case oggPages
        /// MPEG-2 transport packets carrying programs and their streams.
        case transportStream

        /// What the structure inspector shows of such a file, for help texts.
        public var shown: String {
            switch self {
            case .atoms: "atoms"
            case .mpegStream: "ID3 tags, stream header"
            case .iffChunks: "chunks"
            case .flacBlocks: "metadata blocks"
            case .oggPages: "pages and header packets"
            case .transportStream: "programs, streams and timed ID3"
            }
        }

        /// `MP4, M4A... files (atoms), MP3 and AAC files (ID3 tags, stream header), ...`: every
        /// structure with the formats that have it.
        public static var summary: String {
            let parts = allCases.compactMap { structure -> String? in
                let names = MediaFormat.names { $0.structure == structure }
                return names.isEmpty ? nil : "\(names) files (\(structure.shown))"
            }
            guard parts.count > 1 else { return parts.first ?? "" }
            return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
        }
    }

    /// Everything this package knows about one format, in one row: its names, its file name
    /// extensions, how its files are laid out, the container that reads and writes its
    /// metadata (nil for a format shown but not edited), and how its files begin. Detection,
    /// `MediaFile`, the folder walks, the structure inspector and the tools' messages read this
    /// table; a new format is a row here.
    public struct Definition: Sendable {
        public let format: MediaFormat
        /// The names it goes by in lists for people, first the main one (`MP4`, `M4A`).
        public let names: [String]
        /// File name extensions, lower case, without the dot.
        public let extensions: [String]
        public let structure: Structure
        /// The container that reads and writes its metadata; nil when it has none to edit.
        let container: (any MetadataContainer.Type)?
        /// True when a file's first bytes are one of this format's (`MediaFormat.detect`).
        let recognizes: @Sendable (ArraySlice<UInt8>) -> Bool
        /// True when its files may begin with ID3v2 tags (MP3, AAC, FLAC): detection looks
        /// past them.
        let mayFollowID3: Bool
        /// How strong its signature is: detection tries the strongest first.
        let signature: Signature
        /// How many bytes from the start `MediaFile` reads at once when a file's name gives
        /// this format: what a typical file's metadata needs (64 KiB: a tag, a `moov`, an
        /// Ogg comment packet with its cover), fewer where the metadata says where the rest
        /// lies (FLAC's block headers: a cover is read only when asked for).
        public let headLength: Int

        init(format: MediaFormat, names: [String], extensions: [String], structure: Structure, container: (any MetadataContainer.Type)?,
             recognizes: @escaping @Sendable (ArraySlice<UInt8>) -> Bool, mayFollowID3: Bool = false, signature: Signature = .magic,
             headLength: Int = FileByteSource.headLength) {
            self.format = format
            self.names = names
            self.extensions = extensions
            self.structure = structure
            self.container = container
            self.recognizes = recognizes
            self.mayFollowID3 = mayFollowID3
            self.signature = signature
            self.headLength = headLength
        }

        /// The family of its native items; nil for a format without metadata to edit.
        public var family: MetadataFamily? { container?.family }
        /// True when its metadata can be read and written (`MediaFile` opens it).
        public var hasMetadata: Bool { container != nil }
    }

    /// How a format's files are told from others, strongest first.
    public enum Signature: Int, Sendable, Comparable, CaseIterable {
        /// A code at the start of the file (`FORM`…`AIFF`, `RIFF`…`WAVE`, `fLaC`, `OggS`, a
        /// transport stream's sync bytes 188 bytes apart).
        case magic
        /// An atom type the atom reader accepts at bytes 4-7 (and an `ftyp` brand).
        case firstAtom
        /// An MPEG audio or ADTS frame sync (12 bits, and a layer).
        case frameSync

        public static func < (lhs: Signature, rhs: Signature) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Every format, in the order lists name them.
    public static let definitions: [Definition] = [
        Definition(format: .mp4, names: ["MP4", "M4A", "M4B", "M4V"], extensions: ["mp4", "m4a", "m4b", "m4v", "m4p", "m4r"], structure: .atoms,
                   container: MovieContainer.self, recognizes: atoms(.mp4), signature: .firstAtom),
        Definition(format: .mov, names: ["MOV"], extensions: ["mov", "qt"], structure: .atoms, container: MovieContainer.self, recognizes: atoms(.mov), signature: .firstAtom),
        Definition(format: .threeGP, names: ["3GP"], extensions: ["3gp", "3g2"], structure: .atoms, container: MovieContainer.self, recognizes: atoms(.threeGP), signature: .firstAtom),
        Definition(format: .heif, names: ["HEIF"], extensions: ["heic", "heif", "avif"], structure: .atoms, container: nil, recognizes: atoms(.heif), signature: .firstAtom),
        Definition(format: .mp3, names: ["MP3"], extensions: ["mp3"], structure: .mpegStream, container: TagCarrierContainer<MPEGStreamFile>.self,
                   recognizes: frames(.mp3), mayFollowID3: true, signature: .frameSync),
        Definition(format: .aac, names: ["AAC"], extensions: ["aac"], structure: .mpegStream, container: TagCarrierContainer<MPEGStreamFile>.self,
                   recognizes: frames(.aac), mayFollowID3: true, signature: .frameSync),
        Definition(format: .aiff, names: ["AIFF"], extensions: ["aif", "aiff", "aifc"], structure: .iffChunks, container: TagCarrierContainer<IFFChunkFile>.self,
                   recognizes: iff(["FORM"], ["AIFF", "AIFC"])),
        Definition(format: .wav, names: ["WAV"], extensions: ["wav"], structure: .iffChunks, container: TagCarrierContainer<IFFChunkFile>.self,
                   recognizes: iff(["RIFF", "RF64", "BW64"], ["WAVE"])),
        Definition(format: .flac, names: ["FLAC"], extensions: ["flac"], structure: .flacBlocks, container: FLACContainer.self,
                   recognizes: FLACFile.isFLAC, mayFollowID3: true, headLength: 8 << 10),
        Definition(format: .ogg, names: ["Ogg Vorbis", "Opus", "Ogg FLAC", "Speex"], extensions: ["ogg", "oga", "opus", "spx"], structure: .oggPages,
                   container: OggContainer.self, recognizes: OggFile.isOgg),
        Definition(format: .ts, names: ["MPEG-TS"], extensions: ["ts", "m2ts", "mts"], structure: .transportStream, container: nil,
                   recognizes: TransportStreamFile.isTransportStream),
    ]

    /// This format's row; nil for a format the table does not list.
    public var definition: Definition? { Self.definitions.first { $0.format == self } }

    /// The row of the format whose extension ends the name in `path` (compared without regard
    /// to case); nil when the name has no extension or one no format lists. A name says what
    /// a file should be, not what it is: detection reads the bytes.
    public static func definition(named path: String) -> Definition? {
        let name = PathBytes.split(path).name.utf8
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let suffix = String(Substring(name[name.index(after: dot)...])).lowercased()
        return byExtension[suffix].map { definitions[$0] }
    }

    /// The index of the row that lists each extension (the first row, as a search in order
    /// finds it): one look-up per file opened instead of one per row.
    private static let byExtension: [String: Int] = {
        var map: [String: Int] = [:]
        for index in definitions.indices { for name in definitions[index].extensions where map[name] == nil { map[name] = index } }
        return map
    }()

    /// The names of the formats `include` selects, as a list for people (`MP4, M4A and MOV`).
    public static func names(where include: (Definition) -> Bool = { _ in true }) -> String {
        let names = definitions.filter(include).flatMap(\.names)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// The extensions of the formats `include` selects.
    public static func extensions(where include: (Definition) -> Bool = { _ in true }) -> Set<String> {
        Set(definitions.filter(include).flatMap(\.extensions))
    }
}
