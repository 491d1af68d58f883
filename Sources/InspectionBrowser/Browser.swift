#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaBytes
import MediaToolSupport

/// The atom browser's screen model: the state of `atominspect browse` (the tree with its
/// expanded nodes, the selection, the focused pane, overlays and prompts), what each key does to
/// it, and the lines of text it shows. It knows nothing of terminals, so it is tested by
/// feeding keys and reading lines.
public struct Browser {
    /// The three panes `Tab` cycles through.
    public enum Pane: Sendable, Hashable { case tree, fields, hex }

    /// A full-screen view over the panes.
    public enum Overlay: Sendable {
        /// The keys, scrolled to line `top` (a narrow screen wraps them onto more lines).
        case help(top: Int)
        case diagnostics(selected: Int)
        case table(TableView)
    }

    /// A one-line question on the status line.
    public enum Prompt: Sendable, Hashable {
        case search, offset, writeBytes, writePayload, writeJSON
        /// Inside a table: a row number, or a time in seconds (`12.5s`) in a table of samples.
        case row
        /// Inside a table: text to find in its rows.
        case tableSearch
        /// A write to a file that exists waits for a yes: the write and its path.
        indirect case overwrite(Prompt, String)
        var label: String {
            switch self {
            case .search: "Search (type, /path or text): "
            case .offset: "Go to offset: "
            case .writeBytes: "Write node bytes to: "
            case .writePayload: "Write payload to: "
            case .writeJSON: "Write subtree JSON to: "
            case .row: "Go to row (a number, or a time like 12.5s): "
            case .tableSearch: "Find in table: "
            case .overwrite(_, let path): "\(path) exists. Replace it? (y/n) "
            }
        }
    }

    /// A table open over the panes, with its scroll position.
    public struct TableView: Sendable {
        public var owner: String
        public var table: InspectionTable
        public var selected = 0
        public var top = 0
    }

    /// What the caller should do after a key.
    /// What the caller does after a key: draw again, quit, stop the process (Ctrl-Z), read the
    /// file again (`r`), or hand a picture to the desktop's viewer (`o`).
    public enum Outcome: Sendable, Hashable { case redraw, quit, suspend, reload, openPicture(InspectionPicture) }

    /// One visible line of the tree pane.
    struct Row {
        var node: InspectionNode
        var depth: Int
    }

    public private(set) var file: FileInspection
    public var width: Int
    public var height: Int
    public var useColor: Bool
    public private(set) var focus: Pane = .tree
    public private(set) var overlay: Overlay?
    public private(set) var prompt: Prompt?
    public private(set) var input = ""
    /// The last message on the status line (cleared by the next key).
    public private(set) var message: String?

    var rows: [Row] = []
    var expanded: Set<String> = []
    var childCache: [String: [InspectionNode]] = [:]
    var selected = 0
    var treeTop = 0
    var fieldIndex = 0
    /// The first byte shown in the hex pane, as an offset into the file.
    var hexStart: UInt64 = 0
    /// Bytes the last jump pointed at, highlighted in the hex pane.
    var mark: Range<UInt64>?
    var cachedDetails: (path: String, details: InspectionDetails)?
    var cachedPicture: (path: String, picture: InspectionPicture?)?
    var history: [(path: String, hexStart: UInt64, mark: Range<UInt64>?)] = []
    var lastSearch: String?
    /// The last text searched for inside a table (`n`/`N` there repeat it).
    var lastTableSearch: String?
    var allDiagnostics: [Diagnostic]?
    /// With a second file: what differs from it, and the last difference shown.
    public private(set) var comparison: InspectionDiff?
    var differenceIndex: Int?
    /// While a comparison runs in the background: what the status line says of it.
    public var comparisonPending: String?
    /// The second file of `browse A B`, and whether both files are shown side by side (`v`):
    /// this file's tree and fields on the left, the other's on the right at the same node.
    public var other: FileInspection?
    var sideBySide = false
    /// The other file's tree in the side-by-side view, kept at the counterpart of the selection
    /// (at most one browser: an array, as a struct cannot hold one of its own type).
    var otherTree: [Browser] = []
    /// How each node that differs from the compared file is marked in the tree: `~` changed,
    /// `-` only in this file, `=` moved unchanged, `+` holds a node only in the other file,
    /// `*` holds changes further down.
    var differenceMarks: [String: Character] = [:]

