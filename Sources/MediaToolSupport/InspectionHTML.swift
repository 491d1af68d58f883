import MediaBytes

/// One self-contained HTML page of a file's structure: the tree, each node's fields, a search
/// box, the bytes of every node except media payloads, and embedded pictures shown as images,
/// with inline CSS and script and nothing fetched from a network, to attach to a bug report or
/// open where the tool is not.
public enum InspectionHTML {
    /// Leaves larger than this show their first `cappedBytes` only.
    public static let cappedBytes = 64 * 1024

    /// The most nodes one page holds, and the most file bytes it embeds: a page of a file of a
    /// million atoms holds its first nodes and says where it stopped (the text tree and JSON
    /// list them all), so the page stays one a browser opens and its making stays small.
    public static let maxNodes = 10_000
    public static let maxEmbeddedBytes = 8 << 20
    /// The largest picture a page shows as an image (cover art, a FLAC or ID3 picture); it
    /// counts against `maxEmbeddedBytes`.
    public static let maxPictureBytes = 2 << 20

    /// What a page may still hold.
    struct Budget {
        var nodes = InspectionHTML.maxNodes
        var bytes = InspectionHTML.maxEmbeddedBytes
        /// Whether a node was left out for lack of room.
        var cut = false
    }

    /// The page for `file`.
    public static func page(_ file: FileInspection, title: String) -> String {
        var diagnostics = file.diagnostics
        var budget = Budget()
        let nodes = list(file.nodes, file: file, budget: &budget, diagnostics: &diagnostics)
        var members: [(String, JSONValue)] = [
            ("path", .string(PathBytes.display(title))), ("format", file.formatName.map(JSONValue.string) ?? .null), ("fileSize", .uint(file.source.size)),
            ("nodes", .array(nodes)), ("diagnostics", .array(diagnostics.map(\.json))),
        ]
        if budget.cut { members.append(("listingLimit", .int(Int64(maxNodes)))) }
        let data = JSONValue.object(members).serialized(pretty: false)
        // Keep the data inert inside <script>: no '<' at all (no "</script" or "<!--"); in JSON
        // a '<' only occurs inside strings, where \u003c is the same character.
        let safe = Self.replacingBytes(data, [("<", "\\u003c")])
        return template.replacing("@TITLE@", with: escape(title)).replacing("@DATA@", with: safe)
    }

    /// The nodes of one list that fit the page (a `.more` node stays a node to open).
    static func list(_ nodes: [InspectionNode], file: FileInspection, budget: inout Budget, diagnostics: inout [Diagnostic]) -> [JSONValue] {
        var out: [JSONValue] = []
        for node in nodes {
            guard budget.nodes > 0 else {
                budget.cut = true
                break
            }
            budget.nodes -= 1
            out.append(json(node, file: file, budget: &budget, diagnostics: &diagnostics))
        }
        return out
    }

    static func json(_ node: InspectionNode, file: FileInspection, budget: inout Budget, diagnostics: inout [Diagnostic]) -> JSONValue {
        let details = node.details
        let children = node.hasChildren ? list(node.children, file: file, budget: &budget, diagnostics: &diagnostics) : []
        diagnostics.appendNew(details.diagnostics)
        // Bytes: a container's header (its children carry the rest), a media node's header, a
        // leaf's bytes up to the cap, while the page's share lasts.
        let end = min(node.range.upperBound, file.source.size)
        var count = end > node.offset ? end - node.offset : 0
        if node.hasChildren || node.holdsMedia { count = min(count, UInt64(node.headerSize)) }
        count = min(count, UInt64(cappedBytes), UInt64(budget.bytes))
        budget.bytes -= Int(count)
        let bytes = (try? file.source.read(at: node.offset, count: Int(count))).map { Array($0) } ?? []
        let fields: [JSONValue] = details.fields.map { field in
            var members: [(String, JSONValue)] = [("name", .string(field.name)), ("value", field.value)]
            if let range = field.range { members.append(("range", .array([.uint(range.lowerBound), .uint(range.upperBound)]))) }
            if let reference = field.reference { members.append(("ref", .string(reference.label))) }
            return .object(members)
        }
        var members: [(String, JSONValue)] = [
            ("type", .string(node.displayType)), ("path", .string(node.path)), ("offset", .uint(node.offset)), ("size", .uint(node.size)),
            ("headerSize", .int(Int64(node.headerSize))), ("summary", .string(details.summary)), ("fields", .array(fields)),
            ("hex", .string(bytes.hexString)), ("shown", .uint(UInt64(bytes.count))),
            ("diagnostics", .array(details.diagnostics.map { .string($0.severity.rawValue + ": " + $0.message) })),
            ("children", .array(children)),
        ]
        if let image = picture(in: details.fields, of: node, bytes: bytes, file: file, budget: &budget) {
            members.append(("image", image))
        }
        return .object(members)
    }

