import MediaBytes
import MediaToolSupport

extension Browser {
    /// The screen: exactly `height` lines, each `width` columns wide (escape sequences for
    /// colour and highlighting aside). The first line names the file, the last is the status line.
    public mutating func lines() -> [String] {
        var screen: [String] = [titleLine()]
        let body = paneHeight
        switch overlay {
        case .help(let top)?: screen += Self.box(Array(helpLines().dropFirst(top)), width: width, height: body)
        case .diagnostics(let index)?: screen += diagnosticLines(selected: index, height: body)
        case .table(let view)?: screen += tableLines(view, height: body)
        case nil: screen += paneLines(height: body)
        }
        screen.append(statusLine())
        return screen
    }

    func titleLine() -> String {
        // What matters most is where the selection is: when the line is too long the file is
        // named by its last component, then the path loses its start ("…/stbl/stco"), never its end.
        let about = "\(file.formatName ?? "?"), \(file.source.size) bytes"
        let path = selectedPath.map { "  ·  \($0)" } ?? ""
        var text = " atominspect  \(file.path)  \(about)" + path
        if text.count > width {
            let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
            text = " atominspect  \(name)  \(about)"
            if let selectedPath, !selectedPath.isEmpty {
                let room = width - text.count - 5
                let shown = selectedPath.count <= room ? selectedPath : "…" + String(selectedPath.suffix(max(room - 1, 0)))
                text += "  ·  " + shown
            }
        }
        return styled(Self.fit(text, width), "1;7")
    }

    func statusLine() -> String {
        if let prompt { return Self.fit(prompt.label + input + "_", width) }
        if let message { return Self.fit(message, width) }
        if let comparisonPending, overlay == nil { return styled(Self.fit(comparisonPending, width), "2") }
        let hints = overlay == nil
            ? "? help  q quit  j/k move  l/h open/close  Tab pane  / search  : offset  f follow  t table"
            : overlayHints
        return styled(Self.fit(hints, width), "2")
    }

    /// The keys of the open overlay, for the status line.
    var overlayHints: String {
        if case .table = overlay { return "Esc close  j/k move  Enter go  : row or time  / find  n/N next" }
        return "Esc close  j/k move  Enter go  q quit"
    }

    // MARK: Panes

    mutating func paneLines(height: Int) -> [String] {
        if sideBySide, other != nil, !isNarrow { return bothFilesLines(height: height) }
        let left = treeLines(height: height)
        let fieldsHeight = max((height - 2) / 2, 1)
        let hexHeight = max(height - fieldsHeight - 2, 1)
        var right: [String] = []
        if sideBySide, other != nil {
            right.append(paneTitle("fields: this file │ the other", active: focus == .fields, width: rightWidth))
            right += comparedFieldLines(height: fieldsHeight)
        } else {
            right.append(paneTitle("fields", active: focus == .fields, width: rightWidth))
            right += fieldLines(height: fieldsHeight)
        }
        right.append(paneTitle(hexTitle(), active: focus == .hex, width: rightWidth))
        right += hexLines(height: hexHeight)
        while right.count < height { right.append(String(repeating: " ", count: rightWidth)) }
        if isNarrow { return Array((focus == .tree ? left : right).prefix(height)) }
        return (0..<height).map { left[$0] + "│" + right[$0] }
    }

    func paneTitle(_ title: String, active: Bool, width: Int) -> String {
        let text = (active ? "▶ " : "─ ") + title + " "
        return styled(Self.fit(text + String(repeating: "─", count: max(width - text.count, 0)), width), active ? "1" : "2")
    }

    func treeLines(height: Int) -> [String] {
        treeLines(height: height, width: treeWidth, top: treeTop)
    }

    func treeLines(height: Int, width treeWidth: Int, top treeTop: Int) -> [String] {
        var lines: [String] = []
        let total = max(file.source.size, 1)
        for index in treeTop..<min(treeTop + height, rows.count) {
            let row = rows[index]
            let node = row.node
            let sign = node.hasChildren ? (expanded.contains(node.path) ? "-" : "+") : " "
            let marker = (index == selected ? ">" : " ") + (comparison == nil && comparisonPending == nil ? "" : String(differenceMarks[node.path] ?? " "))
            let share = Double(node.size) * 100 / Double(total)
            let right = " " + Self.shortSize(node.size) + " " + (share >= 10 ? String(Int(share.rounded())) : Self.oneDecimal(share)) + "%"
            let left = marker + String(repeating: " ", count: row.depth * 2) + sign + " " + node.displayType + " @\(node.offset)"
            let room = treeWidth - right.count
            var line = Self.fit(left, max(room, 1)) + right
            line = Self.fit(line, treeWidth)
            if index == selected { line = styled(line, focus == .tree ? "7" : "4") }
            lines.append(line)
        }
        if rows.isEmpty { lines.append(Self.fit("  (nothing to show)", treeWidth)) }
        while lines.count < height { lines.append(String(repeating: " ", count: treeWidth)) }
        return lines
    }