    /// A browser of `file`; with `comparedTo`, `]` and `[` step through what differs from it.
    public init(file: FileInspection, comparedTo other: FileInspection? = nil, width: Int = 80, height: Int = 24, useColor: Bool = false) {
        self.file = file
        self.width = width
        self.height = height
        self.useColor = useColor
        self.other = other
        if let other { setComparison(InspectionDiff(file, other)) }
        rebuildRows()
        hexStart = rows.first?.node.offset ?? 0
    }

    // MARK: The selection

    /// The selected node, if the file has any.
    public var selectedNode: InspectionNode? { rows.indices.contains(selected) ? rows[selected].node : nil }

    /// The path of the selected node.
    public var selectedPath: String? { selectedNode?.path }

    /// The details of the selected node, decoded once per selection.
    mutating func details() -> InspectionDetails? {
        guard let node = selectedNode else { return nil }
        if let cachedDetails, cachedDetails.path == node.path { return cachedDetails.details }
        let details = node.details
        cachedDetails = (node.path, details)
        return details
    }

    /// The picture the selected node holds (`InspectionPicture`), looked for once per node.
    mutating func picture() -> InspectionPicture? {
        guard let node = selectedNode, let details = details() else { return nil }
        if let cachedPicture, cachedPicture.path == node.path { return cachedPicture.picture }
        let picture = InspectionPicture.find(in: details.fields, of: node, source: file.source)
        cachedPicture = (node.path, picture)
        return picture
    }

    func children(of node: InspectionNode) -> [InspectionNode] {
        childCache[node.path] ?? node.children
    }

    mutating func cachedChildren(of node: InspectionNode) -> [InspectionNode] {
        if let cached = childCache[node.path] { return cached }
        let children = node.children
        childCache[node.path] = children
        return children
    }

    mutating func rebuildRows() {
        var result: [Row] = []
        func add(_ nodes: [InspectionNode], depth: Int) {
            for node in nodes {
                result.append(Row(node: node, depth: depth))
                if expanded.contains(node.path) { add(cachedChildren(of: node), depth: depth + 1) }
            }
        }
        add(file.nodes, depth: 0)
        rows = result
        selected = min(selected, max(rows.count - 1, 0))
    }

    mutating func select(_ index: Int) {
        guard !rows.isEmpty else { return }
        let index = max(0, min(index, rows.count - 1))
        if index != selected || rows[index].node.path != cachedDetails?.path {
            selected = index
            fieldIndex = 0
            mark = nil
            hexStart = rows[index].node.offset
        }
        scrollTreeToSelection()
    }

    /// Selects the node at `path`, expanding its ancestors; false when there is none.
    @discardableResult
    mutating func select(path: String) -> Bool {
        guard let components = InspectionPath.parse(path) else { return false }
        var level = file.nodes
        var chain: [InspectionNode] = []
        for component in components {
            var seen = 0
            guard let node = level.first(where: { node in
                guard node.type == component.type else { return false }
                defer { seen += 1 }
                return seen == component.index
            }) else { return false }
            chain.append(node)
            level = cachedChildren(of: node)
        }
        return select(chain: chain)
    }

    /// Selects the last node of `chain` (outermost first), expanding the others.
    mutating func select(chain: [InspectionNode]) -> Bool {
        guard let target = chain.last else { return false }
        for node in chain.dropLast() { expanded.insert(node.path) }
        rebuildRows()
        guard let index = rows.firstIndex(where: { $0.node.path == target.path }) else { return false }
        select(index)
        return true
    }

    mutating func remember() {
        if let path = selectedPath { history.append((path, hexStart, mark)) }
    }

    var paneHeight: Int { max(height - 2, 1) }

    mutating func scrollTreeToSelection() {
        let visible = paneHeight
        if selected < treeTop { treeTop = selected }
        if selected >= treeTop + visible { treeTop = selected - visible + 1 }
        treeTop = max(0, min(treeTop, max(rows.count - visible, 0)))
    }

    // MARK: Keys