    /// A picture a leaf holds (`InspectionPicture`), as the page shows it: its MIME type and
    /// bytes in Base64, when it fits `maxPictureBytes` and the page's share of bytes.
    static func picture(in fields: [InspectionField], of node: InspectionNode, bytes: [UInt8], file: FileInspection,
                        budget: inout Budget) -> JSONValue? {
        // (Once the page's share of bytes is spent, no field is read to look for one.)
        guard budget.bytes > 0, let picture = InspectionPicture.find(in: fields, of: node, source: file.source, head: bytes) else { return nil }
        let count = Int(picture.range.count)
        // Base64 takes 4 bytes for every 3.
        let cost = (count + 2) / 3 * 4
        let start = Int(picture.range.lowerBound - node.offset)
        guard count <= maxPictureBytes, cost <= budget.bytes,
              let data = start + count <= bytes.count ? Array(bytes[start..<start + count])
                  : (try? file.source.read(at: picture.range.lowerBound, count: count)).map({ Array($0) }),
              data.count == count else { return nil }
        budget.bytes -= cost
        return .object([("field", .string(picture.field)), ("mimeType", .string(picture.mimeType)), ("size", .uint(UInt64(count))),
                        ("base64", .string(Base64.encode(data)))])
    }

    static func escape(_ text: String) -> String {
        replacingBytes(text, [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;")])
    }

    /// `text` with each ASCII pattern replaced, matched on the UTF-8 bytes as a browser or an
    /// XML reader reads them. String's own `replacing` matches whole Characters, and a markup
    /// character can sit inside one (a combining mark after `"`, a prepended mark such as
    /// U+0600 before `<`): it was then left raw, and a tag's value could close an attribute or
    /// the page's `<script>`.
    static func replacingBytes(_ text: String, _ patterns: [(String, String)]) -> String {
        let patterns = patterns.map { (Array($0.0.utf8), Array($0.1.utf8)) }
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        bytes.reserveCapacity(source.count)
        var index = 0
        outer: while index < source.count {
            for (pattern, replacement) in patterns where source[index] == pattern[0] && source[index...].starts(with: pattern) {
                bytes += replacement
                index += pattern.count
                continue outer
            }
            bytes.append(source[index])
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let template = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@ · atominspect</title>
<style>
body { font: 13px/1.4 ui-monospace, Menlo, Consolas, monospace; margin: 0; display: flex; flex-direction: column; height: 100vh; color: #1b1b1b; }
header { padding: 6px 10px; background: #243447; color: #fff; display: flex; gap: 16px; align-items: center; }
header input { flex: 1; max-width: 420px; font: inherit; padding: 3px 6px; }
main { flex: 1; display: flex; min-height: 0; }
#tree { width: 42%; overflow: auto; border-right: 1px solid #ccc; padding: 4px 0; }
#side { flex: 1; display: flex; flex-direction: column; min-width: 0; }
#fields { flex: 1; overflow: auto; padding: 6px 10px; border-bottom: 1px solid #ccc; }
#hex { flex: 1; overflow: auto; padding: 6px 10px; white-space: pre; }
ul { list-style: none; margin: 0; padding-left: 14px; }
#tree > ul { padding-left: 4px; }
li > .row { cursor: pointer; white-space: nowrap; padding: 0 4px; }
li > .row:hover { background: #eef3f8; }
li.selected > .row { background: #cfe0f3; }
li.collapsed > ul { display: none; }
.toggle { display: inline-block; width: 1em; color: #666; }
.off { color: #777; } .sum { color: #2d5f2d; } .diag { color: #a33; }
li.match > .row .type { background: #ffe58a; }
table { border-collapse: collapse; } td { padding: 1px 8px 1px 0; vertical-align: top; }
td.name { color: #555; } tr.hl td { background: #ffe58a; }
.hl { background: #ffe58a; } .hdr { color: #2a6c8f; }
</style>
</head>
<body>
<header><strong id="title"></strong><span id="info"></span><input id="search" type="search" placeholder="search: type, path or text"><span id="count"></span></header>
<main><div id="tree"></div><div id="side"><div id="fields"></div><div id="hex"></div></div></main>
<script id="data" type="application/json">@DATA@</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
// Every node by path, with its parent; a node's list item is made when it is first shown.
const byPath = new Map();
let total = 0;
(function index(nodes, parent) {
  for (const n of nodes) { byPath.set(n.path, { node: n, li: null, parent }); total++; index(n.children, n.path); }
})(data.nodes, null);
// A page of many nodes (a file of thousands of fragments) makes the items of a list when it
// is opened, so it opens at once; a smaller one shows the whole tree open.
const lazy = total > 2000;
let query = "";
let selected = null;
document.getElementById("title").textContent = data.path;
document.getElementById("info").textContent = (data.format || "?") + ", " + data.fileSize + " bytes, " + data.diagnostics.length + " diagnostics"
  + (data.listingLimit ? "; this page holds the first " + data.listingLimit + " nodes (atominspect tree lists them all)" : "")
  + (lazy ? "; " + total + " nodes, each list made when it is opened" : "");
function text(v) { return typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v); }
function open(li, n) {
  if (!li.dataset.built) { li.append(build(n.children)); li.dataset.built = "1"; }
  li.classList.remove("collapsed");
  li.firstChild.firstChild.textContent = "▾";
}
function build(nodes) {
  const ul = document.createElement("ul");
  for (const n of nodes) {
    const li = document.createElement("li");
    li.dataset.path = n.path;
    byPath.get(n.path).li = li;
    const row = document.createElement("div");
    row.className = "row";
    const t = document.createElement("span"); t.className = "toggle"; t.textContent = n.children.length ? "▾" : "";
    const ty = document.createElement("span"); ty.className = "type"; ty.textContent = n.type;
    const off = document.createElement("span"); off.className = "off"; off.textContent = " @" + n.offset + " size=" + n.size;
    const sum = document.createElement("span"); sum.className = "sum"; sum.textContent = n.summary ? "  " + n.summary : "";
    row.append(t, ty, off, sum);
    if (n.diagnostics.length) { const d = document.createElement("span"); d.className = "diag"; d.textContent = "  ⚠ " + n.diagnostics.length; row.append(d); }
    row.addEventListener("click", (e) => {
      if (e.target === t && n.children.length) {
        if (li.classList.contains("collapsed")) { open(li, n); } else { li.classList.add("collapsed"); t.textContent = "▸"; }
      }
      select(n.path);
    });
    li.append(row);
    if (query && matches(n, query)) li.classList.add("match");
    if (n.children.length) {
      if (lazy) { li.classList.add("collapsed"); t.textContent = "▸"; } else { li.append(build(n.children)); li.dataset.built = "1"; }
    }
    ul.append(li);
  }
  return ul;
}
// The entry of `path` with its list item made (its ancestors opened), or null.
function ensure(path) {
  const entry = byPath.get(path);
  if (!entry) return null;
  if (!entry.li) {
    const parent = entry.parent === null ? null : ensure(entry.parent);
    if (!parent) return null;
    open(parent.li, parent.node);
  }
  return entry;
}
function hexView(n, hl) {
  const out = [];
  const bytes = n.hex.match(/../g) || [];
  for (let i = 0; i < bytes.length; i += 16) {
    let line = String(n.offset + i).padStart(10, " ") + "  ";
    let ascii = "";
    for (let j = i; j < i + 16; j++) {
      if (j >= bytes.length) { line += "   "; continue; }
      const at = n.offset + j;
      const cls = hl && at >= hl[0] && at < hl[1] ? "hl" : (j < n.headerSize ? "hdr" : "");
      const b = parseInt(bytes[j], 16);
      line += (cls ? '<span class="' + cls + '">' + bytes[j] + "</span>" : bytes[j]) + " ";
      const c = b >= 32 && b < 127 ? String.fromCharCode(b).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") : ".";
      ascii += cls ? '<span class="' + cls + '">' + c + "</span>" : c;
    }
    out.push(line + " " + ascii);
  }
  if (n.shown < n.size) out.push("… " + (n.size - n.shown) + " more bytes not embedded" + (n.children.length ? " (see the children)" : ""));
  return out.join("\n");
}
function select(path, hl) {
  const entry = ensure(path);
  if (!entry) return;
  if (selected) selected.classList.remove("selected");
  selected = entry.li;
  selected.classList.add("selected");
  const n = entry.node;
  const fields = document.getElementById("fields");
  fields.innerHTML = "";
  const h = document.createElement("div");
  h.innerHTML = "<strong></strong>";
  h.firstChild.textContent = n.path + "  offset " + n.offset + "  size " + n.size + "  header " + n.headerSize;
  fields.append(h);
  const table = document.createElement("table");
  table.id = "field-table";
  for (const f of n.fields) {
    const tr = document.createElement("tr");
    const a = document.createElement("td"); a.className = "name"; a.textContent = f.name;
    const b = document.createElement("td"); b.textContent = text(f.value) + (f.ref ? "  → " + f.ref : "");
    tr.append(a, b);
    if (f.range) tr.addEventListener("mouseenter", () => { document.getElementById("hex").innerHTML = hexView(n, f.range); tr.classList.add("hl"); });
    if (f.range) tr.addEventListener("mouseleave", () => { document.getElementById("hex").innerHTML = hexView(n); tr.classList.remove("hl"); });
    table.append(tr);
  }
  fields.append(table);
  if (n.image) {
    const figure = document.createElement("figure");
    const img = document.createElement("img");
    img.id = "picture";
    img.alt = n.image.mimeType + " picture (" + n.image.field + ")";
    img.style.maxWidth = "100%"; img.style.maxHeight = "320px";
    img.src = "data:" + n.image.mimeType + ";base64," + n.image.base64;
    const caption = document.createElement("figcaption");
    caption.textContent = n.image.mimeType + ", " + n.image.size + " bytes";
    img.addEventListener("load", () => { caption.textContent += ", " + img.naturalWidth + "×" + img.naturalHeight; });
    figure.append(img, caption);
    fields.append(figure);
  }
  for (const d of n.diagnostics) { const p = document.createElement("div"); p.className = "diag"; p.textContent = d; fields.append(p); }
  document.getElementById("hex").innerHTML = hexView(n, hl);
}
function matches(n, q) {
  if (n.type.toLowerCase() === q || n.path.toLowerCase() === q.replace(/^\//, "")) return true;
  if (n.summary.toLowerCase().includes(q)) return true;
  return n.fields.some((f) => typeof f.value === "string" && f.value.toLowerCase().includes(q));
}
document.getElementById("search").addEventListener("input", (e) => {
  const q = e.target.value.trim().toLowerCase();
  query = q;
  let count = 0, first = null;
  for (const [path, { node, li }] of byPath) {
    const hit = q !== "" && matches(node, q);
    if (li) li.classList.toggle("match", hit);
    if (hit) { count++; if (!first) first = path; }
  }
  document.getElementById("count").textContent = q ? count + " found" : "";
  if (first) { select(first); byPath.get(first).li.scrollIntoView({ block: "center" }); }
});
document.getElementById("tree").append(build(data.nodes));
if (data.nodes.length) select(data.nodes[0].path);
// A link may carry a search (page.html#search=stco) or a node to select (#path=moov/udta).
// A component without an index names the first of its type, as --path takes it (moov/trak
// is moov/trak[0] where a movie has several).
function resolve(path) {
  let found = "";
  for (const part of path.replace(/^\//, "").split("/")) {
    const base = found ? found + "/" : "";
    if (byPath.has(base + part)) found = base + part;
    else if (!part.endsWith("]") && byPath.has(base + part + "[0]")) found = base + part + "[0]";
    else return null;
  }
  return found || null;
}
if (location.hash.startsWith("#path=")) {
  const path = resolve(decodeURIComponent(location.hash.slice(6)));
  if (path) { select(path); const li = byPath.get(path).li; if (li) li.scrollIntoView({ block: "center" }); }
}
if (location.hash.startsWith("#search=")) {
  const box = document.getElementById("search");
  box.value = decodeURIComponent(location.hash.slice(8));
  box.dispatchEvent(new Event("input"));
}
</script>
</body>
</html>
"""#
}