    /// Both files side by side (`v` in `browse A B`, when the screen is wide enough): this
    /// file's tree and the selected node's fields on the left; on the right the other file's
    /// tree, opened as this one is, its counterpart of the selection on the same line where it
    /// can be, and that node's fields. Each tree marks what differs as that file sees it.
    mutating func bothFilesLines(height: Int) -> [String] {
        let leftWidth = (width - 1) / 2
        let rightWidth = width - 1 - leftWidth
        let treeHeight = max((height - 2) / 2, 1)
        let fieldsHeight = max(height - treeHeight - 2, 1)
        let exact = syncOtherTree()
        var tree = otherTree[0]
        // This tree scrolls as little as it must; the other puts its selection on the same line.
        var top = treeTop
        if selected >= top + treeHeight { top = selected - treeHeight + 1 }
        let line = selected - top
        let otherTop = max(0, min(tree.selected - line, max(tree.rows.count - treeHeight, 0)))
        let otherName = tree.file.path.split(separator: "/").last.map(String.init) ?? tree.file.path
        var left = [paneTitle("this file", active: focus == .tree, width: leftWidth)]
        left += treeLines(height: treeHeight, width: leftWidth, top: top)
        var right = [paneTitle("the other: \(otherName)", active: false, width: rightWidth)]
        right += tree.treeLines(height: treeHeight, width: rightWidth, top: otherTop)
        let mine = details()?.fields ?? []
        let theirs = exact ? tree.details()?.fields ?? [] : []
        left.append(paneTitle("fields", active: focus == .fields, width: leftWidth))
        left += fieldsAgainst(mine, theirs, height: fieldsHeight, width: leftWidth,
                                   header: selectedNode.map { "\($0.displayType)  @\($0.offset)  size \($0.size)" } ?? "")
        right.append(paneTitle("fields", active: false, width: rightWidth))
        let header = tree.selectedNode.map { exact ? "\($0.displayType)  @\($0.offset)  size \($0.size)" : "not in this file (its place: \($0.path))" } ?? "not in this file"
        right += fieldsAgainst(theirs, exact ? mine : theirs, height: fieldsHeight, width: rightWidth, header: header)
        otherTree = [tree]
        let blank = { (width: Int) in String(repeating: " ", count: width) }
        while left.count < height { left.append(blank(leftWidth)) }
        while right.count < height { right.append(blank(rightWidth)) }
        return (0..<height).map { left[$0] + "│" + right[$0] }
    }