    /// Applies one key and says what the caller should do next.
    public mutating func handle(_ key: BrowserKey) -> Outcome {
        message = nil
        if let prompt { return handlePrompt(prompt, key) }
        if let overlay { return handleOverlay(overlay, key) }
        switch key {
        case .character("q"), .control("c"): return .quit
        case .control("z"): return .suspend
        case .character("?"): overlay = .help(top: 0)
        case .tab: focus = focus == .tree ? .fields : focus == .fields ? .hex : .tree
        case .backTab: focus = focus == .tree ? .hex : focus == .hex ? .fields : .tree
        case .character("j"), .down: move(1)
        case .character("k"), .up: move(-1)
        case .control("d"), .pageDown: move(paneHeight / 2)
        case .control("u"), .pageUp: move(-(paneHeight / 2))
        case .character("g"), .home: moveToEnd(first: true)
        case .character("G"), .end: moveToEnd(first: false)
        case .character("l"), .right: expand()
        case .character("h"), .left: collapseOrParent()
        case .enter, .character(" "): toggle()
        case .character("/"): startPrompt(.search)
        case .character(":"): startPrompt(.offset)
        case .character("n"): repeatSearch(forward: true)
        case .character("N"): repeatSearch(forward: false)
        case .character("f"): follow()
        case .control("o"): back()
        case .character("!"):
            if allDiagnostics == nil { allDiagnostics = file.allDiagnostics() }
            overlay = .diagnostics(selected: 0)
        case .character("t"): openTable()
        case .character("w"): startPrompt(.writeBytes)
        case .character("W"): startPrompt(.writePayload)
        case .character("e"): startPrompt(.writeJSON)
        case .character("r"): return .reload
        case .character("o"):
            guard let picture = picture() else {
                message = "no picture here (o opens a cover or an embedded picture)"
                break
            }
            return .openPicture(picture)
        case .character("v"):
            guard other != nil else {
                message = "no second file to show beside this one (atominspect browse A B)"
                break
            }
            sideBySide.toggle()
            message = sideBySide ? "both files side by side, the other at the same node (≠ marks a field that differs; v again for one file)" : nil
        case .character("]"): stepDifference(forward: true)
        case .character("["): stepDifference(forward: false)
        default: break
        }
        return .redraw
    }

    mutating func startPrompt(_ kind: Prompt) {
        guard [.search, .offset, .row, .tableSearch].contains(kind) || selectedNode != nil else { return }
        prompt = kind
        input = ""
    }

    mutating func move(_ delta: Int) {
        switch focus {
        case .tree:
            select(selected + delta)
        case .fields:
            let count = details()?.fields.count ?? 0
            fieldIndex = max(0, min(fieldIndex + delta, max(count - 1, 0)))
            if let range = details()?.fields[safe: fieldIndex]?.range { hexStart = alignedLine(range.lowerBound) }
        case .hex:
            guard let node = selectedNode else { return }
            let step = UInt64(bytesPerLine)
            let lines = Int64(delta)
            var start = Int64(clamping: hexStart) + lines * Int64(step)
            let last = Int64(clamping: node.range.upperBound > 0 ? alignedLine(node.range.upperBound - 1) : 0)
            start = max(Int64(clamping: alignedLine(node.offset)), min(start, last))
            hexStart = UInt64(start)
        }
    }

    mutating func moveToEnd(first: Bool) {
        switch focus {
        case .tree: select(first ? 0 : rows.count - 1)
        case .fields:
            let count = details()?.fields.count ?? 0
            fieldIndex = first ? 0 : max(count - 1, 0)
        case .hex:
            guard let node = selectedNode else { return }
            hexStart = first ? node.offset : alignedLine(node.range.upperBound > node.offset ? node.range.upperBound - 1 : node.offset)
        }
    }

    mutating func expand() {
        guard focus == .tree, let node = selectedNode, node.hasChildren else { return }
        if expanded.contains(node.path) {
            if selected + 1 < rows.count { select(selected + 1) }
        } else {
            expanded.insert(node.path)
            rebuildRows()
        }
    }

    mutating func collapseOrParent() {
        guard focus == .tree, let node = selectedNode else { return }
        if expanded.contains(node.path) {
            expanded.remove(node.path)
            rebuildRows()
            return
        }
        let depth = rows[selected].depth
        guard depth > 0, let parent = rows[..<selected].lastIndex(where: { $0.depth == depth - 1 }) else { return }
        select(parent)
    }

    mutating func toggle() {
        guard focus == .tree, let node = selectedNode, node.hasChildren else {
            if focus == .fields { follow() }
            return
        }
        if expanded.contains(node.path) { expanded.remove(node.path) } else { expanded.insert(node.path) }
        rebuildRows()
    }

    // MARK: Following references

    /// Follows the selected field's reference, or the node's first one.
    mutating func follow() {
        guard let details = details() else { return }
        var reference: InspectionReference?
        if focus == .fields { reference = details.fields[safe: fieldIndex]?.reference }
        reference = reference ?? details.allReferences.first
        guard let reference else {
            message = "nothing to follow from \(selectedPath ?? "here")"
            return
        }
        jump(to: reference)
    }

