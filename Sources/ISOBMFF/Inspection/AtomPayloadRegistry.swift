import MediaBytes

/// Which typed payload decodes an atom, given where it sits.
public enum AtomPayloadRegistry {
    /// The payload type for the atom in `context`, or nil when the atom has no decoded fields
    /// (media data, padding, unknown types, plain containers).
    public static func payloadType(for context: AtomDecodingContext) -> (any AtomPayload.Type)? {
        let atom = context.atom
        if case .sampleEntry = atom.role { return SampleEntry.self }
        if context.grandparent == "ilst" {
            switch atom.type {
            case "data": return ItemDataAtom.self
            case "mean", "name": return ItemFreeformNameAtom.self
            default: return nil
            }
        }
        if context.parent == "tref" { return SmallFieldsBox.self }
        if context.parent == "iref" { return ItemReferenceBox.self }
        if context.grandparent == "keys", ["keyd", "dtyp", "loca"].contains(atom.type) { return MetadataKeyDeclaration.self }
        if context.parent == "udta", atom.type.bytes[0] == 0xA9, atom.role == .leaf { return UserDataTextAtom.self }
        if context.parent == "udta", atom.type == "Xtra" { return XtraBox.self }
        if context.parent == "dref", atom.type == "url " || atom.type == "urn " { return DataEntryBox.self }
        switch atom.type {
        case "ftyp", "styp": return FileTypeBox.self
        case "mvhd": return MovieHeaderBox.self
        case "tkhd": return TrackHeaderBox.self
        case "mdhd": return MediaHeaderBox.self
        case "hdlr": return HandlerBox.self
        case "stsd", "dref", "iinf", "iref", "ipro": return EntryTableHeader.self
        case "meta": return atom.prefixSize == 4 ? EntryTableHeader.self : nil
        case "esds": return ElementaryStreamDescriptorBox.self
        case "stts", "ctts": return TimeToSampleBox.self
        case "stss", "stps": return SyncSampleBox.self
        case "stsc": return SampleToChunkBox.self
        case "stsz", "stz2": return SampleSizeBox.self
        case "stco", "co64": return ChunkOffsetBox.self
        case "elst": return EditListBox.self
        case "smhd", "vmhd": return MediaInformationHeader.self
        case "chpl": return NeroChapterListBox.self
        case "keys": return context.parent == "meta" ? MetadataKeysBox.self : nil
        case "mfhd", "tfdt", "mehd", "trex", "mfro": return FragmentFieldsBox.self
        case "tfhd": return TrackFragmentHeaderBox.self
        case "trun": return TrackRunBox.self
        case "sidx": return SegmentIndexBox.self
        case "emsg": return EventMessageBox.self
        case "tfra": return TrackFragmentRandomAccessBox.self
        case "iloc": return ItemLocationBox.self
        case "infe": return ItemInfoEntryBox.self
        case "pitm": return PrimaryItemBox.self
        case "btrt", "pasp", "colr", "frma", "ispe": return SmallFieldsBox.self
        case "avcC", "hvcC", "av1C", "vpcC", "dOps", "dfLa", "dac3", "dec3", "dac4", "chan", "enda", "fiel", "mdcv", "clli", "clap":
            return CodecConfigurationBox.self
        case "alac": return context.parent == "alac" || context.parent == "wave" ? CodecConfigurationBox.self : nil
        case "schm", "tenc", "senc", "saiz", "saio", "pssh": return ProtectionBox.self
        case "uuid": return UUIDBox.self
        case "sgpd", "sbgp", "sdtp", "cslg", "subs": return SampleGroupBox.self
        case "elng", "kind", "prft", "nmhd", "sthd", "iods", "ipma", "pixi", "irot", "imir", "auxC", "gmin", "clef", "prof", "enof", "tcmi",
             "alis", "rsrc", "ftab", "load", "ssix", "leva":
            return PropertyBox.self
        default: return nil
        }
    }
}