    /// A node's fields, one a line under `header`, `≠` before each whose value the other
    /// file's counterpart does not have.
    func fieldsAgainst(_ fields: [InspectionField], _ others: [InspectionField], height: Int, width: Int, header: String) -> [String] {
        var lines = [Self.fit(header, width)]
        let values = Dictionary(others.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for field in fields.prefix(max(height - 1, 0)) {
            let differs = values[field.name] != field.value
            let line = Self.fit((differs ? "≠" : " ") + field.name + ": " + Self.text(field.value), width)
            lines.append(differs ? styled(line, "1") : line)
        }
        return lines
    }

    /// The selected node's fields beside those of its counterpart in the other file (the
    /// side-by-side view on a narrow screen): one line per field name, `≠` where the values
    /// differ, `-` where one has none.
    mutating func comparedFieldLines(height: Int) -> [String] {
        guard let node = selectedNode, let details = details() else { return [] }
        let counterpart = other.flatMap { InspectionDiff.counterpart(of: node.path, in: file, $0) }.flatMap { $0.exact ? $0.node : nil }
        var lines = [Self.fit(counterpart.map { "\(node.displayType)  @\(node.offset) │ @\($0.offset)  size \(node.size) │ \($0.size)" }
                                  ?? "\(node.displayType): not in the other file", rightWidth)]
        let theirs = counterpart?.details.fields ?? []
        var names = details.fields.map(\.name)
        for field in theirs where !names.contains(field.name) { names.append(field.name) }
        let column = max((rightWidth - 4) / 2, 8)
        for name in names.prefix(max(height - 1, 0)) {
            let mine = details.fields.first { $0.name == name }.map { Self.text($0.value) }
            let other = theirs.first { $0.name == name }.map { Self.text($0.value) }
            let mark = mine == other ? " " : "≠"
            let left = Self.fit("\(mark)\(name): \(mine ?? "-")", column)
            let line = left + " │ " + (other ?? "-")
            lines.append(mark == "≠" ? styled(Self.fit(line, rightWidth), "1") : Self.fit(line, rightWidth))
        }
        return lines
    }

    mutating func fieldLines(height: Int) -> [String] {
        guard let node = selectedNode, let details = details() else { return [] }
        var lines: [String] = []
        lines.append(Self.fit("\(node.displayType)  offset \(node.offset)  size \(node.size)  header \(node.headerSize)"
            + (node.notes.isEmpty ? "" : "  (" + node.notes.joined(separator: ", ") + ")"), rightWidth))
        if !details.summary.isEmpty { lines.append(Self.fit(details.summary, rightWidth)) }
        let fixed = lines.count
        let extra = (details.table.map { _ in 1 } ?? 0) + (picture() == nil ? 0 : 1) + details.diagnostics.count
        let room = max(height - fixed - extra, 1)
        let top = max(0, min(fieldIndex - room + 1, details.fields.count - room))
        for (index, field) in details.fields.enumerated().dropFirst(max(top, 0)).prefix(room) {
            let marker = focus == .fields && index == fieldIndex ? ">" : " "
            let arrow = field.reference.map { " → \($0.label)" } ?? ""
            var line = Self.fit(marker + field.name + ": " + Self.text(field.value, total: Self.listedTotal(field, in: details.fields)) + arrow, rightWidth)
            if focus == .fields && index == fieldIndex { line = styled(line, "7") }
            lines.append(line)
        }
        if let table = details.table { lines.append(Self.fit(" \(table.title): \(table.rowCount) rows (t to browse)", rightWidth)) }
        if let picture = picture() {
            lines.append(Self.fit(" picture: \(picture.mimeType), \(picture.range.count) bytes in \(picture.field) (o to open)", rightWidth))
        }
        for diagnostic in details.diagnostics { lines.append(styled(Self.fit(" ! " + diagnostic.severity.rawValue + ": " + diagnostic.message, rightWidth), "33")) }
        return Array(lines.prefix(height)) + Array(repeating: String(repeating: " ", count: rightWidth), count: max(height - lines.count, 0))
    }

    /// The byte range the hex pane highlights: the selected field's, else the last jump's target.
    mutating func highlight() -> Range<UInt64>? {
        if focus == .fields, let range = details()?.fields[safe: fieldIndex]?.range { return range }
        return mark
    }

    mutating func hexTitle() -> String {
        guard let node = selectedNode else { return "hex" }
        var title = "hex \(node.offset)..<\(node.range.upperBound)"
        if let range = highlight() { title += "  [\(range.lowerBound)..<\(range.upperBound)]" }
        return title
    }

    mutating func hexLines(height: Int) -> [String] {
        guard let node = selectedNode else { return [] }
        let perLine = UInt64(bytesPerLine)
        let end = min(node.range.upperBound, file.source.size)
        let start = max(alignedLine(node.offset), min(hexStart, end))
        var lines: [String] = []
        let count = Int(min(end > start ? end - start : 0, perLine * UInt64(height)))
        let bytes = (try? file.source.read(at: start, count: count)) ?? []
        let highlight = self.highlight()
        var offset = start
        var index = 0
        while lines.count < height, offset < end {
            var hex = ""
            var ascii = ""
            for column in 0..<Int(perLine) {
                let at = offset + UInt64(column)
                let byteIndex = index + column
                guard at >= node.offset, at < end, byteIndex < bytes.count else {
                    hex += "   "
                    ascii += " "
                    continue
                }
                let byte = bytes[byteIndex]
                var cell = HexDump.hex(UInt64(byte), width: 2)
                var char = byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "."
                if let highlight, highlight.contains(at) {
                    cell = styled(cell, "7")
                    char = styled(char, "7")
                } else if at < node.offset + UInt64(node.headerSize) {
                    cell = styled(cell, "36")
                }
                hex += cell + (column == Int(perLine) / 2 - 1 && perLine == 16 ? "  " : " ")
                ascii += char
            }
            lines.append(HexDump.offsetColumn(offset) + " " + hex + " " + ascii + " ")
            offset += perLine
            index += Int(perLine)
        }
        if lines.isEmpty { lines.append(node.size == 0 ? "(no bytes)" : "(the bytes are past the end of the file)") }
        let blank = String(repeating: " ", count: rightWidth)
        return lines.map { Self.fitStyled($0, rightWidth) } + Array(repeating: blank, count: max(height - lines.count, 0))
    }

    // MARK: Overlays

    /// The help: a key and what it does on each line; on a screen too narrow for both (under
    /// 60 columns), the key on its line and what it does below it, wrapped.
    func helpLines() -> [String] {
        let entries = Self.helpEntries
        guard width < 60 else { return entries }
        var lines: [String] = []
        for entry in entries {
            // A key's line has its description from column 18, after at least two spaces.
            let key = String(entry.prefix(18)).trimmingSpaces
            let text = String(entry.dropFirst(18)).trimmingSpaces
            guard entry.dropFirst(16).hasPrefix("  "), !text.isEmpty, !key.isEmpty else {
                lines += Self.wrap(entry.trimmingSpaces, width: width, indent: 0)
                continue
            }
            lines.append(key)
            lines += Self.wrap(text, width: width, indent: 2)
        }
        return lines
    }

    /// `text` in lines of at most `width` columns, broken at spaces, each after `indent` spaces.
    static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
        let room = max(width - indent, 1)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            // A word longer than the room is cut.
            while word.count > room {
                if !line.isEmpty { lines.append(line); line = "" }
                lines.append(String(word.prefix(room)))
                word = word.dropFirst(room)
            }
            if line.isEmpty { line = String(word) } else if line.count + 1 + word.count <= room { line += " " + word } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines.map { String(repeating: " ", count: indent) + $0 }
    }