    mutating func jump(to reference: InspectionReference) {
        remember()
        switch reference.target {
        case .node(let path):
            if select(path: path) {
                message = "followed \(reference.label): \(path)"
            } else {
                history.removeLast()
                message = "\(reference.label): no node at \(path)"
            }
        case .bytes(let range):
            let size = file.source.size
            if range.lowerBound >= size {
                history.removeLast()
                message = "warning: \(reference.label) at \(range.lowerBound) is past the end of the file (\(size) bytes)"
            } else if go(to: range.lowerBound, length: UInt64(range.count)) {
                message = "followed \(reference.label): \(range.count) bytes at \(range.lowerBound)"
                    + (range.upperBound > size ? "; warning: it runs \(range.upperBound - size) bytes past the end of the file" : "")
            } else {
                history.removeLast()
                message = "\(reference.label) at \(range.lowerBound) is outside every node"
            }
        }
    }

    /// Selects the innermost node holding `offset` and shows that byte; false when none does.
    mutating func go(to offset: UInt64, length: UInt64 = 1) -> Bool {
        let chain = file.nodes(containing: offset)
        guard select(chain: chain) else { return false }
        hexStart = alignedLine(offset)
        mark = offset..<offset &+ max(length, 1)
        return true
    }

    mutating func back() {
        guard let last = history.popLast() else {
            message = "no earlier place"
            return
        }
        _ = select(path: last.path)
        hexStart = last.hexStart
        mark = last.mark
    }

    // MARK: Differences

    /// Takes the comparison with a second file (made in the background by the caller): the
    /// tree marks what differs, and `]`/`[` step through it.
    public mutating func setComparison(_ diff: InspectionDiff) {
        comparison = diff
        comparisonPending = nil
        differenceMarks = Self.differenceMarks(diff, inFirstFile: true)
        otherTree = []
    }

    /// How a file's tree marks the nodes that differ, as that file sees them: `~` changed, `=`
    /// moved unchanged, `*` holds changes further down; in the first file `-` a node only in
    /// it and `+` a node holding one only in the second; in the second (`inFirstFile` false)
    /// `+` a node only in it and `-` a node holding one only in the first. `counterpart` gives
    /// the second file's path of a node of the first (a track matched by its ID may sit at
    /// another index).
    static func differenceMarks(_ diff: InspectionDiff, inFirstFile: Bool, counterpart: (String) -> String? = { _ in nil }) -> [String: Character] {
        var marks: [String: Character] = [:]
        func mark(_ path: String, _ character: Character, unlessMarked: Bool = false) {
            if !unlessMarked || marks[path] == nil { marks[path] = character }
            var path = path
            while let slash = path.lastIndex(of: "/") {
                path = String(path[..<slash])
                if marks[path] == nil { marks[path] = "*" }
            }
        }
        func parent(_ path: String) -> String? { path.lastIndex(of: "/").map { String(path[..<$0]) } }
        for change in diff.changes {
            // The changed node's path in this file (the change's own path is the first file's).
            let here = inFirstFile ? change.path : change.after?.path ?? counterpart(change.path)
            switch change.kind {
            case .added:
                if inFirstFile { if let holder = parent(change.path) { mark(holder, "+") } } else if let here { mark(here, "+") }
            case .removed:
                if inFirstFile { mark(change.path, "-") } else if let holder = parent(change.path).flatMap(counterpart) { mark(holder, "-") }
            case .moved: if let here { mark(here, "=", unlessMarked: true) }
            case .resized, .field, .bytes: if let here { mark(here, "~") }
            }
        }
        return marks
    }

    /// The other file's tree with the counterparts of the nodes open here open, and the
    /// counterpart of the selection (or its nearest ancestor's) selected; whether that is the
    /// node's own.
    mutating func syncOtherTree() -> Bool {
        guard let other else { return false }
        if otherTree.isEmpty {
            var tree = Browser(file: other, width: width, height: height, useColor: useColor)
            tree.comparison = comparison
            tree.comparisonPending = comparisonPending
            if let comparison {
                let file = file
                tree.differenceMarks = Self.differenceMarks(comparison, inFirstFile: false) { path in
                    InspectionDiff.counterpart(of: path, in: file, other).flatMap { $0.exact ? $0.node.path : nil }
                }
            }
            tree.focus = .fields
            otherTree = [tree]
        }
        var tree = otherTree[0]
        tree.comparisonPending = comparisonPending
        tree.expanded = Set(expanded.compactMap { path in
            InspectionDiff.counterpart(of: path, in: file, other).flatMap { $0.exact ? $0.node.path : nil }
        })
        tree.rebuildRows()
        var exact = false
        if let node = selectedNode, let counterpart = InspectionDiff.counterpart(of: node.path, in: file, other) {
            exact = counterpart.exact
            _ = tree.select(path: counterpart.node.path)
        }
        otherTree = [tree]
        return exact
    }

