import MediaBytes

/// All the metadata of an ISO-BMFF / QuickTime file (MP4, M4A, M4B, M4V, MOV, 3GP): the movie's
/// and each track's `MetadataScope`, plus what sits at the file level.
///
/// Read it from an `AtomTree`, change it, and hand it to `MovieFile.save` or to
/// `MovieRewritePlanner`, which write back only what changed.
public struct MovieMetadata: Sendable, Equatable {
    /// Metadata of the movie (`moov`).
    public var movie: MetadataScope
    /// Metadata of each track (`moov/trak`), in file order.
    public var tracks: [MetadataScope]
    /// The XMP packet of a top-level `uuid` atom (BE7ACFCB-97A9-42E8-9C71-999491E3AFAC), as raw
    /// bytes; read only (an XMP packet in `moov/udta/XMP_` is a user-data item and writable).
    public internal(set) var xmp: [UInt8]?
    /// ID3v2 tags in a top-level `meta` with handler `ID32`; read only.
    public internal(set) var fileID3Tags: [ID3TagAtom]

    /// The extended type of the XMP `uuid` atom.
    public static let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]

    public init(movie: MetadataScope = MetadataScope(), tracks: [MetadataScope] = []) {
        self.movie = movie
        self.tracks = tracks
        xmp = nil
        fileID3Tags = []
    }

    /// Reads the metadata of the first `moov` of `tree`, and the file-level XMP and ID3.
    public init(tree: AtomTree) throws(AtomError) {
        self.init()
        if let moov = tree.atoms.first(where: { $0.type == "moov" }), moov.isContainer {
            movie = try MetadataScope(of: moov, in: tree)
            // By index: a `for trak in` loop copied every child of `moov`.
            for index in moov.children.indices where moov.children[index].type == "trak" && moov.children[index].isContainer {
                tracks.append(try MetadataScope(of: moov.children[index], in: tree))
            }
        }
        for atom in tree.atoms {
            if atom.type == "uuid", atom.header.extendedType == Self.xmpUUID, xmp == nil {
                xmp = Array(try tree.fieldBytes(of: atom))
            } else if atom.type == "meta", atom.isContainer, MetadataScope.handlerType(of: atom, in: tree) == "ID32" {
                fileID3Tags += try MetadataScope.id3Tags(in: atom, tree: tree)
            }
        }
    }
}
