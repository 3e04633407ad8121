/// A patch build's Atom and JSON Feed documents: each changed item's entry replaced in the
/// documents as written (``SyndicationMap``).
import FeedgenBuild
import FeedgenEmit
import FeedgenResolve

extension PatchBuild {
    /// The documents of the feeds that show `changes` (items of `prepared`, the partial site),
    /// each entry of theirs replaced; their maps in `snapshot` moved accordingly. Empty for a
    /// site without a `baseURL`.
    static func syndicationDocuments(
        _ changes: [Change], prepared: PreparedSite, old: BuildSnapshot, session: OutputWriter.Session, snapshot: inout BuildSnapshot
    ) -> Result<[OutputFile], NotApplicable> {
        func no(_ reason: String) -> Result<[OutputFile], NotApplicable> { .failure(NotApplicable(reason: reason)) }
        let feeds = prepared.feeds
        var documents: [OutputFile] = []
        var syndicated = prepared
        for change in changes {
            for link in change.record.links { syndicated.contentPages[link.target] = link.page }
        }
        if let syndication = Syndication(site: syndicated) {
            let edits: [EntryEdit]
            switch entryEdits(changes, feeds: feeds) {
            case .failure(let why): return .failure(why)
            case .success(let found): edits = found
            }
            for (f, list) in Dictionary(grouping: edits, by: \.feed).sorted(by: { $0.key < $1.key }) {
                guard let record = old.feeds[f].syndication else { return no("feeds not mapped") }
                var atomEdits: [(range: Range<Int>, bytes: [UInt8], entry: Int)] = []
                var jsonEdits: [(range: Range<Int>, bytes: [UInt8], entry: Int)] = []
                for (_, change, known) in list {
                    let r = change.record
                    let entry =
                        known ?? record.map.sections.indices.first { record.map.sections[$0] == r.section && record.map.items[$0] == r.item }
                    guard entry.map({ $0 < record.map.atom.count && $0 < record.map.json.count }) ?? true else { return no("snapshot") }
                    let texts = syndication.entryTexts(
                        section: change.section, index: change.item, feed: feeds[change.feed], updated: record.map.updated)
                    guard let entry, let texts else {
                        if entry == nil, texts == nil { continue }  // an item that leads nowhere: no entry
                        return no("a feed entry appeared or went")
                    }
                    atomEdits.append((record.map.atom[entry], Array(texts.atom.utf8), entry))
                    jsonEdits.append((record.map.json[entry], Array(texts.json.utf8), entry))
                }
                guard !atomEdits.isEmpty else { continue }
                guard session.liveHash(record.atomPath) == record.atomHash, session.liveHash(record.jsonPath) == record.jsonHash,
                    let atom = session.mapLive(record.atomPath), let json = session.mapLive(record.jsonPath)
                else { return no("feed documents changed by hand") }
                // Each range must still hold an entry: `  <entry…` to `  </entry>` and a line
                // feed; `    {` to `    }`.
                let atomShaped = atomEdits.allSatisfy { edit in
                    edit.range.upperBound <= atom.bytes.count
                        && atom.bytes[edit.range].starts(with: Array("  <entry".utf8))
                        && atom.bytes[edit.range].reversed().starts(with: Array("  </entry>\n".utf8).reversed())
                }
                let jsonShaped = jsonEdits.allSatisfy { edit in
                    edit.range.upperBound <= json.bytes.count && edit.range.count >= 10
                        && json.bytes[edit.range].starts(with: Array("    {".utf8))
                        && json.bytes[edit.range].reversed().starts(with: Array("    }".utf8).reversed())
                }
                guard atomShaped, jsonShaped else { return no("feed documents map") }
                var map = record.map
                guard let atomFile = Self.splice(atom, atomEdits.map { ($0.range, $0.bytes) }),
                    let jsonFile = Self.splice(json, jsonEdits.map { ($0.range, $0.bytes) })
                else { return no("feed documents map") }
                map.atom = Self.moved(map.atom, by: atomEdits.map { ($0.range, $0.bytes.count, $0.entry) })
                map.json = Self.moved(map.json, by: jsonEdits.map { ($0.range, $0.bytes.count, $0.entry) })
                snapshot.feeds[f].syndication?.map = map
                documents.append(OutputFile(path: record.atomPath, contents: .chunks(atomFile)))
                documents.append(OutputFile(path: record.jsonPath, contents: .chunks(jsonFile)))
            }
        }
        return .success(documents)
    }
}