    /// Selects the next (or previous) difference from the compared file and says what it is.
    mutating func stepDifference(forward: Bool) {
        guard let comparison else {
            message = comparisonPending.map { "not yet: \($0)" } ?? "no second file to compare (atominspect browse A B)"
            return
        }
        guard !comparison.changes.isEmpty else {
            message = "no differences from the second file"
            return
        }
        let count = comparison.changes.count
        let next = differenceIndex.map { forward ? ($0 + 1) % count : ($0 - 1 + count) % count } ?? (forward ? 0 : count - 1)
        differenceIndex = next
        let change = comparison.changes[next]
        let line = comparison.lines[next]
        remember()
        // A node only in the second file: show where it would be, its parent.
        var path = change.path
        while !select(path: path), let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        message = "difference \(next + 1)/\(count): " + line.trimmingSpaces
    }

    // MARK: Search

    /// Finds the node at path `query` (when it holds a `/` and names one), else the next node
    /// (in tree order, after the selection, wrapping) whose type is `query` or whose decoded
    /// values contain it: `/image/jpeg` is no path, and finds a picture's MIME type.
    mutating func search(_ query: String, forward: Bool) {
        lastSearch = query
        var query = query
        if query.contains("/") {
            let path = query.hasPrefix("/") ? String(query.dropFirst()) : query
            remember()
            if select(path: path) {
                message = "found \(path)"
                return
            }
            history.removeLast()
            query = path
        }
        // Node by node from the selection, in tree order (wrapping), until one matches: a match
        // nearby is found at once in a file of thousands of fragments; a search with no match
        // stops after `searchStepLimit` nodes and says where (`n` goes on from there).
        guard !file.nodes.isEmpty else { return }
        var cursor = currentCursor() ?? TreeCursor(frames: [(file.nodes, 0)])
        let start = cursor.chain.map(\.path)
        let lowered = query.lowercased()
        var visited = 0
        while visited < Self.searchStepLimit {
            advance(&cursor, forward: forward)
            visited += 1
            let chain = cursor.chain
            guard let node = chain.last else { break }
            if node.type == query || node.type.lowercased() == lowered || (node.kind != .more && Self.valuesContain(node, lowered)) {
                remember()
                _ = select(chain: chain)
                message = "found \(query) at \(node.path)"
                return
            }
            if chain.map(\.path) == start { break }
        }
        if visited >= Self.searchStepLimit, let node = cursor.chain.last {
            remember()
            _ = select(chain: cursor.chain)
            message = "\(query): not in the \(visited) nodes searched, up to \(node.path); n searches on"
            return
        }
        message = "not found: \(query)"
    }

    mutating func repeatSearch(forward: Bool) {
        guard let lastSearch else {
            message = "no search yet (press /)"
            return
        }
        search(lastSearch, forward: forward)
    }

    static func valuesContain(_ node: InspectionNode, _ lowered: String) -> Bool {
        let details = node.details
        if details.summary.lowercased().contains(lowered) { return true }
        return details.fields.contains { field in
            if case .string(let text) = field.value { return text.lowercased().contains(lowered) }
            return false
        }
    }

    /// How many nodes one search step looks at before it stops and says where it got to.
    static let searchStepLimit = 100_000

    /// A place in the tree for walking it node by node: the sibling list and index at each level.
    struct TreeCursor {
        var frames: [(siblings: [InspectionNode], index: Int)]
        var chain: [InspectionNode] { frames.map { $0.siblings[$0.index] } }
    }

    /// The cursor at the selected node.
    mutating func currentCursor() -> TreeCursor? {
        guard selected < rows.count else { return nil }
        // The selected row's ancestors are the last rows above it at each smaller depth.
        var chain: [InspectionNode] = [rows[selected].node]
        var depth = rows[selected].depth
        var index = selected
        while depth > 0, index > 0 {
            index -= 1
            if rows[index].depth == depth - 1 {
                chain.insert(rows[index].node, at: 0)
                depth -= 1
            }
        }
        var frames: [(siblings: [InspectionNode], index: Int)] = []
        var siblings = file.nodes
        for node in chain {
            guard let position = siblings.firstIndex(where: { $0.path == node.path }) else { return nil }
            frames.append((siblings, position))
            siblings = cachedChildren(of: node)
        }
        return TreeCursor(frames: frames)
    }