    static let helpEntries = [
            "atominspect browse: keys",
            "",
            "j / k / ↓ / ↑     move (in the focused pane)",
            "l / →             expand, or step into",
            "h / ←             collapse, or go to the parent",
            "Enter / Space     expand or collapse",
            "g / G             first / last",
            "Ctrl-d / Ctrl-u   half a page down / up",
            "Tab               next pane: tree, fields, hex",
            "/                 search by type, /path or text in values",
            "n / N             next / previous match",
            ":                 go to a byte offset (5000 or 0x1388)",
            "f                 follow the field's or node's reference",
            "Ctrl-o            back to where you followed from",
            "!                 diagnostics (Enter goes to the node)",
            "t                 the table: entries, or the track's samples",
            "  in a table      : a row or a time (12.5s), / find text, n / N again",
            "w / W             write the node's bytes / payload to a file",
            "e                 write the subtree as JSON to a file",
            "o                 open the node's picture with the desktop's viewer",
            "r                 reload the file, keeping the selection",
            "] / [             next / previous difference (browse A B)",
            "v                 both files side by side, trees and fields (browse A B)",
            "?                 this help (j/k scroll)      Esc close      q quit",
        ]

    mutating func diagnosticLines(selected index: Int, height: Int) -> [String] {
        let list = allDiagnostics ?? []
        var lines = ["diagnostics: \(list.count)" + (list.isEmpty ? " (none: the file reads cleanly)" : "")]
        let room = max(height - 1, 1)
        let top = max(0, index - room + 1)
        for (i, diagnostic) in list.enumerated().dropFirst(top).prefix(room) {
            let line = (i == index ? "> " : "  ") + diagnostic.description.escapingControls
            lines.append(i == index ? styled(Self.fit(line, width), "7") : line)
        }
        return Self.box(lines, width: width, height: height)
    }