    /// Moves `cursor` to the next (or previous) node in tree order, wrapping at the ends.
    mutating func advance(_ cursor: inout TreeCursor, forward: Bool) {
        if forward {
            if let node = cursor.chain.last {
                let children = cachedChildren(of: node)
                if !children.isEmpty {
                    cursor.frames.append((children, 0))
                    return
                }
            }
            while let top = cursor.frames.last {
                if top.index + 1 < top.siblings.count {
                    cursor.frames[cursor.frames.count - 1].index += 1
                    return
                }
                cursor.frames.removeLast()
            }
            cursor.frames = [(file.nodes, 0)]
            return
        }
        if let top = cursor.frames.last, top.index > 0 {
            cursor.frames[cursor.frames.count - 1].index -= 1
        } else if cursor.frames.count > 1 {
            cursor.frames.removeLast()
            return
        } else {
            cursor.frames = [(file.nodes, file.nodes.count - 1)]
        }
        // The last node in the subtree of the one reached.
        while let node = cursor.chain.last {
            let children = cachedChildren(of: node)
            guard !children.isEmpty else { break }
            cursor.frames.append((children, children.count - 1))
        }
    }

    // MARK: Prompts

    mutating func handlePrompt(_ kind: Prompt, _ key: BrowserKey) -> Outcome {
        switch key {
        case .escape, .control("c"), .control("g"):
            prompt = nil
        case .backspace:
            if !input.isEmpty { input.removeLast() }
        case .character(let character):
            // A yes-or-no question is answered by its key alone, as in less and vi.
            if case .overwrite(let write, let path) = kind {
                prompt = nil
                if character == "y" || character == "Y" { self.write(write, to: path) } else { message = "not written: \(path) is kept" }
                return .redraw
            }
            input.append(character)
        case .enter:
            prompt = nil
            let text = input
            input = ""
            if case .overwrite(_, let path) = kind {
                message = "not written: \(path) is kept"
                return .redraw
            }
            guard !text.isEmpty else { return .redraw }
            switch kind {
            case .search: search(text, forward: true)
            case .offset: goToOffset(text)
            case .row: goToRow(text)
            case .tableSearch:
                lastTableSearch = text
                searchTable(text, forward: true)
            case .writeBytes, .writePayload, .writeJSON:
                // A file that is there is replaced only when the answer is yes (a device or a
                // FIFO is written through, as every output of the tools is).
                if Self.isExistingFile(text) { prompt = .overwrite(kind, text) } else { write(kind, to: text) }
            case .overwrite:
                break  // answered above: Enter alone is no
            }
        default:
            break
        }
        return .redraw
    }

    mutating func goToOffset(_ text: String) {
        let trimmed = text.trimmingSpaces
        let value = trimmed.lowercased().hasPrefix("0x") ? UInt64(trimmed.dropFirst(2), radix: 16) : UInt64(trimmed)
        guard let offset = value else {
            message = "not an offset: \(text) (write 5000 or 0x1388)"
            return
        }
        remember()
        if go(to: offset) {
            message = "offset \(offset) is in \(selectedPath ?? "")"
        } else {
            history.removeLast()
            message = "offset \(offset) is outside every node (file size \(file.source.size))"
        }
    }

    mutating func write(_ kind: Prompt, to path: String) {
        switch kind {
        case .writeBytes: write(to: path, payloadOnly: false)
        case .writePayload: write(to: path, payloadOnly: true)
        default: writeJSON(to: path)
        }
    }

    /// True when `path` names a regular file that is there (through a link too).
    static func isExistingFile(_ path: String) -> Bool {
        var info = FileStatus()
        return SystemPath.stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Why a write failed, without the path the message already names.
    static func reason(_ error: any Error) -> String {
        if let error = error as? FileWriteError { return error.reason }
        return "\(error)"
    }

    mutating func write(to path: String, payloadOnly: Bool) {
        guard let node = selectedNode else { return }
        let range = payloadOnly ? node.payloadRange : node.range
        do {
            if FileByteSink.isSameFile(path, file.path) { throw BrowserError("that is the file being browsed") }
            try FileReplacement.create(path, copying: UInt64(range.count), from: file.source, at: range.lowerBound)
            message = "wrote \(range.count) bytes of \(node.path) to \(path)"
        } catch {
            message = "cannot write \(path): \(Self.reason(error))"
        }
    }

    mutating func writeJSON(to path: String) {
        guard let node = selectedNode else { return }
        let text = InspectionRendering.json(node).serialized() + "\n"
        do {
            if FileByteSink.isSameFile(path, file.path) { throw BrowserError("that is the file being browsed") }
            try FileReplacement.create(path, bytes: Array(text.utf8))
            message = "wrote JSON of \(node.path) to \(path)"
        } catch {
            message = "cannot write \(path): \(Self.reason(error))"
        }
    }

    // MARK: Overlays

    mutating func handleOverlay(_ current: Overlay, _ key: BrowserKey) -> Outcome {
        if key == .character("q") || key == .control("c") { return .quit }
        if key == .escape || (key == .character("?") && { if case .help = current { return true }; return false }()) {
            overlay = nil
            return .redraw
        }
        switch current {
        case .help(let top):
            let last = max(helpLines().count - paneHeight, 0)
            switch key {
            case .character("j"), .down: overlay = .help(top: min(top + 1, last))
            case .character("k"), .up: overlay = .help(top: max(top - 1, 0))
            case .pageDown, .control("d"), .character(" "): overlay = .help(top: min(top + paneHeight / 2, last))
            case .pageUp, .control("u"): overlay = .help(top: max(top - paneHeight / 2, 0))
            default: break
            }
        case .diagnostics(let index):
            let count = allDiagnostics?.count ?? 0
            switch key {
            case .character("j"), .down: overlay = .diagnostics(selected: min(index + 1, max(count - 1, 0)))
            case .character("k"), .up: overlay = .diagnostics(selected: max(index - 1, 0))
            case .enter:
                guard let diagnostic = allDiagnostics?[safe: index] else { break }
                overlay = nil
                remember()
                if !select(path: diagnostic.path) && !go(to: diagnostic.offset) {
                    history.removeLast()
                    message = "no node at \(diagnostic.path)"
                }
            default: break
            }
        case .table(var view):
            let visible = max(paneHeight - 3, 1)
            switch key {
            case .character("j"), .down: view.selected += 1
            case .character("k"), .up: view.selected -= 1
            case .control("d"), .pageDown: view.selected += visible / 2
            case .control("u"), .pageUp: view.selected -= visible / 2
            case .character("g"), .home: view.selected = 0
            case .character("G"), .end: view.selected = view.table.rowCount - 1
            case .character(":"):
                startPrompt(.row)
                return .redraw
            case .character("/"):
                startPrompt(.tableSearch)
                return .redraw
            case .character("n"), .character("N"):
                guard let text = lastTableSearch else {
                    message = "no search yet (/ finds text in the table)"
                    break
                }
                searchTable(text, forward: key == .character("n"))
                return .redraw
            case .enter, .character("f"):
                if let reference = view.table.rows(view.selected..<view.selected + 1).first?.reference {
                    overlay = nil
                    jump(to: reference)
                    return .redraw
                }
                message = "this row points nowhere"
            default: break
            }
            view.selected = max(0, min(view.selected, view.table.rowCount - 1))
            if view.selected < view.top { view.top = view.selected }
            if view.selected >= view.top + visible { view.top = view.selected - visible + 1 }
            overlay = .table(view)
        }
        return .redraw
    }

    /// Inside a table: selects row `text` (1-based), or in a table with a `decodeSeconds`
    /// column (a track's samples) the first row decoded at or after a time (`12.5s`), found
    /// by halving (the rows are in decode order; a page is read per step).
    mutating func goToRow(_ text: String) {
        guard case .table(var view) = overlay else { return }
        let trimmed = text.trimmingSpaces.lowercased()
        if trimmed.hasSuffix("s"), let seconds = Double(trimmed.dropLast()) {
            guard let column = view.table.columns.firstIndex(of: "decodeSeconds") else {
                message = "this table has no times; give a row number"
                return
            }
            func time(_ row: Int) -> Double? {
                guard let value = view.table.rows(row..<row + 1).first?.values[safe: column] else { return nil }
                switch value {
                case .double(let v): return v
                case .uint(let v): return Double(v)
                case .int(let v): return Double(v)
                default: return nil
                }
            }
            var low = 0, high = view.table.rowCount
            while low < high {
                let mid = (low + high) / 2
                if let t = time(mid), t < seconds { low = mid + 1 } else { high = mid }
            }
            guard low < view.table.rowCount else {
                message = "no sample is decoded at or after \(text.trimmingSpaces) (the last at \(time(view.table.rowCount - 1).map { String($0) } ?? "?") s)"
                return
            }
            view.selected = low
            message = "row \(low + 1): the first decoded at or after \(text.trimmingSpaces)"
        } else if let number = Int(trimmed), number >= 1 {
            guard number <= view.table.rowCount else {
                message = "the table has \(view.table.rowCount) rows"
                return
            }
            view.selected = number - 1
        } else {
            message = "not a row: \(text) (write 120, or 12.5s for a time)"
            return
        }
        scroll(&view)
        overlay = .table(view)
    }

    /// Inside a table: the next (or previous) row after the selected one whose values hold
    /// `text` (any case), read a page at a time; a table of millions of rows is searched in
    /// steps of at most `tableSearchLimit` rows, the search saying where it stopped.
    mutating func searchTable(_ text: String, forward: Bool) {
        guard case .table(var view) = overlay else { return }
        let needle = text.lowercased()
        let count = view.table.rowCount
        let page = 1024
        var checked = 0
        var position = view.selected
        while checked < min(count, Self.tableSearchLimit) {
            let start = forward ? position + 1 : max(position - page, 0)
            let end = forward ? min(start + page, count) : position
            guard start < end else { break }
            let rows = view.table.rows(start..<end)
            let ordered = forward ? rows : rows.reversed()
            if let hit = ordered.first(where: { row in row.values.contains { Self.text($0).lowercased().contains(needle) } }) {
                view.selected = hit.index
                scroll(&view)
                overlay = .table(view)
                message = "row \(hit.index + 1) holds \(text)"
                return
            }
            checked += end - start
            position = forward ? end - 1 : start
        }
        let reachedEnd = forward ? position >= count - 1 : position <= 0
        message = reachedEnd ? "\(text): no more rows hold it" : "\(text): not in the \(checked) rows after row \(view.selected + 1); n searches on from row \(position + 1)"
        if !reachedEnd {
            view.selected = position
            scroll(&view)
            overlay = .table(view)
        }
    }

    static let tableSearchLimit = 200_000

    /// Keeps the selected row of a table on the screen.
    func scroll(_ view: inout TableView) {
        let visible = max(paneHeight - 3, 1)
        view.selected = max(0, min(view.selected, view.table.rowCount - 1))
        if view.selected < view.top { view.top = view.selected }
        if view.selected >= view.top + visible { view.top = view.selected - visible + 1 }
    }

    /// Opens the selected node's table, or the sample table of the track around it.
    mutating func openTable() {
        guard let node = selectedNode else { return }
        if let table = details()?.table {
            overlay = .table(TableView(owner: node.path, table: table))
            return
        }
        let depth = rows[selected].depth
        var index = selected
        var level = depth
        while index >= 0 {
            let row = rows[index]
            if row.depth <= level {
                level = row.depth
                if row.node.type == "trak", let table = row.node.details.table {
                    overlay = .table(TableView(owner: row.node.path, table: table))
                    return
                }
            }
            index -= 1
        }
        message = "\(node.path) has no table (select a track or a sample table atom)"
    }

    /// Reopens the file (after it changed on disk), keeping expanded nodes and the selection.
    public mutating func reload(_ reopened: FileInspection) {
        let path = selectedPath
        file = reopened
        childCache = [:]
        cachedDetails = nil
        allDiagnostics = nil
        overlay = nil
        rebuildRows()
        if let path, select(path: path) {
            message = "reloaded"
        } else {
            select(0)
            message = "reloaded; \(path ?? "the selection") is gone"
        }
    }

    /// Shows a message on the status line.
    public mutating func say(_ text: String) { message = text }

    // MARK: Layout helpers

    var bytesPerLine: Int { rightWidth >= 78 ? 16 : 8 }
    /// Below this width the panes take turns: the tree, or (after Tab) the fields and hex,
    /// fill the screen, so no line is wider than the terminal.
    static let twoPaneWidth = 50
    var isNarrow: Bool { width < Self.twoPaneWidth }
    var treeWidth: Int { isNarrow ? max(width, 1) : max(24, min(width * 45 / 100, width - 44)) }
    var rightWidth: Int { isNarrow ? max(width, 1) : max(width - treeWidth - 1, 10) }

    func alignedLine(_ offset: UInt64) -> UInt64 { offset - offset % UInt64(bytesPerLine) }
}

struct BrowserError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