    func tableLines(_ view: TableView, height: Int) -> [String] {
        let table = view.table
        let visible = max(height - 3, 1)
        let rows = table.rows(view.top..<view.top + visible)
        // Each column as wide as its name or its widest value on the page (at most 20), and
        // as many columns as the screen holds beside the reference (`→ sample 12`).
        let texts = rows.map { $0.values.map { Self.text($0).escapingControls } }
        var widths: [Int] = []
        var used = 2 + (rows.contains { $0.reference != nil } ? 16 : 0)
        for (index, name) in table.columns.enumerated() {
            let widest = texts.map { index < $0.count ? $0[index].count : 0 }.max() ?? 0
            let columnWidth = min(max(name.count, widest, 3) + 2, 20)
            guard used + columnWidth <= width || widths.isEmpty else { break }
            widths.append(columnWidth)
            used += columnWidth
        }
        let hidden = table.columns.count - widths.count
        var lines = ["\(table.title) of \(view.owner): \(table.rowCount) rows  (row \(view.selected + 1))"
                         + (hidden > 0 ? "  \(hidden) more columns past the screen's width" : "")]
        lines.append("  " + zip(table.columns, widths).map { Self.padLeft($0, $1) }.joined())
        for (row, values) in zip(rows, texts) {
            var line = (row.index == view.selected ? "> " : "  ") + zip(values, widths).map { Self.padLeft($0, $1) }.joined()
            if let reference = row.reference { line += "  → " + reference.label }
            lines.append(row.index == view.selected ? styled(Self.fit(line, width), "7") : line)
        }
        return Self.box(lines, width: width, height: height)
    }

    // MARK: Text helpers

    func styled(_ text: String, _ code: String) -> String {
        guard useColor else { return text }
        return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
    }

    static func box(_ lines: [String], width: Int, height: Int) -> [String] {
        let cut = lines.prefix(height).map { fitStyled($0, width) }
        return cut + Array(repeating: String(repeating: " ", count: width), count: max(height - cut.count, 0))
    }

    /// `text` cut or padded to `width` columns (one column per character), its control
    /// characters escaped (`TerminalText`: text from the file never drives the terminal).
    static func fit(_ text: String, _ width: Int) -> String {
        let text = text.escapingControls
        let count = text.count
        if count == width { return text }
        if count < width { return text + String(repeating: " ", count: width - count) }
        return width <= 1 ? String(text.prefix(width)) : String(text.prefix(width - 1)) + "…"
    }

    /// Like `fit`, for text holding escape sequences (which take no columns).
    static func fitStyled(_ text: String, _ width: Int) -> String {
        guard text.contains("\u{1B}") else { return fit(text, width) }
        var visible = 0
        var out = ""
        var inEscape = false
        for character in text {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                out.append(character)
                if character == "m" { inEscape = false }
                continue
            }
            guard visible < width else { continue }
            out.append(character)
            visible += 1
        }
        return out + String(repeating: " ", count: max(width - visible, 0))
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        let text = text.count >= width ? String(text.prefix(width - 1)) : text
        return String(repeating: " ", count: width - text.count) + text
    }

    /// How many entries a table's `entries` field stands for when it lists only the first of
    /// them: the `entryCount` beside it (`AtomFieldOptions.tableFields`); nil otherwise.
    static func listedTotal(_ field: InspectionField, in fields: [InspectionField]) -> Int? {
        guard field.name == "entries", case .array(let items) = field.value,
              let count = fields.first(where: { $0.name == "entryCount" }), case .uint(let total) = count.value, Int(clamping: total) > items.count
        else { return nil }
        return Int(clamping: total)
    }

    /// A value on one line; a list that shows the first `total` entries says how many it
    /// shows of how many (`[21, 4, … 8 shown of 310080]`), not as if it were all.
    static func text(_ value: JSONValue, total: Int? = nil) -> String {
        if case .array(let items) = value, let total {
            return "[" + items.prefix(8).map { text($0) }.joined(separator: ", ") + ", … \(min(items.count, 8)) shown of \(total)]"
        }
        switch value {
        case .string(let text):
            let flat = text.replacingOccurrences(of: "\n", with: "\\n")
            return "\"" + flat + "\""
        case .null: return "-"
        case .bool(let flag): return flag ? "yes" : "no"
        case .array(let items):
            let shown = items.prefix(8).map { text($0) }.joined(separator: ", ")
            return "[" + shown + (items.count > 8 ? ", … \(items.count) in all" : "") + "]"
        case .object(let members):
            return "{" + members.prefix(6).map { "\($0.0)=\(text($0.1))" }.joined(separator: " ") + (members.count > 6 ? " …" : "") + "}"
        default:
            return value.serialized(pretty: false)
        }
    }

    static func shortSize(_ size: UInt64) -> String {
        let units = ["", "K", "M", "G", "T"]
        var value = Double(size)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? String(size) : oneDecimal(value) + units[unit]
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
